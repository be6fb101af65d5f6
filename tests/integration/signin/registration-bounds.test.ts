import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { parseConfig } from "@/lib/config";
import { upsertUser } from "@/lib/auth/users";
import { startSession } from "@/lib/auth/session";
import { csrfTokenFor } from "@/lib/auth/csrf";
import { bearerIdentity } from "@/lib/auth/oauth";
import { oauthRoutes, type OAuthRoutes } from "@/lib/signin/oauth-routes";
import { oauthErrorAnswer, registeredClient, tokenAnswer } from "@/lib/contract/oauth";
import { PEER_HEADER, installPeerStamp } from "@/lib/http/peer-stamp";
import { backends, testSealer } from "../support/backends";

// Dynamic registration is open to anyone and every accepted one is stored, so no one source may
// use up what everyone shares: an address (an IPv6 /64) holds only so many clients nobody has
// approved, and a full table makes room by forgetting unapproved clients of the address holding
// the most. Through the real routes, with the bounds scaled down by configuration.

const ORIGIN = "http://127.0.0.1:3000";
const RESOURCE = `${ORIGIN}/dashboards/playground/mcp`;
const REDIRECT = "http://127.0.0.1:45678/callback";
const PER_ADDRESS = 2;
const TOTAL = 40;

const verifier = () => randomBytes(32).toString("base64url");
const challengeOf = (v: string) => createHash("sha256").update(v).digest("base64url");
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function req(path: string, from: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Request {
  return new Request(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers: { host: "127.0.0.1:3000", [PEER_HEADER]: from, ...init.headers }, body: init.body ?? null });
}

