import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { upsertUser } from "@/lib/auth/users";
import { startSession, type SessionUser } from "@/lib/auth/session";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { ACCESS_TTL_MS, CODE_TTL_MS, bearerIdentity, connectedApps, redeemCode, revokeGrant } from "@/lib/auth/oauth";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { authorizationServerMetadata, oauthErrorAnswer, protectedResourceMetadata, registeredClient, tokenAnswer } from "@/lib/contract/oauth";
import { agentRulesMarkdown, agentStatesMarkdown } from "@/lib/reference/agent-rules";
import { agentRoutes } from "@/lib/agent/routes";
import { saveDashboard } from "@/lib/saved/store";
import { addTrust, newSavedReads } from "@/lib/saved/trust";
import type { RouteModule } from "@/lib/http/edge";
import { ApiError } from "@/lib/contract/errors";
import type { Drawings } from "@/lib/saved/drawings";
import { backends, testSealer } from "../support/backends";

// The MCP endpoint's authorization server and its bearer check, on both engines: what a client
// registers, the consent step as the signed-in person's own act, codes bound to client, redirect
// URI, PKCE and resource and good once, refresh tokens that rotate and end the grant when
// replayed, and the MCP endpoint's 401 challenge and consent rules for saved dashboards.

const ORIGIN = "http://127.0.0.1:3000";
const RESOURCE = `${ORIGIN}/dashboards/playground/mcp`;
const REDIRECT = "http://127.0.0.1:45678/callback";

const verifier = () => randomBytes(32).toString("base64url");
const challengeOf = (v: string) => createHash("sha256").update(v).digest("base64url");

type Json = Record<string, unknown>;

