import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { demoSignIn, signOut } from "@/lib/signin/routes";
import { userForToken } from "@/lib/auth/session";
import { seedDemo } from "@/lib/seed";
import { backends, testSeed } from "../support/backends";

const origin = "http://app.test";

function form(fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}/signin/demo`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

function sessionFrom(res: Response): string | undefined {
  return /dd_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
}

describe.each(backends)("sign-in routes on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let deps: Parameters<typeof demoSignIn>[1];
  beforeAll(async () => {
    h = await backend.open();
    await seedDemo(h.db, testSeed());
    deps = { db: async () => h.db, config: parseConfig({ NODE_ENV: "test" }) };
  });
  afterAll(async () => {
    await h.close();
  });

  it("signs a demo user in with an HttpOnly, SameSite=Lax session cookie and answers 303 to next", async () => {
    const res = await demoSignIn(form({ email: "csm@demo.test", next: "/docs" }, { origin, "sec-fetch-site": "same-origin" }), deps);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/docs");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // plain http here
    const token = sessionFrom(res)!;
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(16);
    expect((await userForToken(h.db, token))?.email).toBe("csm@demo.test");
  });

  it("marks the cookie Secure on https", async () => {
    const req = new Request("https://app.test/signin/demo", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=member%40demo.test",
    });
    expect((await demoSignIn(req, deps)).headers.get("set-cookie")).toMatch(/; Secure/);
  });

  it.each(["https://evil.test/x", "//evil.test", "/\\evil.test", "javascript:alert(1)"])("never redirects off-site (next=%s)", async (next) => {
    const res = await demoSignIn(form({ email: "member@demo.test", next }), deps);
    expect(res.headers.get("location")).toBe("/");
  });

  it("rotates: the session the browser carried before sign-in stops working", async () => {
    const first = sessionFrom(await demoSignIn(form({ email: "admin@demo.test" }), deps))!;
    const again = await demoSignIn(
      new Request(`${origin}/signin/demo`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `dd_session=${first}` },
        body: "email=admin%40demo.test",
      }),
      deps,
    );
    const second = sessionFrom(again)!;
    expect(second).not.toBe(first);
    expect(await userForToken(h.db, first)).toBeNull();
    expect((await userForToken(h.db, second))?.email).toBe("admin@demo.test");
  });

  it("refuses cross-site posts and creates no session", async () => {
    const before = await h.db.selectFrom("sessions").select(h.db.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const attempts: Record<string, string>[] = [{ origin: "https://evil.test" }, { "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }];
    for (const headers of attempts) {
      const res = await demoSignIn(form({ email: "admin@demo.test" }, headers), deps);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("forbidden");
    }
    const after = await h.db.selectFrom("sessions").select(h.db.fn.countAll().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("answers unknown users with a clear error, and sends browsers back to the form", async () => {
    const res = await demoSignIn(form({ email: "nobody@demo.test" }), deps);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "unknown_user" });
    const page = await demoSignIn(form({ email: "nobody@demo.test", next: "/x" }, { accept: "text/html" }), deps);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/signin?error=unknown_user&next=%2Fx");
    const json = await demoSignIn(new Request(`${origin}/signin/demo`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), deps);
    expect(json.status).toBe(415);
  });

  it("is off when an identity provider is configured", async () => {
    const oidcDeps = {
      ...deps,
      config: parseConfig({ OIDC_ISSUER: "https://id.example.test", OIDC_CLIENT_ID: "c" }),
    };
    const res = await demoSignIn(form({ email: "admin@demo.test" }), oidcDeps);
    expect(res.status).toBe(404);
  });

  it("signs out: the session ends and the cookie is cleared", async () => {
    const token = sessionFrom(await demoSignIn(form({ email: "member@demo.test" }), deps))!;
    const res = await signOut(new Request(`${origin}/signout`, { method: "POST", headers: { cookie: `dd_session=${token}` } }), deps);
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(/dd_session=; .*Max-Age=0/);
    expect(await userForToken(h.db, token)).toBeNull();
  });
});
