import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTenant } from "@/demo/tenant";
import { parseConfig, type ConnectorSlug } from "@/lib/config";
import { createCredentials, type Credentials } from "@/lib/connectors/credentials";
import { connectors } from "@/lib/connectors/registry";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { connectionStates, donorToken, saveDonorToken, saveUserToken, setCallsOptIn, userToken, type TokenGrant } from "@/lib/connectors/store";
import type { StandIn } from "@/lib/connectors/types";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import { openDb, type Db, type OpenDb } from "@/lib/db";
import type { HandlerServices } from "@/lib/api/api-route";
import { apiAsDemoUsers, type ApiClient } from "../support/api";
import { backends, testSealer } from "../support/backends";

// Credentials that outlive their vendors' token lifetimes, over real HTTP: the app's vendor
// clients read stand-ins whose access tokens expire after a minute of a clock the test moves,
// whose refresh tokens rotate on use and revoke their grant when replayed, and which can revoke a
// token outright. Each stand-in counts what reached it, so "one renewal" is counted at the vendor.

const TTL_MS = 60_000;
const tenant = generateTenant();
const clock = { now: Date.now() };
const slugs = ["tracker", "coderepo", "support", "calls"] as const;

/** Each stand-in, served under /stand-ins/<slug> as the app serves its own, with a record of answers. */
const standIns = Object.fromEntries(
  slugs.map((slug) => [slug, connectors[slug].createStandIn({ tenant, sealer: testSealer, tokenTtlMs: TTL_MS, now: () => clock.now })]),
) as Record<ConnectorSlug, StandIn>;
const answered: { slug: string; path: string; status: number }[] = [];
const at = (slug: ConnectorSlug, path: string) => answered.filter((a) => a.slug === slug && a.path === path);
const reads = (slug: ConnectorSlug) => answered.filter((a) => a.slug === slug && !a.path.startsWith("/oauth/"));

let served: Served;
let config: ReturnType<typeof parseConfig>;

beforeAll(async () => {
  served = await serveOnLoopback(async (request) => {
    const [, , slug = "", ...rest] = new URL(request.url).pathname.split("/");
    const path = `/${rest.join("/")}`;
    const standIn = standIns[slug as ConnectorSlug];
    const res = standIn ? await standIn.handle(request, path) : new Response("{}", { status: 404 });
    answered.push({ slug, path, status: res.status });
    return res;
  });
  config = parseConfig({ SECRET_KEY: "integration-test-key-".repeat(2), STAND_INS: "1", STAND_IN_ORIGIN: served.url });
});
afterAll(async () => {
  await served.close();
});

function servicesWith(credentials: Credentials): () => HandlerServices {
  const services: HandlerServices = {
    config,
    sealer: testSealer,
    answers: newAnswerCache(),
    // Every request reads the vendor: nothing is answered from memory.
    vendorReads: newVendorReadCache({ freshMs: 0, staleMs: 0 }),
    credentials,
    crmUpstream: () => null,
  };
  return () => services;
}

const credentialsFor = () => createCredentials({ config, sealer: () => testSealer, now: () => clock.now });

/** Where a stand-in serves its API: Gong's under the customer's base its token answer names. */
const apiOf = (slug: ConnectorSlug): string => standIns[slug].apiBaseFor?.(`${served.url}/stand-ins/${slug}`) ?? `${served.url}/stand-ins/${slug}`;

/** A new grant from the stand-in, as connecting gives one, with the expiry the app stores. */
function grant(slug: ConnectorSlug, email: string): TokenGrant {
  const g = standIns[slug].oauth.mintGrant(email);
  const apiBaseUrl = standIns[slug].apiBaseFor ? apiOf(slug) : null;
  return { accessToken: g.access_token, refreshToken: g.refresh_token ?? null, expiresAt: g.expires_in ? clock.now + g.expires_in * 1000 : null, apiBaseUrl };
}

