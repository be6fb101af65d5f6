import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { upsertUser } from "@/lib/auth/users";
import { startSession } from "@/lib/auth/session";
import { connectedApps } from "@/lib/auth/oauth";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { oauthErrorAnswer, registeredClient } from "@/lib/contract/oauth";
import { UNSAFE_DISPLAY_LIST, codePoint } from "@/tests/fixtures/display-text";
import { backends, testSealer } from "../support/backends";

// An app names itself (client_name), and the consent page and /account show that name to the
// person deciding about it: through the real routes, a name with a bidirectional control,
// zero-width or control character is refused, and the page shows every name isolated in <bdi>,
// so even a right-to-left one cannot reorder the words around it.

const ORIGIN = "http://127.0.0.1:3000";
const REDIRECT = "http://127.0.0.1:45678/callback";

function req(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Request {
  return new Request(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers: { host: "127.0.0.1:3000", ...init.headers }, body: init.body ?? null });
}

describe.each(backends)("names apps give themselves on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let routes: OAuthRoutes;
  let viewer: { id: number; token: string };

  const register = (body: unknown) => routes.register.POST(req("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  const clients = async () => Number((await h.db.selectFrom("oauth_clients").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

  async function consentPage(clientId: string): Promise<string> {
    const v = randomBytes(32).toString("base64url");
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: createHash("sha256").update(v).digest("base64url"), code_challenge_method: "S256", state: "s" });
    const r = await routes.authorize.GET(req(`/oauth/authorize?${q}`, { headers: { cookie: `dd_session=${viewer.token}` } }));
    expect(r.status).toBe(200);
    return r.text();
  }

  beforeAll(async () => {
    h = await backend.open();
    routes = oauthRoutes({ db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 100_000, token: 100_000 } });
    const id = await upsertUser(h.db, { email: "member@demo.test", name: "member", groups: [] });
    viewer = { id, token: (await startSession(h.db, id, 3_600_000)).token };
  });
  afterAll(async () => {
    await h.close();
  });

  it("refuses a client_name with any bidirectional control, zero-width or control character, naming the field and the character", async () => {
    const before = await clients();
    for (const ch of UNSAFE_DISPLAY_LIST) {
      const r = await register({ client_name: `Visual${ch}Studio Code`, redirect_uris: [REDIRECT] });
      const body = oauthErrorAnswer.strict().parse(await r.json());
      expect({ status: r.status, error: body.error }, codePoint(ch)).toEqual({ status: 400, error: "invalid_client_metadata" });
      expect(body.hint, codePoint(ch)).toMatch(new RegExp(`^client_name may not contain ${codePoint(ch).replace("+", "\\+")}, a (bidirectional control|zero-width character|control character)`));
    }
    expect(await clients()).toBe(before);
  });

  it("shows the app's name and the person's isolated in <bdi> on the consent page", async () => {
    // A right-to-left name, as an app may rightly have.
    const name = "\u05d3\u05e9\u05d1\u05d5\u05e8\u05d3 app";
    const r = await register({ client_name: name, redirect_uris: [REDIRECT] });
    const client = registeredClient.strict().parse(await r.json());
    expect(client.client_name).toBe(name);
    const html = await consentPage(client.client_id);
    expect(html).toContain(`<h1 id="consent-title">Connect <bdi data-testid="oauth-client-name">${name}</bdi> to Dashboards?</h1>`);
    expect(html).toContain(`<p>If you approve, <strong><bdi>${name}</bdi></strong> may:</p>`);
    expect(html).toContain(`<strong data-testid="oauth-account"><bdi>member</bdi></strong> (<bdi>member@demo.test</bdi>)`);
  });

  it("shows a name stored before such characters were refused without them, on the consent page and /account", async () => {
    const clientId = "dd_client_stored_before";
    await h.db
      .insertInto("oauth_clients")
      .values({ client_id: clientId, client_name: "\u202eedoC SV\u200b\u0007", redirect_uris: JSON.stringify([REDIRECT]), client_uri: null, created_at: Date.now(), registered_from: "" })
      .execute();
    const html = await consentPage(clientId);
    expect(html).toContain(`<bdi data-testid="oauth-client-name">edoC SV</bdi>`);
    expect(html).toContain("<title>Connect edoC SV · Dashboards</title>");
    expect(html).not.toMatch(/[\u202e\u200b\u0007]/);
    const now = Date.now();
    await h.db.insertInto("oauth_grants").values({ id: "grant-stored-before", client_id: clientId, user_id: viewer.id, scope: "dashboards", resource: `${ORIGIN}/dashboards/playground/mcp`, created_at: now, used_at: now, revoked_at: null }).execute();
    expect((await connectedApps(h.db, viewer.id)).map((a) => a.clientName)).toEqual(["edoC SV"]);
  });
});
