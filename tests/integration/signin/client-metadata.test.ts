import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { upsertUser } from "@/lib/auth/users";
import { startSession } from "@/lib/auth/session";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { bearerIdentity } from "@/lib/auth/oauth";
import { createClientMetadataFetcher, isSpecialAddress, metadataUrlProblem } from "@/lib/auth/client-metadata";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { authorizationServerMetadata, oauthErrorAnswer, tokenAnswer } from "@/lib/contract/oauth";
import { backends, testSealer } from "../support/backends";

// A host that identifies itself by a Client ID Metadata Document: its client_id is the https URL
// of a JSON document it serves. Here that document is served over real TLS on loopback (a
// certificate made for the run), which only the operator's OAUTH_CLIENT_METADATA_PRIVATE allows;
// the authorization server fetches it, shows the host on the consent page, checks redirect URIs
// against it and completes PKCE, and refuses private addresses without the setting, a document
// naming another client_id, an oversized or slow one, a redirect, and a redirect URI it does not list.

const ORIGIN = "http://127.0.0.1:3000";
const RESOURCE = `${ORIGIN}/dashboards/playground/mcp`;
const REDIRECT = "http://127.0.0.1:45679/callback";

const verifier = () => randomBytes(32).toString("base64url");
const challengeOf = (v: string) => createHash("sha256").update(v).digest("base64url");
const req = (p: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Request(`${ORIGIN}${p}`, { method: init.method ?? "GET", headers: { host: "127.0.0.1:3000", ...init.headers }, body: init.body ?? null });

let server: Server;
let cert: string;
let base: string;
const fetched: string[] = [];
const held: import("node:http").ServerResponse[] = [];
/** Every status the authorization page answered in this file, held against the reference below. */
const answered = new Set<string>();

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cimd-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
  cert = fs.readFileSync(path.join(dir, "cert.pem"), "utf8");
  server = createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert }, (request, res) => {
    const url = request.url ?? "";
    fetched.push(url);
    const self = `${base}${url}`;
    const doc = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (url === "/host.json") return doc({ client_id: self, client_name: "Metadata Host", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, { "cache-control": "max-age=3600" });
    if (url === "/other.json") return doc({ client_id: `${base}/host.json`, client_name: "Someone else", redirect_uris: [REDIRECT] });
    if (url === "/big.json") return doc({ client_id: self, client_name: "Big", redirect_uris: [REDIRECT], padding: "x".repeat(6000) });
    if (url === "/html.json") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<p>not a document</p>");
    }
    if (url === "/moved.json") {
      res.writeHead(302, { location: "/host.json" });
      return res.end();
    }
    if (url === "/slow.json") {
      // Headers, then a trickle that never finishes.
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"client_id":');
      held.push(res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of held) r.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe("client_id URLs and addresses", () => {
  it("takes a plain https URL with a path, and nothing else", () => {
    expect(metadataUrlProblem("https://app.example.com/oauth/client.json")).toBeNull();
    expect(metadataUrlProblem("http://app.example.com/client.json")).toMatch(/https/);
    expect(metadataUrlProblem("https://app.example.com/")).toMatch(/path/);
    expect(metadataUrlProblem("https://user:pw@app.example.com/c.json")).toMatch(/credentials/);
    expect(metadataUrlProblem("https://app.example.com/c.json#x")).toMatch(/fragment/);
    expect(metadataUrlProblem("https://app.example.com/a/../c.json")).toMatch(/segments/);
    expect(metadataUrlProblem("https://APP.example.com/c.json")).toMatch(/plain form/);
    expect(metadataUrlProblem(`https://app.example.com/${"a".repeat(600)}`)).toMatch(/at most 512/);
  });

  it("counts loopback, private, link-local, shared, mapped and unique-local addresses as not public", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1", "not-an-ip"]) expect(isSpecialAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isSpecialAddress(a), a).toBe(false);
  });
});

describe.each(backends)("a host identified by its metadata document on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let routes: OAuthRoutes;
  let closed: OAuthRoutes;
  let viewer: { id: number; token: string; csrf: string };

  const query = (clientId: string, v: string, extra: Record<string, string> = {}) =>
    new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challengeOf(v), code_challenge_method: "S256", state: "st", resource: RESOURCE, ...extra });
  const page = async (r: OAuthRoutes, q: URLSearchParams, signedIn = true) => {
    const res = await r.authorize.GET(req(`/oauth/authorize?${q}`, { headers: signedIn ? { cookie: `dd_session=${viewer.token}` } : {} }));
    answered.add(String(res.status));
    return res;
  };
  const approve = (q: URLSearchParams) => {
    const body = new URLSearchParams({ ...Object.fromEntries(q), csrf: viewer.csrf, decision: "approve" }).toString();
    return routes.authorize.POST(
      req("/oauth/authorize", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), cookie: `dd_session=${viewer.token}`, origin: ORIGIN, "sec-fetch-site": "same-origin" },
        body,
      }),
    );
  };
  const token = (fields: Record<string, string>) =>
    routes.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() }));

  beforeAll(async () => {
    h = await backend.open();
    const deps = { db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 100_000, token: 100_000 } };
    routes = oauthRoutes({ ...deps, clientMetadata: createClientMetadataFetcher({ allowPrivate: true, ca: cert, timeoutMs: 1_000 }) });
    // The default: no setting, so only public addresses.
    closed = oauthRoutes(deps);
    const id = await upsertUser(h.db, { email: `cimd-${backend.name}@demo.test`, name: "cimd", groups: [] });
    const { token: t } = await startSession(h.db, id, 3_600_000);
    viewer = { id, token: t, csrf: csrfTokenFor(testSealer, t) };
  });
  afterAll(async () => {
    await h.close();
  });

  it("is advertised in the authorization server's metadata", async () => {
    const meta = authorizationServerMetadata.strict().parse(await (await routes.authorizationServer.GET(req("/.well-known/oauth-authorization-server"))).json());
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it("completes authorization with PKCE, showing the host, fetching the document once", async () => {
    const clientId = `${base}/host.json`;
    const before = fetched.filter((u) => u === "/host.json").length;
    const v = verifier();
    const shown = await page(routes, query(clientId, v));
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("Metadata Host");
    expect(html).toMatch(new RegExp(`data-testid="oauth-client-host">127\\.0\\.0\\.1:${new URL(base).port}<`));

    const answered = await approve(query(clientId, v));
    expect(answered.status).toBe(303);
    const back = new URL(answered.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
    const code = back.searchParams.get("code")!;

    // The code is bound to the verifier: a wrong one fails, the right one gets tokens.
    const wrong = await token({ grant_type: "authorization_code", client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier(), resource: RESOURCE });
    expect(wrong.status).toBe(400);
    const v2 = verifier();
    await page(routes, query(clientId, v2));
    const code2 = new URL((await approve(query(clientId, v2))).headers.get("location")!).searchParams.get("code")!;
    const ok = await token({ grant_type: "authorization_code", client_id: clientId, code: code2, redirect_uri: REDIRECT, code_verifier: v2, resource: RESOURCE });
    expect(ok.status).toBe(200);
    const tokens = tokenAnswer.parse(await ok.json());
    expect((await bearerIdentity(h.db, tokens.access_token, RESOURCE))?.userId).toBe(viewer.id);
    // Kept by its Cache-Control: the page, two approvals and two token requests fetched it at most once.
    expect(fetched.filter((u) => u === "/host.json").length - before).toBeLessThanOrEqual(1);
    const row = await h.db.selectFrom("oauth_clients").selectAll().where("client_id", "=", clientId).executeTakeFirstOrThrow();
    expect({ name: row.client_name, from: row.registered_from }).toEqual({ name: "Metadata Host", from: "metadata-document" });
  });

  it("sends a signed-out person to sign in first, and back here", async () => {
    const r = await page(routes, query(`${base}/host.json`, verifier()), false);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toMatch(/^\/signin\?next=%2Foauth%2Fauthorize%3F/);
  });

  it("refuses a redirect URI the document does not list, sending nothing to it", async () => {
    const r = await page(routes, query(`${base}/host.json`, verifier(), { redirect_uri: "http://127.0.0.1:45679/elsewhere" }));
    expect(r.status).toBe(400);
    expect(r.headers.get("location")).toBeNull();
    expect(await r.text()).toContain("its metadata document does not list");
  });

  it("refuses a document on a private address without the operator's setting, fetching nothing", async () => {
    const before = fetched.length;
    const r = await page(closed, query(`${base}/host.json`, verifier()));
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("not on the public internet");
    expect(fetched.length).toBe(before);
    const t = await closed.token.POST(req("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "authorization_code", client_id: `${base}/host.json`, code: "x", redirect_uri: REDIRECT, code_verifier: verifier() }).toString() }));
    expect(t.status).toBe(401);
    expect(oauthErrorAnswer.parse(await t.json()).error).toBe("invalid_client");
  });

  it.each([
    ["/other.json", "must be its own URL"],
    ["/big.json", "larger than 5120 bytes"],
    ["/slow.json", "did not arrive within 1 s"],
    ["/moved.json", "answered 302 (redirects are not followed)"],
    ["/html.json", "must be served as application/json"],
    ["/missing.json", "answered 404"],
  ])("refuses %s with a clear reason and issues nothing", async (doc, why) => {
    const clientId = `${base}${doc}`;
    const r = await page(routes, query(clientId, verifier()));
    expect(r.status).toBe(400);
    expect(r.headers.get("location")).toBeNull();
    expect(await r.text()).toContain(why);
    expect(await h.db.selectFrom("oauth_clients").select("client_id").where("client_id", "=", clientId).executeTakeFirst()).toBeUndefined();
  });
});

describe("the reference", () => {
  it("documents every status the authorization page answers", async () => {
    const { openApiDocument } = await import("@/lib/reference/openapi");
    const doc = openApiDocument(ORIGIN) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const documented = Object.keys(doc.paths["/oauth/authorize"]?.get?.responses ?? {});
    expect([...answered].sort()).toEqual(["200", "303", "400"]);
    expect(documented).toEqual(expect.arrayContaining([...answered]));
  });
});