function req(path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit | null } = {}): Request {
  return new Request(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers: { host: "127.0.0.1:3000", ...init.headers }, body: init.body ?? null });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(backends)("the MCP authorization server on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let routes: OAuthRoutes;
  let mcp: RouteModule;
  let viewer: { id: number; token: string; csrf: string };
  let author: { id: number; token: string; csrf: string };
  /** The safe view's drawings asked for over MCP: who for, what, the paths the code reads, at which width. */
  const drawn: { viewer: number; slug: string; revision: number; reads: string[]; viewport: string }[] = [];
  /** Set to make the next drawing answer that the renderer is busy. */
  let busyNext = false;
  const drawings: Drawings = {
    async draw(who, dashboard, reads, viewport) {
      if (busyNext) {
        busyNext = false;
        throw new ApiError("renderer_busy", "Every drawing slot is taken; retry in 7 s.", { "retry-after": "7" });
      }
      drawn.push({ viewer: who.id, slug: "slug" in dashboard ? dashboard.slug : "", revision: dashboard.revision, reads: [...reads.paths], viewport });
      return { html: `<!doctype html><p>drawn for ${who.email}</p>`, drawnAt: new Date(0).toISOString(), height: 200, revision: dashboard.revision, viewport, remembered: false, answers: [{ path: "/me", status: 200 }] };
    },
    pageOf: () => null,
    read: async () => Response.json({ error: "not_found" }, { status: 404 }),
  };
  const apiReads: { path: string; user: SessionUser; query: string }[] = [];

  async function person(email: string) {
    const id = await upsertUser(h.db, { email, name: email.split("@")[0]!, groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    return { id, token, csrf: csrfTokenFor(testSealer, token) };
  }

  async function register(body: unknown = { client_name: "Test client", redirect_uris: [REDIRECT] }): Promise<Response> {
    return routes.register.POST(req("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) }));
  }

  async function clientId(): Promise<string> {
    const r = await register();
    expect(r.status).toBe(201);
    // The answer is what the reference documents, field for field.
    return registeredClient.strict().parse(await r.json()).client_id;
  }

  const authorizeQuery = (client: string, v: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({ response_type: "code", client_id: client, redirect_uri: REDIRECT, code_challenge: challengeOf(v), code_challenge_method: "S256", state: "s-1", resource: RESOURCE, ...extra });

  /** The consent page's Approve (or Deny), as the signed-in person's browser sends it. */
  function answer(query: URLSearchParams, decision: string, who = viewer, headers: Record<string, string> = {}) {
    const body = form({ ...Object.fromEntries(query), csrf: who.csrf, decision });
    return routes.authorize.POST(
      req("/oauth/authorize", {
        method: "POST",
        // A browser sends the length, which the CSRF check reads before it reads the form.
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), cookie: `dd_session=${who.token}`, origin: ORIGIN, "sec-fetch-site": "same-origin", ...headers },
        body,
      }),
    );
  }

  async function code(client: string, v: string, extra: Record<string, string> = {}, who = viewer): Promise<string> {
    const r = await answer(authorizeQuery(client, v, extra), "approve", who);
    expect(r.status).toBe(303);
    const back = new URL(r.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("s-1");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    return back.searchParams.get("code")!;
  }

  function token(fields: Record<string, string>, headers: Record<string, string> = {}) {
    return routes.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: form(fields) }));
  }

  async function tokens(client: string, who = viewer): Promise<{ access_token: string; refresh_token: string }> {
    const v = verifier();
    const c = await code(client, v, {}, who);
    const r = await token({ grant_type: "authorization_code", client_id: client, code: c, redirect_uri: REDIRECT, code_verifier: v, resource: RESOURCE });
    expect(r.status, await r.clone().text()).toBe(200);
    return tokenAnswer.strict().parse(await r.json());
  }

  /** An OAuth error answer: the status, the code, and words, as OAuth's description and the envelope's hint alike. */
  async function oauthError(r: Response, status: number, error: string): Promise<string> {
    const body = (await r.json()) as Json;
    expect({ status: r.status, error: body.error }, JSON.stringify(body)).toEqual({ status, error });
    // OAuth's {error, error_description}, and the envelope's hint beside them saying the same.
    const answer = oauthErrorAnswer.strict().parse(body);
    expect(answer.hint).toBe(answer.error_description);
    return answer.error_description;
  }

  beforeAll(async () => {
    h = await backend.open();
    // Every request here comes from one address: the allowances have their own test.
    const deps = { db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 10_000, token: 10_000 } };
    routes = oauthRoutes(deps);
    viewer = await person("member@demo.test");
    author = await person("csm@demo.test");
    mcp = agentRoutes({
      rules: { rules: agentRulesMarkdown, states: agentStatesMarkdown },
      playground: () => Promise.reject(new Error("no playground in this test")),
      dashboards: {
        ...deps,
        savedReads: newSavedReads(),
        drawings,
        readApi: async (user, path, search) => {
          apiReads.push({ path, user, query: search.toString() });
          return { status: 200, body: { email: user.email } };
        },
      },
    }).mcp;
  });
  afterAll(async () => {
    await h.close();
  });

  describe("metadata", () => {
    it("describes the MCP endpoint as a protected resource, at the path-inserted and the root address", async () => {
      for (const path of [[], ["dashboards", "playground", "mcp"]]) {
        const r = await routes.protectedResource.GET(req(`/.well-known/oauth-protected-resource/${path.join("/")}`), { params: { path } });
        expect(r.status).toBe(200);
        expect(protectedResourceMetadata.strict().parse(await r.json())).toMatchObject({ resource: RESOURCE, authorization_servers: [ORIGIN], scopes_supported: ["dashboards"], bearer_methods_supported: ["header"], resource_documentation: `${ORIGIN}/docs/demo-api#mcp-hosts` });
      }
      const other = await routes.protectedResource.GET(req("/.well-known/oauth-protected-resource/api"), { params: { path: ["api"] } });
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ error: "not_found", hint: expect.any(String) });
    });

    it("describes the authorization server: code with S256 only, public clients, registration", async () => {
      const r = await routes.authorizationServer.GET(req("/.well-known/oauth-authorization-server"));
      expect(authorizationServerMetadata.strict().parse(await r.json())).toMatchObject({
        issuer: ORIGIN,
        authorization_endpoint: `${ORIGIN}/oauth/authorize`,
        token_endpoint: `${ORIGIN}/oauth/token`,
        registration_endpoint: `${ORIGIN}/oauth/register`,
        revocation_endpoint: `${ORIGIN}/oauth/revoke`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    });

    it("names no host it cannot believe", async () => {
      const r = await routes.authorizationServer.GET(new Request("http://evil.test/.well-known/oauth-authorization-server", { headers: { host: "evil.test" } }));
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ error: "untrusted_host" });
    });
  });

  describe("registration", () => {
    it("registers a public client and answers its metadata", async () => {
      const r = await register({ client_name: "  VS Code  ", redirect_uris: [REDIRECT, "https://vscode.dev/redirect", REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], scope: "dashboards", extra: 1 });
      expect(r.status).toBe(201);
      expect(r.headers.get("cache-control")).toBe("no-store");
      const body = (await r.json()) as Json;
      expect(body).toMatchObject({ client_name: "VS Code", redirect_uris: [REDIRECT, "https://vscode.dev/redirect"], token_endpoint_auth_method: "none" });
      expect(body.client_id).toMatch(/^dd_client_[A-Za-z0-9_-]{24}$/);
      expect(body).not.toHaveProperty("client_secret");
    });

    const bad: [string, unknown, string][] = [
      ["not JSON", "{nope", "invalid_client_metadata"],
      ["an array", [], "invalid_client_metadata"],
      ["no redirect_uris", { client_name: "x" }, "invalid_redirect_uri"],
      ["an empty list", { redirect_uris: [] }, "invalid_redirect_uri"],
      ["six URIs", { redirect_uris: [1, 2, 3, 4, 5, 6].map((n) => `https://a.test/${n}`) }, "invalid_redirect_uri"],
      ["http off loopback", { redirect_uris: ["http://app.test/cb"] }, "invalid_redirect_uri"],
      ["javascript:", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      ["a custom scheme", { redirect_uris: ["myapp://cb"] }, "invalid_redirect_uri"],
      ["a relative URI", { redirect_uris: ["/cb"] }, "invalid_redirect_uri"],
      ["a fragment", { redirect_uris: ["https://a.test/cb#x"] }, "invalid_redirect_uri"],
      ["credentials", { redirect_uris: ["https://u:p@a.test/cb"] }, "invalid_redirect_uri"],
      ["a control character", { redirect_uris: ["https://a.test/c\u0000b"] }, "invalid_redirect_uri"],
      ["a line separator", { redirect_uris: ["https://a.test/c\u2028b"] }, "invalid_redirect_uri"],
      ["a number", { redirect_uris: [42] }, "invalid_redirect_uri"],
      ["a 513-character URI", { redirect_uris: [`https://a.test/${"x".repeat(498)}`] }, "invalid_redirect_uri"],
      ["a 101-character name", { client_name: "n".repeat(101), redirect_uris: [REDIRECT] }, "invalid_client_metadata"],
      ["a name with a control character", { client_name: "a\u001bb", redirect_uris: [REDIRECT] }, "invalid_client_metadata"],
      ["a name that is not text", { client_name: { a: 1 }, redirect_uris: [REDIRECT] }, "invalid_client_metadata"],
      ["a client secret method", { redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_basic" }, "invalid_client_metadata"],
      ["client credentials", { redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      ["the implicit flow", { redirect_uris: [REDIRECT], response_types: ["token"] }, "invalid_client_metadata"],
      ["an unknown scope", { redirect_uris: [REDIRECT], scope: "dashboards admin" }, "invalid_client_metadata"],
      ["an http client_uri", { redirect_uris: [REDIRECT], client_uri: "http://a.test" }, "invalid_client_metadata"],
    ];
    it.each(bad)("refuses %s with the OAuth error and stores nothing", async (_what, body, error) => {
      const before = await h.db.selectFrom("oauth_clients").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      await oauthError(await register(body), 400, error);
      const after = await h.db.selectFrom("oauth_clients").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it("holds each address to an allowance of registrations and token requests", async () => {
      const limited = oauthRoutes({ db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 2, token: 1 } });
      const body = JSON.stringify({ redirect_uris: [REDIRECT] });
      const registerOnce = () => limited.register.POST(req("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body }));
      expect((await registerOnce()).status).toBe(201);
      expect((await registerOnce()).status).toBe(201);
      const third = await registerOnce();
      expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
      await oauthError(third, 429, "temporarily_unavailable");
      const tokenOnce = () => limited.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token" }));
      expect((await tokenOnce()).status).toBe(400);
      await oauthError(await tokenOnce(), 429, "temporarily_unavailable");
    });

    it("refuses a body over 8 KiB, one that is not UTF-8, and one that is not JSON by type", async () => {
      await oauthError(await register({ client_name: "x", redirect_uris: [REDIRECT], pad: "x".repeat(9000) }), 413, "invalid_client_metadata");
      const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
      await oauthError(await routes.register.POST(req("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: bytes })), 400, "invalid_client_metadata");
      await oauthError(await routes.register.POST(req("/oauth/register", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })), 400, "invalid_client_metadata");
    });
  });

  describe("authorization", () => {
    it("sends someone signed out through sign-in, and back to the same request", async () => {
      const q = authorizeQuery(await clientId(), verifier());
      const r = await routes.authorize.GET(req(`/oauth/authorize?${q}`));
      expect(r.status).toBe(303);
      const to = new URL(r.headers.get("location")!, ORIGIN);
      expect(to.pathname).toBe("/signin");
      expect(to.searchParams.get("next")).toBe(`/oauth/authorize?${q}`);
    });

    it("shows the signed-in person a consent page naming the app, its redirect and what it may do", async () => {
      const reg = await register({ client_name: '<img src=x onerror="alert(1)">', redirect_uris: [REDIRECT] });
      const client = ((await reg.json()) as { client_id: string }).client_id;
      const r = await routes.authorize.GET(req(`/oauth/authorize?${authorizeQuery(client, verifier())}`, { headers: { cookie: `dd_session=${viewer.token}` } }));
      expect(r.status).toBe(200);
      const csp = r.headers.get("content-security-policy")!;
      expect(csp).toContain("form-action 'self' http://127.0.0.1:45678");
      expect(csp).toContain("frame-ancestors 'none'");
      const html = await r.text();
      expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
      expect(html).not.toContain("<img");
      expect(html).toContain(REDIRECT);
      expect(html).toContain(`name="csrf" value="${viewer.csrf}"`);
      expect(html).toMatch(/<button[^>]*value="approve"/);
      expect(html).toMatch(/<button[^>]*value="deny"/);
    });

    it("never redirects to an unknown client or an unregistered redirect URI", async () => {
      const client = await clientId();
      const cases = [
        authorizeQuery("dd_client_unknown", verifier()),
        authorizeQuery(client, verifier(), { redirect_uri: "http://127.0.0.1:45678/other" }),
        authorizeQuery(client, verifier(), { redirect_uri: "https://attacker.test/callback" }),
      ];
      for (const q of cases) {
        const r = await routes.authorize.GET(req(`/oauth/authorize?${q}`, { headers: { cookie: `dd_session=${viewer.token}` } }));
        expect(r.status).toBe(400);
        expect(r.headers.get("location")).toBeNull();
        expect(r.headers.get("content-type")).toContain("text/html");
        // Not even approving it sends a code anywhere.
        const a = await answer(q, "approve");
        expect(a.status).toBe(400);
        expect(a.headers.get("location")).toBeNull();
      }
      // Bytes no client sends, and sizes no client needs, are refused before anything is looked up.
      const odd: Record<string, string>[] = [{ client_id: `${client}\u0000` }, { redirect_uri: `${REDIRECT}\n` }, { client_id: "x".repeat(1025) }, { state: "s\u007f" }];
      for (const extra of odd) {
        const q = authorizeQuery(client, verifier(), extra);
        const r = await routes.authorize.GET(req(`/oauth/authorize?${q}`, { headers: { cookie: `dd_session=${viewer.token}` } }));
        expect(r.status, JSON.stringify(extra)).toBe(400);
        expect(r.headers.get("location")).toBeNull();
      }
      const twice = new URLSearchParams(authorizeQuery(client, verifier()));
      twice.append("redirect_uri", "https://attacker.test/callback");
      const r = await routes.authorize.GET(req(`/oauth/authorize?${twice}`, { headers: { cookie: `dd_session=${viewer.token}` } }));
      expect(r.status).toBe(400);
      expect(r.headers.get("location")).toBeNull();
    });

    const redirected: [string, Record<string, string>, string][] = [
      ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request"],
      ["no PKCE method", { code_challenge_method: "" }, "invalid_request"],
      ["no challenge", { code_challenge: "" }, "invalid_request"],
      ["a short challenge", { code_challenge: "abc" }, "invalid_request"],
      ["a challenge with bad bytes", { code_challenge: `${"a".repeat(42)}+` }, "invalid_request"],
      ["the implicit flow", { response_type: "token" }, "unsupported_response_type"],
      ["another resource", { resource: "https://elsewhere.test/mcp" }, "invalid_target"],
      ["another path of this server", { resource: `${ORIGIN}/api` }, "invalid_target"],
      ["an unknown scope", { scope: "dashboards admin" }, "invalid_scope"],
      ["a 513-character state", { state: "s".repeat(513) }, "invalid_request"],
    ];
    it.each(redirected)("sends %s back to the client as an error, with its state", async (_what, extra, error) => {
      const q = authorizeQuery(await clientId(), verifier(), extra);
      for (const r of [await routes.authorize.GET(req(`/oauth/authorize?${q}`, { headers: { cookie: `dd_session=${viewer.token}` } })), await answer(q, "approve")]) {
        expect(r.status).toBe(303);
        const back = new URL(r.headers.get("location")!);
        expect(back.origin + back.pathname).toBe(REDIRECT);
        expect(back.searchParams.get("error")).toBe(error);
        expect(back.searchParams.get("code")).toBeNull();
        if (!extra.state) expect(back.searchParams.get("state")).toBe("s-1");
      }
    });

    it("takes the answer only from the signed-in person on the consent page itself", async () => {
      const q = authorizeQuery(await clientId(), verifier());
      const count = async () => Number((await h.db.selectFrom("oauth_codes").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      const before = await count();
      // Another site's form, a stale CSRF token, no session.
      expect((await answer(q, "approve", viewer, { "sec-fetch-site": "cross-site", origin: "https://attacker.test" })).status).toBe(403);
      expect((await answer(q, "approve", { ...viewer, csrf: author.csrf })).status).toBe(403);
      expect((await answer(q, "approve", { ...viewer, token: "nope" })).status).toBe(401);
      expect(await count()).toBe(before);
      // Deny sends access_denied and no code.
      const denied = new URL((await answer(q, "deny")).headers.get("location")!);
      expect(denied.searchParams.get("error")).toBe("access_denied");
      expect(denied.searchParams.get("code")).toBeNull();
      expect(await count()).toBe(before);
    });
  });

  describe("tokens", () => {
    it("exchanges a code for tokens bound to the person, the client and the MCP endpoint", async () => {
      const client = await clientId();
      const t = await tokens(client);
      expect(t.access_token).toMatch(/^dd_at_/);
      expect(t.refresh_token).toMatch(/^dd_rt_/);
      const who = await bearerIdentity(h.db, t.access_token, RESOURCE);
      expect(who).toMatchObject({ userId: viewer.id, clientId: client, scope: "dashboards" });
      // Audience-bound, short-lived, and stored only as digests.
      expect(await bearerIdentity(h.db, t.access_token, "http://localhost:3000/dashboards/playground/mcp")).toBeNull();
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE, Date.now() + ACCESS_TTL_MS + 1)).toBeNull();
      expect(await bearerIdentity(h.db, t.refresh_token, RESOURCE)).toBeNull();
      const stored = await h.db.selectFrom("oauth_tokens").select("token_hash").execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(t.access_token);
      expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    });

    it("redeems a code once; a second redemption revokes what the first got", async () => {
      const client = await clientId();
      const v = verifier();
      const c = await code(client, v);
      const fields = { grant_type: "authorization_code", client_id: client, code: c, redirect_uri: REDIRECT, code_verifier: v };
      const first = await token(fields);
      expect(first.status).toBe(200);
      const got = (await first.json()) as { access_token: string; refresh_token: string };
      await oauthError(await token(fields), 400, "invalid_grant");
      expect(await bearerIdentity(h.db, got.access_token, RESOURCE)).toBeNull();
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: got.refresh_token }), 400, "invalid_grant");
    });

    // A resource that is not this endpoint is refused before the code is looked at; the rest spend it.
    it("answers one of two redemptions of a code sent at once, and revokes what it got", async () => {
      const client = await clientId();
      const v = verifier();
      const c = await code(client, v);
      const fields = { grant_type: "authorization_code", client_id: client, code: c, redirect_uri: REDIRECT, code_verifier: v };
      const answers = await Promise.all([token(fields), token(fields), token(fields)]);
      const ok = answers.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of answers.filter((a) => a.status !== 200)) await oauthError(r, 400, "invalid_grant");
      const got = (await ok[0]!.json()) as { access_token: string };
      expect(await bearerIdentity(h.db, got.access_token, RESOURCE)).toBeNull();
    });

    it("rotates a refresh token once when it is sent twice at once, and ends the grant", async () => {
      const client = await clientId();
      const t = await tokens(client);
      const fields = { grant_type: "refresh_token", client_id: client, refresh_token: t.refresh_token };
      const answers = await Promise.all([token(fields), token(fields)]);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const got = (await answers.find((r) => r.status === 200)!.json()) as { access_token: string };
      expect(await bearerIdentity(h.db, got.access_token, RESOURCE)).toBeNull();
    });

    const mismatches: [string, (f: Record<string, string>) => Record<string, string>, string][] = [
      ["a wrong verifier", (f) => ({ ...f, code_verifier: verifier() }), "invalid_grant"],
      ["a verifier that is the challenge (plain)", (f) => ({ ...f, code_verifier: challengeOf(f.code_verifier!) }), "invalid_grant"],
      ["a short verifier", (f) => ({ ...f, code_verifier: "short" }), "invalid_grant"],
      ["another redirect URI", (f) => ({ ...f, redirect_uri: "http://127.0.0.1:45678/other" }), "invalid_grant"],
      ["another resource", (f) => ({ ...f, resource: "https://elsewhere.test/mcp" }), "invalid_target"],
      ["an unknown code", (f) => ({ ...f, code: "x".repeat(43) }), "invalid_grant"],
      ["a 200-character code", (f) => ({ ...f, code: "x".repeat(200) }), "invalid_grant"],
    ];
    it.each(mismatches)("refuses a code with %s, and the code is spent", async (_what, change, error) => {
      const client = await clientId();
      const v = verifier();
      const c = await code(client, v);
      const fields = { grant_type: "authorization_code", client_id: client, code: c, redirect_uri: REDIRECT, code_verifier: v };
      await oauthError(await token(change(fields)), 400, error);
      const again = await token(fields);
      if (error === "invalid_target") expect(again.status).toBe(200);
      else if (change(fields).code === c) await oauthError(again, 400, "invalid_grant");
    });

    it("refuses a code issued to another client, and an expired one", async () => {
      const [a, b] = [await clientId(), await clientId()];
      const v = verifier();
      const c = await code(a, v);
      await oauthError(await token({ grant_type: "authorization_code", client_id: b, code: c, redirect_uri: REDIRECT, code_verifier: v }), 400, "invalid_grant");
      const v2 = verifier();
      const late = await code(a, v2);
      await expect(redeemCode(h.db, { clientId: a, code: late, redirectUri: REDIRECT, codeVerifier: v2, resource: null }, Date.now() + CODE_TTL_MS + 1)).rejects.toMatchObject({ error: "invalid_grant" });
      // A code bound to one resource is not redeemed for another, whatever the token endpoint let through.
      const v3 = verifier();
      const bound = await code(a, v3);
      await expect(redeemCode(h.db, { clientId: a, code: bound, redirectUri: REDIRECT, codeVerifier: v3, resource: "http://localhost:3000/dashboards/playground/mcp" })).rejects.toMatchObject({ error: "invalid_target" });
    });

    it("answers malformed token requests in OAuth's format", async () => {
      const client = await clientId();
      await oauthError(await token({ client_id: client }), 400, "invalid_request");
      await oauthError(await token({ grant_type: "password", client_id: client, username: "a", password: "b" }), 400, "unsupported_grant_type");
      await oauthError(await token({ grant_type: "client_credentials", client_id: client }), 400, "unsupported_grant_type");
      await oauthError(await token({ grant_type: "authorization_code", client_id: "dd_client_unknown", code: "x", redirect_uri: REDIRECT, code_verifier: verifier() }), 401, "invalid_client");
      await oauthError(await token({ grant_type: "authorization_code", client_id: client, code: "x", redirect_uri: REDIRECT }), 400, "invalid_request");
      await oauthError(await token({ grant_type: "authorization_code", client_id: client, code: "x", redirect_uri: REDIRECT, code_verifier: verifier() }, { authorization: "Basic eDp5" }), 401, "invalid_client");
      const twice = `${form({ grant_type: "refresh_token", client_id: client, refresh_token: "a" })}&refresh_token=b`;
      await oauthError(await routes.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: twice })), 400, "invalid_request");
      await oauthError(await routes.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })), 400, "invalid_request");
      await oauthError(await routes.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new Uint8Array([0x61, 0x3d, 0xc3, 0x28]) })), 400, "invalid_request");
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: "x".repeat(9000) }), 413, "invalid_request");
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: "a\u0000b" }), 400, "invalid_request");
    });

    it("rotates refresh tokens; a replayed one revokes the whole grant", async () => {
      const client = await clientId();
      const first = await tokens(client);
      const r = await token({ grant_type: "refresh_token", client_id: client, refresh_token: first.refresh_token, resource: RESOURCE });
      expect(r.status).toBe(200);
      const second = (await r.json()) as { access_token: string; refresh_token: string };
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(await bearerIdentity(h.db, second.access_token, RESOURCE)).not.toBeNull();
      // The old refresh token again: someone else has it.
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: first.refresh_token }), 400, "invalid_grant");
      expect(await bearerIdentity(h.db, second.access_token, RESOURCE)).toBeNull();
      expect(await bearerIdentity(h.db, first.access_token, RESOURCE)).toBeNull();
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: second.refresh_token }), 400, "invalid_grant");
    });

    it("refuses a refresh by another client, for another resource, or for a wider scope", async () => {
      const [a, b] = [await clientId(), await clientId()];
      const t = await tokens(a);
      await oauthError(await token({ grant_type: "refresh_token", client_id: b, refresh_token: t.refresh_token }), 400, "invalid_grant");
      await oauthError(await token({ grant_type: "refresh_token", client_id: a, refresh_token: t.refresh_token, resource: "https://elsewhere.test/mcp" }), 400, "invalid_target");
      await oauthError(await token({ grant_type: "refresh_token", client_id: a, refresh_token: t.refresh_token, scope: "dashboards admin" }), 400, "invalid_scope");
      // None of those spent it.
      expect((await token({ grant_type: "refresh_token", client_id: a, refresh_token: t.refresh_token })).status).toBe(200);
    });

    it("lists the person's connected apps, and a revoked one's tokens stop at once", async () => {
      const client = await clientId();
      const t = await tokens(client);
      const apps = await connectedApps(h.db, viewer.id);
      const mine = apps.find((a) => a.clientName === "Test client" && a.scope === "dashboards");
      expect(mine).toBeDefined();
      const grant = (await bearerIdentity(h.db, t.access_token, RESOURCE))!.grantId;
      // Someone else cannot revoke it.
      await revokeGrant(h.db, author.id, grant);
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).not.toBeNull();
      await revokeGrant(h.db, viewer.id, grant);
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).toBeNull();
      expect((await connectedApps(h.db, viewer.id)).map((a) => a.grantId)).not.toContain(grant);
      await oauthError(await token({ grant_type: "refresh_token", client_id: client, refresh_token: t.refresh_token }), 400, "invalid_grant");
    });

    it("lets a client give up its tokens (RFC 7009), and no other client's", async () => {
      const [a, b] = [await clientId(), await clientId()];
      const t = await tokens(a);
      const revoke = (fields: Record<string, string>) => routes.revoke.POST(req("/oauth/revoke", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form(fields) }));
      // Unknown tokens and other clients' tokens: the same answer, and nothing changes.
      expect((await revoke({ token: "dd_at_nothing", client_id: a })).status).toBe(200);
      expect((await revoke({ token: t.access_token, client_id: b })).status).toBe(200);
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).not.toBeNull();
      await oauthError(await revoke({ client_id: a }), 400, "invalid_request");
      expect((await revoke({ token: t.refresh_token, client_id: a, token_type_hint: "refresh_token" })).status).toBe(200);
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).toBeNull();
      await oauthError(await token({ grant_type: "refresh_token", client_id: a, refresh_token: t.refresh_token }), 400, "invalid_grant");
    });

    it("disconnects an app from the account page's form, and from nowhere else", async () => {
      const t = await tokens(await clientId());
      const grant = (await bearerIdentity(h.db, t.access_token, RESOURCE))!.grantId;
      const post = (who: typeof viewer, headers: Record<string, string> = {}) => {
        const body = form({ grant, csrf: who.csrf });
        return routes.connectedApps.POST(
          req("/oauth/connected-apps", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length), cookie: `dd_session=${who.token}`, origin: ORIGIN, "sec-fetch-site": "same-origin", ...headers },
            body,
          }),
        );
      };
      expect((await post(viewer, { "sec-fetch-site": "cross-site", origin: "https://attacker.test" })).status).toBe(403);
      expect((await post({ ...viewer, csrf: author.csrf })).status).toBe(403);
      // Another person's session cannot end it either: it is not theirs.
      expect((await post(author)).status).toBe(303);
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).not.toBeNull();
      const done = await post(viewer);
      expect(done.status).toBe(303);
      expect(done.headers.get("location")).toBe("/account#connected-apps");
      expect(await bearerIdentity(h.db, t.access_token, RESOURCE)).toBeNull();
    });
  });

  describe("the MCP endpoint", () => {
    let access: string;
    let rpcId = 1;

    function rpc(method: string, params: Json, headers: Record<string, string> = {}) {
      return mcp.POST(
        req("/dashboards/playground/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: rpcId++, method, params }),
        }),
      );
    }
    const auth = () => ({ authorization: `Bearer ${access}` });
    async function tool(name: string, args: Json, headers = auth()) {
      const r = await rpc("tools/call", { name, arguments: args }, headers);
      expect(r.status).toBe(200);
      return ((await r.json()) as { result: { isError?: boolean; structuredContent?: Json; content: { text: string }[]; _meta?: Json } }).result;
    }

    beforeAll(async () => {
      access = (await tokens(await clientId())).access_token;
      await saveDashboard(h.db, { ownerId: viewer.id, handle: "member", slug: "mine", html: "<!doctype html><title>Mine</title><script>fetch('/api/me')</script>" });
      await saveDashboard(h.db, {
        ownerId: author.id,
        handle: "csm",
        slug: "theirs",
        html: '<!doctype html><title>Theirs</title><script>const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/me");</script>',
      });
    });

    it("answers show_dashboard without a token with the authorization challenge, and keeps the draft tools public", async () => {
      const r = await rpc("tools/call", { name: "show_dashboard", arguments: { handle: "member", slug: "mine" } });
      expect(r.status).toBe(401);
      expect(r.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/dashboards/playground/mcp", scope="dashboards"`);
      expect(await r.json()).toMatchObject({ error: "unauthorized", hint: expect.any(String) });
      for (const name of ["read_dashboard", "read_live_data", "draw_dashboard"]) {
        expect((await rpc("tools/call", { name, arguments: {} })).status, name).toBe(401);
      }
      const list = await rpc("tools/list", {});
      expect(list.status).toBe(200);
      const names = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["create_draft", "show_dashboard"]));
    });

    it("answers any call with an invalid, expired or foreign token with invalid_token", async () => {
      const bad = ["Bearer dd_at_nope", "Bearer " + access.slice(0, -2) + "xx", "Basic eDp5", `bearer ${access} extra`];
      for (const authorization of bad) {
        const r = await rpc("tools/list", {}, { authorization });
        expect(r.status, authorization).toBe(401);
        expect(r.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="[^"]+", scope="dashboards", error="invalid_token", error_description="[^"]+"$/);
        expect(await r.json()).toMatchObject({ error: "unauthorized" });
      }
      // A token for this endpoint at another address is another audience.
      const r = await mcp.POST(new Request("http://localhost:3000/dashboards/playground/mcp", { method: "POST", headers: { host: "localhost:3000", "content-type": "application/json", ...auth() }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }));
      expect(r.status).toBe(401);
    });

    it("shows the viewer's own dashboard on their data at once", async () => {
      const shown = await tool("show_dashboard", { handle: "member", slug: "mine" });
      expect(shown.isError ?? false).toBe(false);
      expect(shown.structuredContent).toMatchObject({ path: "/~/member/mine", title: "Mine", yours: true, live: "run", url: `${ORIGIN}/~/member/mine` });
      expect(shown._meta).toBeUndefined();
      const read = await tool("read_dashboard", { handle: "member", slug: "mine" });
      expect(read.structuredContent).toMatchObject({ html: expect.stringContaining("<title>Mine</title>") });
      apiReads.length = 0;
      const data = await tool("read_live_data", { handle: "member", slug: "mine", path: "/api/me?x=1" });
      expect(data.structuredContent).toMatchObject({ status: 200, body: JSON.stringify({ email: "member@demo.test" }) });
      expect(apiReads).toEqual([{ path: "/me", user: expect.objectContaining({ id: viewer.id }), query: "x=1" }]);
    });

    it("serves the person's tools on the 2026-07-28 revision as on 2025-11-25: the same challenge without a token, the same answers with one", async () => {
      const modern = (name: string, args: Json, headers: Record<string, string> = {}) =>
        mcp.POST(
          req("/dashboards/playground/mcp", {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name, ...headers },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: rpcId++,
              method: "tools/call",
              params: { name, arguments: args, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
            }),
          }),
        );
      const challenged = await modern("show_dashboard", { handle: "member", slug: "mine" });
      expect(challenged.status).toBe(401);
      expect(challenged.headers.get("www-authenticate")).toContain('resource_metadata="');
      const shown = await modern("show_dashboard", { handle: "member", slug: "mine" }, auth());
      expect(shown.status).toBe(200);
      const { result } = (await shown.json()) as { result: { resultType: string; structuredContent: Json } };
      expect(result.resultType).toBe("complete");
      expect(result.structuredContent).toMatchObject({ path: "/~/member/mine", yours: true, live: "run" });
      const drawnTheirs = (await (await modern("show_dashboard", { handle: "csm", slug: "theirs" }, auth())).json()) as { result: { structuredContent: Json } };
      expect(drawnTheirs.result.structuredContent).toMatchObject({ yours: false, live: "drawn" });
    });

    it("never runs someone else's dashboard on the viewer's data: it is drawn by the service instead, names the page on this site, and carries no question to answer", async () => {
      const shown = await tool("show_dashboard", { handle: "csm", slug: "theirs" });
      expect(shown.structuredContent).toMatchObject({ yours: false, live: "drawn", reads: ["/me"], owner: { handle: "csm" }, url: `${ORIGIN}/~/csm/theirs` });
      expect(shown.content[0]!.text).not.toContain("<script");
      expect(shown.content[0]!.text).toContain(`${ORIGIN}/~/csm/theirs`);
      // Nothing a client receives could stand for the person's yes.
      expect(shown._meta).toBeUndefined();
      apiReads.length = 0;
      const refused = await tool("read_live_data", { handle: "csm", slug: "theirs", path: "/api/me" });
      expect(refused.structuredContent).toMatchObject({ status: 403, body: expect.stringContaining("live_not_granted") });
      expect((await tool("read_dashboard", { handle: "csm", slug: "theirs" })).isError).toBe(true);
      // There is no tool that answers for the person, and no argument that stands for an answer.
      const list = await rpc("tools/list", {}, auth());
      const names = ((await list.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
      expect(names).not.toContain("allow_dashboard");
      // An unknown tool is a protocol error (-32602), never a result.
      const unknown = await rpc("tools/call", { name: "allow_dashboard", arguments: { handle: "csm", slug: "theirs", consent: `${Date.now() + 60_000}.AAAA`, always: true } }, auth());
      const unknownBody = (await unknown.json()) as { error?: { code: number }; result?: unknown };
      expect(unknownBody, JSON.stringify(unknownBody)).toMatchObject({ error: { code: -32602 } });
      expect(unknownBody.result).toBeUndefined();
      expect((await tool("read_live_data", { handle: "csm", slug: "theirs", path: "/api/me", agreement: `${Date.now() + 60_000}.AAAA` })).isError).toBe(true);
      expect(apiReads).toEqual([]);
      expect(await h.db.selectFrom("trusted_authors").selectAll().where("user_id", "=", viewer.id).execute()).toEqual([]);

      // The view's drawing: the service's, as the token's person, held to the paths the code names.
      drawn.length = 0;
      const drawing = await tool("draw_dashboard", { handle: "csm", slug: "theirs", viewport: "phone" });
      expect(drawing.isError ?? false, drawing.content[0]!.text).toBe(false);
      expect(drawing.structuredContent).toMatchObject({ html: "<!doctype html><p>drawn for member@demo.test</p>", height: 200, revision: 1, viewport: "phone" });
      expect(drawn).toEqual([{ viewer: viewer.id, slug: "theirs", revision: 1, reads: ["/me"], viewport: "phone" }]);
      expect((await tool("draw_dashboard", { handle: "csm", slug: "theirs", viewport: "watch" })).isError).toBe(true);
      expect((await tool("draw_dashboard", { handle: "csm", slug: "nothing-here" })).content[0]!.text).toMatch(/^not_found: /);
      // Busy, the view learns when to come back from the text's last line.
      busyNext = true;
      const busy = await tool("draw_dashboard", { handle: "csm", slug: "theirs" });
      expect(busy.isError).toBe(true);
      expect(JSON.parse(busy.content[0]!.text.split("\n").pop()!)).toEqual({ error: "renderer_busy", hint: expect.any(String), retryAfter: 7 });
      expect(drawn).toHaveLength(1);
      // Only the view calls it.
      const listed = ((await (await rpc("tools/list", {}, auth())).json()) as { result: { tools: { name: string; _meta?: { ui?: { visibility?: string[] } } }[] } }).result.tools;
      expect(listed.find((t) => t.name === "draw_dashboard")?._meta?.ui?.visibility).toEqual(["app"]);
    });

    it("runs a trusted author's dashboard at once, on the paths its code reads, once the person trusted them on this site", async () => {
      await saveDashboard(h.db, { ownerId: author.id, handle: "csm", slug: "trusted", html: '<!doctype html><title>T</title><script>fetch((window.DASHBOARD_API_BASE || "/api") + "/me")</script>' });
      expect((await tool("show_dashboard", { handle: "csm", slug: "trusted" })).structuredContent).toMatchObject({ live: "drawn" });
      // The person's own act on their account page (a human action, lib/saved/human.ts).
      await addTrust(h.db, viewer.id, "csm");
      expect((await tool("show_dashboard", { handle: "csm", slug: "trusted" })).structuredContent).toMatchObject({ live: "run" });
      apiReads.length = 0;
      expect((await tool("read_live_data", { handle: "csm", slug: "trusted", path: "/api/me" })).structuredContent).toMatchObject({ status: 200 });
      expect(apiReads.map((r) => [r.path, r.user.id])).toEqual([["/me", viewer.id]]);
      const other = await tool("read_live_data", { handle: "csm", slug: "trusted", path: "/api/me/favourites" });
      expect(other.structuredContent).toMatchObject({ status: 403, body: expect.stringContaining("read_not_agreed") });
      const escape = await tool("read_live_data", { handle: "csm", slug: "trusted", path: "/api/../dashboards/playground/draft" });
      expect(escape.structuredContent).toMatchObject({ status: 400 });
      await h.db.deleteFrom("trusted_authors").where("user_id", "=", viewer.id).execute();
      expect((await tool("show_dashboard", { handle: "csm", slug: "trusted" })).structuredContent).toMatchObject({ live: "drawn" });
    });

    it("hands the view titles and names stored before they were cleaned without their bidirectional and zero-width characters", async () => {
      await saveDashboard(h.db, { ownerId: author.id, handle: "csm", slug: "spoof", html: "<!doctype html><title>Q3 board</title><p>x</p>" });
      await h.db.updateTable("saved_dashboards").set({ title: "Q3 \u202egnp.exe\u200b board" }).where("slug", "=", "spoof").execute();
      await h.db.updateTable("users").set({ name: "Casey\u2066 Morgan" }).where("id", "=", author.id).execute();
      try {
        const shown = (await tool("show_dashboard", { handle: "csm", slug: "spoof" })).structuredContent as { title: string; owner: { name: string } };
        expect(shown.title).toBe("Q3 gnp.exe board");
        expect(shown.owner.name).toBe("Casey Morgan");
      } finally {
        await h.db.updateTable("users").set({ name: "csm" }).where("id", "=", author.id).execute();
      }
    });

    it("answers a dashboard that does not exist as a tool error", async () => {
      const r = await tool("show_dashboard", { handle: "csm", slug: "nothing-here" });
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toMatch(/^not_found: /);
    });
  });
});
