import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession, userForRequest } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import { parseConfig } from "@/lib/config";
import { errorEnvelope } from "@/lib/contract/resources";
import { finishConnect, startConnect, type ConnectDeps } from "@/lib/connectors/connect";
import { connectorFor } from "@/lib/connectors/registry";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { RECENT_REQUESTS_MAX } from "@/lib/connectors/stand-in/faults";
import { donorToken, userToken } from "@/lib/connectors/store";
import { createApp, type App } from "@/lib/root";
import { demoUsers } from "@/demo/users";
import { backends } from "../support/backends";

// The stand-ins as the app mounts them under /stand-ins/<slug>, over real loopback HTTP with a
// real database: no stand-in data without a session, a token only for the signed-in person's
// own account and only through this app's callback with PKCE, no organisation or shared
// credential over HTTP, the error envelope on every refusal, and a bounded request recorder.

type Who = "admin" | "csm" | "member";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-doors-"));
const baseEnv = { DATA_DIR: dataDir, SECRET_KEY: "stand-in-doors-test-key-stand-in-doors-test", CONNECTOR_TIMEOUT_MS: "3000" };
const verifier = "v".repeat(43);
const challenge = createHash("sha256").update(verifier).digest("base64url");

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(backends)("stand-ins mounted by the app, over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let served: Served;
  let testApp: App;
  const cookies = {} as Record<Who, string>;

  const deps = async (request: Request, slug: string): Promise<ConnectDeps> => ({
    db: h.db,
    sealer: testApp.sealer(),
    config: testApp.config,
    user: await userForRequest(h.db, request),
    connector: connectorFor(slug),
    invalidate: () => {},
    mintStandIn: (slug, email) => testApp.standIns.mintForConnect(slug, email),
  });

  beforeAll(async () => {
    h = await backend.open();
    for (const who of ["admin", "csm", "member"] as const) {
      const demo = demoUsers.find((u) => u.email === `${who}@demo.test`)!;
      const id = await upsertUser(h.db, { email: demo.email, name: demo.name, groups: demo.groups });
      cookies[who] = `dd_session=${(await startSession(h.db, id, 600_000)).token}`;
    }
    served = await serveOnLoopback(async (req) => {
      const url = new URL(req.url);
      const stand = /^\/stand-ins\/([^/]+)(\/.*)?$/.exec(url.pathname);
      if (stand) return testApp.standIns.serve(req, stand[1]!, stand[2] ?? "/");
      const conn = /^\/connections\/([^/]+)\/(connect|callback|donor\/connect)$/.exec(url.pathname);
      if (conn) {
        const d = await deps(req, conn[1]!);
        if (conn[2] === "callback") return finishConnect(req, d);
        return startConnect(req, d, conn[2] === "connect" ? "user" : "donor");
      }
      return new Response(JSON.stringify({ error: "not_found" }), { status: 404 });
    });
    testApp = createApp(parseConfig({ ...baseEnv, STAND_IN_ORIGIN: served.url }), { storage: h });
  });
  afterAll(async () => {
    await served.close();
    await h.close();
  });

  const callback = (slug: string) => `${served.url}/connections/${slug}/callback`;
  const consent = (slug: string, extra: Record<string, string> = {}) => ({
    client_id: `dashboards-${slug}`,
    redirect_uri: callback(slug),
    response_type: "code",
    scope: "read",
    state: `state-${slug}`,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  const form = (p: string, body: Record<string, string>, who?: Who) =>
    fetch(`${served.url}${p}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(who ? { cookie: cookies[who] } : {}) },
      body: new URLSearchParams(body),
      redirect: "manual",
    });
  const get = (p: string, who?: Who, headers: Record<string, string> = {}) =>
    fetch(`${served.url}${p}`, { headers: { ...headers, ...(who ? { cookie: cookies[who] } : {}) }, redirect: "manual" });
  const approve = (slug: string, who: Who | undefined, extra: Record<string, string> = {}) =>
    form(`/stand-ins/${slug}/oauth/authorize`, { ...consent(slug), decision: "approve", ...extra }, who);
  const exchange = (slug: string, code: string, extra: Record<string, string> = {}) =>
    form(`/stand-ins/${slug}/oauth/token`, { grant_type: "authorization_code", code, redirect_uri: callback(slug), code_verifier: verifier, ...extra });

  /** A refusal: the given status, the error envelope, and no redirect anywhere. */
  async function refused(res: Response, status: number, error?: string): Promise<void> {
    expect(res.status).toBe(status);
    expect(res.headers.get("location")).toBeNull();
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = errorEnvelope.parse(await res.json());
    if (error) expect(body.error).toBe(error);
  }

  it("refuses consent without a session: no code, no redirect (the issue's own request included)", async () => {
    await refused(
      await form("/stand-ins/crmportal/oauth/authorize", {
        decision: "approve",
        account: "portal-users@crmportal.demo.test",
        redirect_uri: "http://x/cb",
        response_type: "code",
      }),
      404,
    );
    for (const slug of ["tracker", "coderepo", "support"]) {
      await refused(await approve(slug, undefined, { account: "csm@demo.test" }), 401, "unauthorized");
      await refused(await get(`/stand-ins/${slug}/oauth/authorize?${new URLSearchParams(consent(slug))}`), 401, "unauthorized");
    }
  });

  it("refuses consent for another person's account", async () => {
    for (const slug of ["tracker", "coderepo", "support"]) {
      await refused(await approve(slug, "member", { account: "csm@demo.test" }), 403, "forbidden");
      await refused(await approve(slug, "member", { account: "someone-on-staff@elsewhere.test" }), 403, "forbidden");
    }
  });

  it("redirects only to this app's own callback for that connector, exact match, even to say no", async () => {
    for (const redirect of ["http://x/cb", callback("coderepo"), `${callback("tracker")}?next=http://x/`, `${callback("tracker")}/`, callback("tracker").replace("127.0.0.1", "localhost")]) {
      await refused(await approve("tracker", "member", { redirect_uri: redirect }), 400, "invalid_request");
      await refused(await form("/stand-ins/tracker/oauth/authorize", { ...consent("tracker", { redirect_uri: redirect }), decision: "deny" }, "member"), 400, "invalid_request");
      await refused(await get(`/stand-ins/tracker/oauth/authorize?${new URLSearchParams(consent("tracker", { redirect_uri: redirect }))}`, "member"), 400, "invalid_request");
    }
  });

  it("requires PKCE with S256: no challenge, a plain one, or an exchange without the verifier is refused", async () => {
    const { code_challenge: _c, ...withoutChallenge } = consent("tracker");
    await refused(await form("/stand-ins/tracker/oauth/authorize", { ...withoutChallenge, decision: "approve" }, "member"), 400, "invalid_request");
    await refused(await approve("tracker", "member", { code_challenge_method: "plain", code_challenge: verifier }), 400, "invalid_request");

    const ok = await approve("tracker", "member");
    expect(ok.status).toBe(303);
    const back = new URL(ok.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(callback("tracker"));
    const code = back.searchParams.get("code") ?? "";
    await refused(await exchange("tracker", code, { code_verifier: "" }), 400, "invalid_grant");
    await refused(await exchange("tracker", code, { code_verifier: "w".repeat(43) }), 400, "invalid_grant");
    // A refused exchange changes nothing: the code still works once with its verifier.
    const granted = await exchange("tracker", code);
    expect(granted.status).toBe(200);
    const { access_token } = (await granted.json()) as { access_token: string };
    expect(await testApp.standIns.all().tracker.oauth.verify(`Bearer ${access_token}`)).toBe("member@demo.test");
    await refused(await exchange("tracker", code), 400, "invalid_grant");
  });

  it("never hands out the CRM portal's organisation tokens or the shared calls credential over HTTP", async () => {
    for (const account of ["portal-users@crmportal.demo.test", "portal-customers@crmportal.demo.test"]) {
      await refused(await approve("crmportal", "admin", { account }), 404, "not_found");
      await refused(await get(`/stand-ins/crmportal/oauth/authorize?${new URLSearchParams(consent("crmportal"))}`, "admin"), 404, "not_found");
    }
    await refused(await approve("calls", "admin", { account: "admin@demo.test" }), 404, "not_found");
    await refused(await approve("calls", "admin"), 404, "not_found");
    for (const slug of ["crmportal", "calls"]) await refused(await exchange(slug, "anything.at-all"), 404, "not_found");
  });

  it("answers every data endpoint without a valid token with 401 and the envelope", async () => {
    const forged = { authorization: "Bearer pat-na1_cG9ydGFsLXVzZXJzQGNybXBvcnRhbC5kZW1vLnRlc3Q.forged" };
    for (const [p, headers] of [
      ["/stand-ins/crmportal/crm/v3/objects/contacts", {}],
      ["/stand-ins/crmportal/crm/v3/objects/contacts", forged],
      ["/stand-ins/calls/v2/calls", {}],
      ["/stand-ins/calls/v2/calls", { authorization: "Bearer gong_forged.x" }],
      [`${testApp.standIns.all().calls.apiBaseFor!("/stand-ins/calls")}/v2/calls`, { authorization: "Bearer gong_forged.x" }],
      ["/stand-ins/coderepo/user/repos", {}],
      ["/stand-ins/support/conversations", { authorization: "Bearer tok_x.y" }],
    ] as const) {
      await refused(await get(p, "admin", headers), 401);
    }
    await refused(await form("/stand-ins/tracker/graphql", { query: "{ viewer { id } }" }, "admin"), 401);
  });

  it("still reads data with a token minted in-process, as the app's own clients do", async () => {
    const gong = testApp.standIns.all().calls;
    const token = gong.oauth.mint("admin@demo.test");
    // Gong's API is at the customer's own base, which its token answer names; its root is not.
    const customer = gong.apiBaseFor!("/stand-ins/calls");
    const calls = await get(`${customer}/v2/calls`, undefined, { authorization: `Bearer ${token}` });
    expect(calls.status).toBe(200);
    await refused(await get("/stand-ins/calls/v2/calls", undefined, { authorization: `Bearer ${token}` }), 401);
    const portal = await get("/stand-ins/crmportal/account-info/v3/details", undefined, {
      authorization: `Bearer ${testApp.standIns.crmportal().oauth.mint("portal-customers@crmportal.demo.test")}`,
    });
    expect(portal.status).toBe(200);
  });

  it("connects a signed-in member's own account end to end through /connections", async () => {
    const start = await form("/connections/tracker/connect", {}, "member");
    expect(start.status).toBe(303);
    const authorizeUrl = new URL(start.headers.get("location") ?? "");
    expect(authorizeUrl.pathname).toBe("/stand-ins/tracker/oauth/authorize");

    const page = await get(`${authorizeUrl.pathname}${authorizeUrl.search}`, "member");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("member@demo.test");
    expect(html).not.toContain("csm@demo.test");
    expect(html).not.toContain("<select");

    const approved = await form(authorizeUrl.pathname, { ...Object.fromEntries(authorizeUrl.searchParams), decision: "approve" }, "member");
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe(callback("tracker"));

    const done = await get(`${back.pathname}${back.search}`, "member");
    expect([done.status, done.headers.get("location")]).toEqual([303, "/connections?connected=tracker"]);
    const memberId = (await userForRequest(h.db, new Request(served.url, { headers: { cookie: cookies.member } })))!.id;
    const stored = await userToken(h.db, testApp.sealer(), memberId, "tracker");
    expect(await testApp.standIns.all().tracker.oauth.verify(`Bearer ${stored!.accessToken}`)).toBe("member@demo.test");
  });

  it("connects the shared calls credential in-process for an admin, and for no one else", async () => {
    const refusedCsm = await form("/connections/calls/donor/connect", {}, "csm");
    expect(refusedCsm.status).toBe(403);
    const admin = await form("/connections/calls/donor/connect", {}, "admin");
    expect([admin.status, admin.headers.get("location")]).toEqual([303, "/connections?connected=calls"]);
    const stored = await donorToken(h.db, testApp.sealer(), "calls");
    expect(await testApp.standIns.all().calls.oauth.verify(`Bearer ${stored!.accessToken}`)).toBe("admin@demo.test");
    // As Gong's token answer would, the grant names the customer's API base, where the app reaches the stand-in.
    expect(stored!.apiBaseUrl).toBe(testApp.standIns.all().calls.apiBaseFor!(`${served.url}/stand-ins/calls`));
  });

  it("answers 404 with the envelope for a connector that uses the real product", async () => {
    const mounted = testApp;
    testApp = createApp(parseConfig({ ...baseEnv, STAND_IN_ORIGIN: served.url, TRACKER_CLIENT_ID: "real-client", CRMPORTAL_TOKEN: "pat-real" }), { storage: h });
    try {
      await refused(await get(`/stand-ins/tracker/oauth/authorize?${new URLSearchParams(consent("tracker"))}`, "member"), 404, "not_found");
      await refused(await approve("tracker", "member"), 404, "not_found");
      await refused(await form("/stand-ins/tracker/graphql", {}, "member"), 404, "not_found");
      await refused(await get("/stand-ins/crmportal/crm/v3/objects/contacts", "admin"), 404, "not_found");
      await refused(await get("/stand-ins/nosuch/anything", "admin"), 404, "not_found");
      // The others are still on their stand-ins.
      expect((await get(`/stand-ins/coderepo/oauth/authorize?${new URLSearchParams(consent("coderepo"))}`, "member")).status).toBe(200);
    } finally {
      testApp = mounted;
    }
  });

  it("keeps a bounded record of recent requests, without Authorization or Cookie values", async () => {
    const support = testApp.standIns.all().support;
    support.faults.clear();
    const total = RECENT_REQUESTS_MAX * 2 + 50;
    for (let i = 0; i < total; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          get(`/stand-ins/support/conversations?n=${i + j}`, undefined, { authorization: `Bearer secret-token-${i + j}`, cookie: `dd_session=secret-cookie-${i + j}` }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
    }
    expect(support.faults.seen.length).toBeLessThanOrEqual(RECENT_REQUESTS_MAX);
    expect(support.faults.seen.length).toBeGreaterThan(0);
    const kept = JSON.stringify(support.faults.seen);
    expect(kept).not.toContain("secret-token");
    expect(kept).not.toContain("secret-cookie");
  });
});