describe.each(backends)("registration bounds on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let routes: OAuthRoutes;
  let person: { id: number; token: string; csrf: string };

  const register = (from: string, name = "A host") =>
    routes.register.POST(req("/oauth/register", from, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }) }));

  async function registered(from: string, name?: string): Promise<string> {
    const r = await register(from, name);
    expect(r.status, await r.clone().text()).toBe(201);
    return registeredClient.strict().parse(await r.json()).client_id;
  }

  /** A refusal: the status, OAuth's code, and the envelope's hint in the same words. */
  async function refusal(r: Response, status: number): Promise<string> {
    const body = oauthErrorAnswer.strict().parse(await r.json());
    expect({ status: r.status, error: body.error }).toEqual({ status, error: "temporarily_unavailable" });
    expect(body.hint).toBe(body.error_description);
    return body.hint;
  }

  const stored = async () => Number((await h.db.selectFrom("oauth_clients").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const exists = async (clientId: string) => (await h.db.selectFrom("oauth_clients").select("client_id").where("client_id", "=", clientId).executeTakeFirst()) !== undefined;

  /** The person approves the client on the consent page: a code at the redirect URI. */
  async function approve(clientId: string, v: string): Promise<string> {
    const body = form({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challengeOf(v), code_challenge_method: "S256", state: "s", resource: RESOURCE, csrf: person.csrf, decision: "approve" });
    const r = await routes.authorize.POST(
      req("/oauth/authorize", "192.0.2.200", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), cookie: `dd_session=${person.token}`, origin: ORIGIN, "sec-fetch-site": "same-origin" },
        body,
      }),
    );
    expect(r.status).toBe(303);
    return new URL(r.headers.get("location")!).searchParams.get("code")!;
  }

  async function redeem(clientId: string, code: string, v: string) {
    const r = await routes.token.POST(
      req("/oauth/token", "192.0.2.200", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ grant_type: "authorization_code", client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: v, resource: RESOURCE }) }),
    );
    expect(r.status, await r.clone().text()).toBe(200);
    return tokenAnswer.strict().parse(await r.json());
  }

  /** Register, approve and exchange the code: a client with a grant. */
  async function connected(from: string) {
    const clientId = await registered(from);
    const v = verifier();
    return { clientId, tokens: await redeem(clientId, await approve(clientId, v), v) };
  }

  beforeAll(async () => {
    installPeerStamp();
    h = await backend.open();
    // The bounds come from the configuration the server starts with.
    const { oauth } = parseConfig({ OAUTH_UNAPPROVED_PER_ADDRESS: String(PER_ADDRESS), OAUTH_CLIENTS_MAX: String(TOTAL) });
    // The per-minute allowance has its own test; here only the stored clients are bounded.
    routes = oauthRoutes({ db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 100_000, token: 100_000 }, registrations: oauth.registrations });
    const id = await upsertUser(h.db, { email: "member@demo.test", name: "member", groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    person = { id, token, csrf: csrfTokenFor(testSealer, token) };
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    for (const table of ["oauth_tokens", "oauth_codes", "oauth_grants", "oauth_clients"] as const) await h.db.deleteFrom(table).execute();
  });

  it("holds one address to its unapproved registrations, counting an IPv6 /64 as one address", async () => {
    for (let i = 0; i < PER_ADDRESS; i++) await registered("198.51.100.7");
    const over = await register("198.51.100.7");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await refusal(over, 429)).toMatch(new RegExp(`nobody has approved \\(at most ${PER_ADDRESS}\\).*in ${retryAfter} s`));
    // Another address is not held back by it.
    await registered("198.51.100.8");

    for (let i = 0; i < PER_ADDRESS; i++) await registered(`2001:db8:5:6::${i + 1}`);
    await refusal(await register("2001:db8:5:6:ffff:1:2:3"), 429);
    await registered("2001:db8:5:7::1");
  });

  it("stops counting a client once it is approved", async () => {
    const from = "198.51.100.9";
    await connected(from);
    for (let i = 1; i < PER_ADDRESS; i++) await registered(from);
    // One approved and two waiting: a third may wait.
    await registered(from);
    await refusal(await register(from), 429);
  });

  it("lets no one address fill the table: it stays within its bound while others register", async () => {
    for (let i = 0; i < 100; i++) {
      const r = await register("203.0.113.66");
      expect([201, 429]).toContain(r.status);
    }
    expect(await stored()).toBe(PER_ADDRESS);
    await registered("203.0.113.67");
  });

  // Some 1,500 registrations, one after another: the time it takes is the flood's.
  it("keeps registration open to a new address after 500 addresses each registered all they may, and the table within its bound", async () => {
    const answers = new Map<number, number>();
    for (let a = 0; a < 500; a++) {
      const from = `10.${a >> 8}.${a & 255}.1`;
      // Past the table's bound the flood's own clients make room, which may let an address register again.
      for (let i = 0; i <= PER_ADDRESS; i++) {
        const status = (await register(from)).status;
        answers.set(status, (answers.get(status) ?? 0) + 1);
      }
      if (a % 50 === 0) expect(await stored()).toBeLessThanOrEqual(TOTAL);
    }
    expect([...answers.keys()].sort()).toEqual([201, 429]);
    expect(answers.get(201)).toBeGreaterThanOrEqual(500 * PER_ADDRESS);
    expect(await stored()).toBe(TOTAL);
    const newcomer = await registered("198.51.100.20", "Newcomer");
    // It stays while the person approves it, though the flood goes on from addresses that hold more.
    for (let a = 0; a < 20; a++) for (let i = 0; i < PER_ADDRESS; i++) await registered(`10.200.${a}.1`);
    expect(await exists(newcomer)).toBe(true);
    const v = verifier();
    const tokens = await redeem(newcomer, await approve(newcomer, v), v);
    expect(await bearerIdentity(h.db, tokens.access_token, RESOURCE)).toMatchObject({ userId: person.id, clientId: newcomer });
    expect(await stored()).toBeLessThanOrEqual(TOTAL);
  }, 90_000);

  it("makes room from the address that holds the most, so a client registered just before a flood stays", async () => {
    const early = await registered("198.51.100.30");
    for (let a = 0; a < 30; a++) for (let i = 0; i < PER_ADDRESS; i++) await registered(`10.201.${a}.1`);
    expect(await stored()).toBe(TOTAL);
    expect(await exists(early)).toBe(true);
  });

  it("never forgets an approved client, or one whose code is waiting, to make room", async () => {
    const approved = await connected("198.51.100.40");
    const waiting = await registered("198.51.100.41");
    const v = verifier();
    const code = await approve(waiting, v);
    for (let a = 0; a < 60; a++) for (let i = 0; i < PER_ADDRESS; i++) await registered(`10.202.${a}.1`);
    expect(await exists(approved.clientId)).toBe(true);
    expect(await bearerIdentity(h.db, approved.tokens.access_token, RESOURCE)).not.toBeNull();
    const refreshed = await routes.token.POST(
      req("/oauth/token", "192.0.2.200", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ grant_type: "refresh_token", client_id: approved.clientId, refresh_token: approved.tokens.refresh_token }) }),
    );
    expect(refreshed.status).toBe(200);
    await redeem(waiting, code, v);
  });

  it("answers 503 only when every client kept is approved", async () => {
    const small = oauthRoutes({ db: async () => h.db, sealer: () => testSealer, allowedHosts: [], perMinute: { register: 100_000, token: 100_000 }, registrations: { perAddress: 2, total: 3 } });
    const previous = routes;
    routes = small;
    try {
      for (let i = 0; i < 3; i++) await connected("198.51.100.50");
      const full = await register("198.51.100.51");
      expect(await refusal(full, 503)).toMatch(/keeps 3 registered clients and every one of them is in use/);
    } finally {
      routes = previous;
    }
  });
});