/** A data read of each stand-in, as its vendor client sends it, with a bearer token. */
function vendorRead(slug: ConnectorSlug, token: string): Promise<Response> {
  const base = apiOf(slug);
  const authorization = `Bearer ${token}`;
  if (slug === "tracker") {
    return fetch(`${base}/graphql`, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify({ query: "query Viewer { viewer { id } }" }) });
  }
  const path = { coderepo: "/user", calls: "/v2/calls", support: "/conversations" }[slug];
  return fetch(`${base}${path}`, { headers: { authorization } });
}

const revoke = (slug: ConnectorSlug, token: string) =>
  fetch(`${served.url}/stand-ins/${slug}/oauth/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token }) });

describe("each stand-in refuses an expired or revoked token in its vendor's own shape", () => {
  // The bodies the real vendors send for a refused token, so the clients meet here what they meet there.
  const shapes: Record<ConnectorSlug, (why: "expired" | "revoked") => unknown> = {
    tracker: (why) => ({
      errors: [{ message: expect.stringMatching(why === "expired" ? /has expired/ : /was revoked/), extensions: { type: "authentication error", code: "AUTHENTICATION_ERROR" } }],
    }),
    coderepo: () => ({ message: "Bad credentials", documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//) }),
    calls: () => ({ requestId: expect.any(String), errors: [expect.stringMatching(/expired/)] }),
    support: (why) => ({ type: "error.list", request_id: expect.any(String), errors: [{ code: why === "revoked" ? "token_revoked" : "unauthorized", message: expect.any(String) }] }),
  };

  it.each(["tracker", "coderepo", "calls"] as const)("%s: an expired access token, then a revoked one", async (slug) => {
    const g = standIns[slug].oauth.mintGrant("csm@demo.test");
    expect((await vendorRead(slug, g.access_token)).status).toBe(200);
    clock.now += TTL_MS;
    try {
      const expired = await vendorRead(slug, g.access_token);
      expect({ status: expired.status, body: await expired.json() }).toMatchObject({ status: 401, body: shapes[slug]("expired") });
    } finally {
      clock.now -= TTL_MS;
    }
    expect((await revoke(slug, g.access_token)).status).toBe(200);
    const revoked = await vendorRead(slug, g.access_token);
    expect({ status: revoked.status, body: await revoked.json() }).toMatchObject({ status: 401, body: shapes[slug]("revoked") });
  });

  it("support: a lasting token, then revoked by the workspace", async () => {
    const g = standIns.support.oauth.mintGrant("csm@demo.test");
    expect(g.expires_in).toBeUndefined();
    clock.now += 365 * 86_400_000;
    try {
      expect((await vendorRead("support", g.access_token)).status).toBe(200);
    } finally {
      clock.now -= 365 * 86_400_000;
    }
    expect((await revoke("support", g.access_token)).status).toBe(200);
    const revoked = await vendorRead("support", g.access_token);
    expect({ status: revoked.status, body: await revoked.json() }).toMatchObject({ status: 401, body: shapes.support("revoked") });
  });
});

describe.each(backends)("connections that outlive their tokens, over $name", (backend) => {
  let h: OpenDb & { close(): Promise<void> };
  let api: ApiClient;
  let credentials: Credentials;
  let ids: Record<"admin" | "csm" | "member", number>;

  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });

  beforeEach(async () => {
    clock.now = Date.now();
    answered.length = 0;
    credentials = credentialsFor();
    api = await apiAsDemoUsers(() => h.db, servicesWith(credentials));
    const rows = await h.db.selectFrom("users").select(["id", "email"]).execute();
    const idOf = (email: string) => rows.find((r) => r.email === email)!.id;
    ids = { admin: idOf("admin@demo.test"), csm: idOf("csm@demo.test"), member: idOf("member@demo.test") };
    for (const slug of ["tracker", "coderepo", "support"] as const) {
      await saveUserToken(h.db, testSealer, ids.csm, slug, { ...grant(slug, "csm@demo.test"), account: "csm@demo.test" }, clock.now);
    }
    await saveDonorToken(h.db, testSealer, "calls", grant("calls", "admin@demo.test"), ids.admin, clock.now);
    await setCallsOptIn(h.db, ids.csm, true);
    await setCallsOptIn(h.db, ids.admin, true);
  });
  afterEach(() => {
    for (const s of Object.values(standIns)) s.faults.clear();
  });

  it("renews a token that expires mid-session without the person noticing", async () => {
    const before = (await userToken(h.db, testSealer, ids.csm, "tracker"))!;
    expect((await api.get("/vendors/tracker/issues", "csm")).status).toBe(200);

    // Nine tenths of the lifetime on: due, so renewed before the vendor ever refuses it.
    clock.now += TTL_MS * 0.95;
    const soon = await api.get("/vendors/tracker/issues", "csm");
    expect(soon.status).toBe(200);
    expect(at("tracker", "/oauth/token").map((a) => a.status)).toEqual([200]);
    const after = (await userToken(h.db, testSealer, ids.csm, "tracker"))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expiresAt).toBe(clock.now + TTL_MS);
    expect(after.refreshedAt).toBe(clock.now);
    expect(reads("tracker").every((a) => a.status === 200)).toBe(true);

    // Well past the renewed token's expiry too: renewed again, with the rotated refresh token.
    clock.now += TTL_MS * 3;
    expect((await api.get("/vendors/tracker/issues", "csm")).status).toBe(200);
    expect(at("tracker", "/oauth/token").map((a) => a.status)).toEqual([200, 200]);
    expect(reads("tracker").every((a) => a.status === 200)).toBe(true);
  });

  it("renews once after the vendor refuses a token it still believed good, and retries the read once", async () => {
    // The vendor ends the token early (its clock runs ahead of the stored expiry).
    clock.now += TTL_MS + 1;
    const stored = (await userToken(h.db, testSealer, ids.csm, "coderepo"))!;
    await h.db.updateTable("connector_tokens").set({ expires_at: clock.now + 10 * TTL_MS }).where("user_id", "=", ids.csm).where("slug", "=", "coderepo").execute();
    const res = await api.get("/vendors/coderepo/repos", "csm");
    expect(res.status).toBe(200);
    expect(reads("coderepo").map((a) => a.status)).toEqual([401, 200]);
    expect(at("coderepo", "/oauth/token").map((a) => a.status)).toEqual([200]);
    expect((await userToken(h.db, testSealer, ids.csm, "coderepo"))!.accessToken).not.toBe(stored.accessToken);
  });

  // The vendor ends each token early (its clock runs ahead of the stored expiry), so the first
  // read is refused in the vendor's own shape; one renewal, and the read tried once more.
  it.each([
    { slug: "tracker", path: "/vendors/tracker/issues", table: "connector_tokens" },
    { slug: "calls", path: "/vendors/calls/calls", table: "donor_credentials" },
  ] as const)("renews $slug once after the vendor refuses an expired token, and retries the read once", async ({ slug, path, table }) => {
    clock.now += TTL_MS + 1;
    const later = clock.now + 10 * TTL_MS;
    if (table === "connector_tokens") await h.db.updateTable(table).set({ expires_at: later }).where("user_id", "=", ids.csm).where("slug", "=", slug).execute();
    else await h.db.updateTable(table).set({ expires_at: later }).where("slug", "=", slug).execute();
    const res = await api.get(path, "csm");
    expect(res.status).toBe(200);
    expect(reads(slug)[0]?.status).toBe(401);
    expect(reads(slug).slice(1).every((a) => a.status === 200)).toBe(true);
    expect(reads(slug).length).toBeGreaterThan(1);
    expect(at(slug, "/oauth/token").map((a) => a.status)).toEqual([200]);
    expect(credentials.renewals).toBe(1);
  });

  it("gives 50 concurrent requests with an expired token one renewal between them", async () => {
    clock.now += TTL_MS * 2;
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.get("/vendors/coderepo/repos", "csm")));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(at("coderepo", "/oauth/token")).toHaveLength(1);
    expect(credentials.renewals).toBe(1);
    expect(reads("coderepo").filter((a) => a.status !== 200)).toEqual([]);
  });

  it("marks a connection whose refresh token was replayed, answers its not-connected code with the reason, and asks the vendor nothing more", async () => {
    // Someone else used the refresh token first (a copy elsewhere), so the app's use is a replay.
    const stolen = (await userToken(h.db, testSealer, ids.csm, "tracker"))!.refreshToken!;
    const first = await fetch(`${served.url}/stand-ins/tracker/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: stolen }),
    });
    expect(first.status).toBe(200);
    answered.length = 0;

    clock.now += TTL_MS * 2;
    const res = await api.get("/vendors/tracker/issues", "csm");
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("tracker_not_connected");
    expect(res.body.hint).toMatch(/Linear refused to renew the connection \(invalid_grant: The refresh token was already used.*\)\. Reconnect Linear at \/connections\./);
    expect(at("tracker", "/oauth/token").map((a) => a.status)).toEqual([400]);

    const state = (await connectionStates(h.db, ids.csm)).get("tracker");
    expect(state?.reason).toMatch(/already used/);
    expect(state?.at).toBe(clock.now);
    const check = await api.get("/connections/tracker/check", "csm");
    expect(check.body).toMatchObject({ slug: "tracker", status: "not-connected", ok: false });
    expect(check.body.summary).toMatch(/already used.*Reconnect Linear/);

    // Nothing retries: later reads and checks answer at once, without a request to the vendor.
    answered.length = 0;
    for (let i = 0; i < 5; i++) expect((await api.get("/vendors/tracker/issues", "csm")).status).toBe(401);
    await api.get("/connections/tracker/check", "csm");
    expect(answered.filter((a) => a.slug === "tracker")).toEqual([]);

    // Connecting again clears the mark.
    await saveUserToken(h.db, testSealer, ids.csm, "tracker", grant("tracker", "csm@demo.test"), clock.now);
    expect((await api.get("/vendors/tracker/issues", "csm")).status).toBe(200);
    expect((await connectionStates(h.db, ids.csm)).get("tracker")).toBeNull();
  });

  it("marks a GitHub connection whose refresh token is refused the GitHub way, with 200 and bad_refresh_token", async () => {
    const stored = (await userToken(h.db, testSealer, ids.csm, "coderepo"))!;
    expect((await revoke("coderepo", stored.refreshToken!)).status).toBe(200);
    answered.length = 0;

    clock.now += TTL_MS * 2;
    const res = await api.get("/vendors/coderepo/repos", "csm");
    expect([res.status, res.body.error]).toEqual([401, "coderepo_not_connected"]);
    expect(res.body.hint).toBe("GitHub refused to renew the connection (bad_refresh_token: The refresh token passed is incorrect or expired). Reconnect GitHub at /connections.");
    expect(at("coderepo", "/oauth/token").map((a) => a.status)).toEqual([200]);
    expect((await connectionStates(h.db, ids.csm)).get("coderepo")).toEqual({ reason: expect.stringMatching(/bad_refresh_token/), at: clock.now });
    const check = await api.get("/connections/coderepo/check", "csm");
    expect(check.body).toMatchObject({ status: "not-connected", ok: false, summary: expect.stringMatching(/bad_refresh_token.*Reconnect GitHub/) });
    // Nothing asks GitHub again until the person reconnects.
    answered.length = 0;
    expect((await api.get("/vendors/coderepo/repos", "csm")).status).toBe(401);
    expect(answered).toEqual([]);
  });

  it("marks a revoked Intercom token the same way, without a renewal to try", async () => {
    expect((await api.get("/vendors/support/conversations", "csm")).status).toBe(200);
    const token = (await userToken(h.db, testSealer, ids.csm, "support"))!;
    expect(token.refreshToken).toBeNull();
    expect(token.expiresAt).toBeNull();
    const revoked = await fetch(`${served.url}/stand-ins/support/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: token.accessToken }),
    });
    expect(revoked.status).toBe(200);
    answered.length = 0;

    const res = await api.get("/vendors/support/conversations", "csm");
    expect([res.status, res.body.error]).toEqual([401, "support_not_connected"]);
    expect(res.body.hint).toBe("Intercom refused the stored token; it may have been revoked. Reconnect Intercom at /connections.");
    expect(answered.map((a) => `${a.path} ${a.status}`)).toEqual(["/conversations 401"]);
    expect((await connectionStates(h.db, ids.csm)).get("support")?.reason).toMatch(/revoked/);
    const check = await api.get("/connections/support/check", "csm");
    expect(check.body).toMatchObject({ status: "not-connected", ok: false });
    expect(answered).toHaveLength(1);
  });

  it("renews the shared calls credential once for everyone reading through it", async () => {
    const before = (await donorToken(h.db, testSealer, "calls"))!;
    clock.now += TTL_MS * 2;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.get(i % 2 ? "/vendors/calls/calls" : "/vendors/calls/calls/detailed", i % 4 < 2 ? "csm" : "admin")),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(at("calls", "/oauth/token").map((a) => a.status)).toEqual([200]);
    const after = (await donorToken(h.db, testSealer, "calls"))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.expiresAt).toBe(clock.now + TTL_MS);
  });

  it("answers the upstream error, and keeps the connection, when the vendor's token endpoint fails", async () => {
    clock.now += TTL_MS * 2;
    standIns.tracker.faults.next({ status: 503, pathIncludes: "/oauth/token" });
    const res = await api.get("/vendors/tracker/issues", "csm");
    expect([res.status, res.body.error]).toEqual([502, "tracker_upstream_error"]);
    expect((await connectionStates(h.db, ids.csm)).get("tracker")).toBeNull();
    // The refresh token was never used, so the next request renews with it.
    expect((await api.get("/vendors/tracker/issues", "csm")).status).toBe(200);
    expect(at("tracker", "/oauth/token").map((a) => a.status)).toEqual([503, 200]);
  });

  if (backend.name === "postgres") {
    it("lets two app instances on one PostgreSQL use a rotating refresh token once between them", async () => {
      const storage = (h as unknown as { storage: { kind: "postgres"; url: string; schema: string } }).storage;
      const second = await openDb(storage);
      try {
        const other = await apiAsDemoUsers(() => second.db as Db, servicesWith(credentialsFor()));
        clock.now += TTL_MS * 2;
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => (i % 2 ? api : other).get(i % 4 < 2 ? "/vendors/coderepo/repos" : "/vendors/tracker/issues", "csm")),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
        expect(at("coderepo", "/oauth/token").map((a) => a.status)).toEqual([200]);
        expect(at("tracker", "/oauth/token").map((a) => a.status)).toEqual([200]);
        expect((await connectionStates(h.db, ids.csm)).get("coderepo")).toBeNull();
      } finally {
        await second.close();
      }
    });

    it("lets two app instances on one PostgreSQL renew the shared calls credential once between them", async () => {
      const storage = (h as unknown as { storage: { kind: "postgres"; url: string; schema: string } }).storage;
      const second = await openDb(storage);
      try {
        const others = credentialsFor();
        const other = await apiAsDemoUsers(() => second.db as Db, servicesWith(others));
        const before = (await donorToken(h.db, testSealer, "calls"))!;
        clock.now += TTL_MS * 2;
        const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? api : other).get("/vendors/calls/calls", i % 4 < 2 ? "csm" : "admin")));
        expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
        // One token request between the instances; a second would have replayed the rotated token.
        expect(at("calls", "/oauth/token").map((a) => a.status)).toEqual([200]);
        expect(credentials.renewals + others.renewals).toBe(1);
        const after = (await donorToken(h.db, testSealer, "calls"))!;
        expect(after.accessToken).not.toBe(before.accessToken);
        expect(after.reconnect).toBeNull();
      } finally {
        await second.close();
      }
    });
  }
});
