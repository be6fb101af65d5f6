import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectors } from "@/lib/connectors/registry";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { newOAuthMemory, StandInOAuth, type StandInCaller } from "@/lib/connectors/stand-in/oauth";
import type { StandIn } from "@/lib/connectors/types";
import { createSealer } from "@/lib/crypto/secrets";
import { generateTenant } from "@/demo/tenant";

// Every stand-in's OAuth server, as the connect flow uses it: consent page, approval, a code
// exchanged once with its PKCE verifier, and a token the stand-in's API accepts. The caller
// (who the app sees signed in, and its callback) is fixed here; tests/integration/connectors/
// stand-in-doors.test.ts covers the app's own mount, sessions included.

const tenant = generateTenant({ referenceDate: "2026-11-20" });
const sealer = createSealer("stand-in-oauth-test-key-".repeat(2));
const accountFor = { tracker: "csm@demo.test", coderepo: "csm@demo.test", support: "csm@demo.test" } as const;
const personal = Object.values(connectors).filter((def) => def.credential === "user");

describe.each(personal.map((def) => [def.slug as keyof typeof accountFor, def] as const))("%s stand-in OAuth", (slug, def) => {
  let standIn: StandIn;
  let served: Served;
  const account = accountFor[slug];
  const redirectUri = `http://app.test/connections/${slug}/callback`;
  const verifier = "v".repeat(43);
  const params = {
    client_id: `dashboards-${slug}`,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: def.scope,
    state: `state-${slug}`,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    login_hint: account,
  };
  const post = (path: string, body: Record<string, string>) =>
    fetch(`${served.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
      redirect: "manual",
    });
  const approve = async (decision = "approve") => new URL((await post("/oauth/authorize", { ...params, account, decision })).headers.get("location") ?? "");
  const exchange = (code: string, codeVerifier = verifier, redirect = redirectUri) =>
    post("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: redirect, code_verifier: codeVerifier, client_id: params.client_id, client_secret: "stand-in" });

  const caller: StandInCaller = { signedIn: async () => account, callback: redirectUri, sameSite: true };

  beforeAll(async () => {
    standIn = def.createStandIn({ tenant, sealer });
    served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname, caller));
  });
  afterAll(async () => {
    await served.close();
  });

  it("shows a consent page naming the product and the signed-in person's account", async () => {
    const page = await fetch(`${served.url}/oauth/authorize?${new URLSearchParams(params)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(def.product);
    expect(html).toContain(`<strong data-testid="consent-account">${account}</strong>`);
  });

  it("exchanges an approved code once, for a token the stand-in's API accepts", async () => {
    const back = await approve();
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get("state")).toBe(params.state);
    const code = back.searchParams.get("code") ?? "";
    const granted = await exchange(code);
    expect(granted.status).toBe(200);
    const { access_token } = z.object({ access_token: z.string(), token_type: z.literal("Bearer") }).parse(await granted.json());
    expect(await standIn.oauth.verify(`Bearer ${access_token}`)).toBe(account);
    const probe = await def.probe({ baseUrl: served.url, authorization: def.authorization(access_token) });
    expect(probe.summary.length).toBeGreaterThan(0);

    const replay = await exchange(code);
    expect([replay.status, (await replay.json()).error]).toEqual([400, "invalid_grant"]);
  });

  it("refuses a wrong PKCE verifier or redirect URI, and a forged code", async () => {
    const code = (await approve()).searchParams.get("code") ?? "";
    expect((await exchange(code, "w".repeat(43))).status).toBe(400);
    expect((await exchange(code, verifier, "http://evil.test/cb")).status).toBe(400);
    expect((await exchange(`${code.split(".")[0]}.forged`)).status).toBe(400);
  });

  it("sends a cancelled consent back with access_denied and no code", async () => {
    const back = await approve("deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("answers the API with 401 for a token it did not issue", async () => {
    const foreign = createSealer("another-deployment-key-".repeat(2));
    const other = def.createStandIn({ tenant, sealer: foreign }).oauth.mint(account);
    expect(await standIn.oauth.verify(`Bearer ${other}`)).toBeNull();
    await expect(def.probe({ baseUrl: served.url, authorization: def.authorization(other) })).rejects.toMatchObject({ kind: "unauthorized" });
  });
});

describe("the shared calls credential", () => {
  it("has no consent or token endpoint: only the app mints it", async () => {
    const standIn = connectors.calls.createStandIn({ tenant, sealer });
    const caller: StandInCaller = { signedIn: async () => "admin@demo.test", callback: "http://app.test/connections/calls/callback", sameSite: true };
    for (const path of ["/oauth/authorize", "/oauth/token"]) {
      const res = await standIn.handle(new Request(`http://stand-in.test${path}`, { method: "POST" }), path, caller);
      expect([res.status, (await res.json()).error]).toEqual([404, "not_found"]);
    }
    expect(await standIn.oauth.verify(`Bearer ${standIn.oauth.mint("admin@demo.test")}`)).toBe("admin@demo.test");
  });
});

describe("redeemed codes", () => {
  it("are remembered up to the bound, forgotten once expired, and never evicted early", async () => {
    let now = Date.parse("2026-11-20T12:00:00Z");
    const callback = "http://app.test/connections/tracker/callback";
    const memory = newOAuthMemory(3);
    const oauth = new StandInOAuth({
      slug: "tracker",
      product: "Linear",
      tokenPrefix: "lin_oauth",
      sealer,
      accounts: () => ["csm@demo.test"],
      consent: true,
      memory,
      now: () => now,
    });
    const caller: StandInCaller = { signedIn: async () => "csm@demo.test", callback, sameSite: true };
    const verifier = "v".repeat(43);
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
    const code = async () => {
      const res = await oauth.serve(
        new Request("http://app.test/stand-ins/tracker/oauth/authorize", form({
          redirect_uri: callback,
          response_type: "code",
          state: "s",
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
          decision: "approve",
        })),
        "/oauth/authorize",
        caller,
      );
      return new URL(res!.headers.get("location")!).searchParams.get("code")!;
    };
    const redeem = async (c: string) =>
      (await oauth.serve(new Request("http://app.test/stand-ins/tracker/oauth/token", form({ grant_type: "authorization_code", code: c, redirect_uri: callback, code_verifier: verifier })), "/oauth/token", undefined))!;

    const codes = [await code(), await code(), await code(), await code()];
    for (const c of codes.slice(0, 3)) expect((await redeem(c)).status).toBe(200);
    expect(memory.size()).toBe(3);
    const full = await redeem(codes[3]!);
    expect([full.status, (await full.json()).error]).toEqual([429, "rate_limited"]);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);
    // A remembered code is still refused.
    expect((await redeem(codes[0]!)).status).toBe(400);

    now += 5 * 60_000 + 1;
    const fresh = await code();
    expect((await redeem(fresh)).status).toBe(200);
    expect(memory.size()).toBe(1);
  });
});
