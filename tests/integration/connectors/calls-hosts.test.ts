import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateTenant, referenceDateAt, type Tenant } from "@/demo/tenant";
import { parseConfig } from "@/lib/config";
import { callsConnector } from "@/lib/connectors/calls";
import { createCallsStandIn, GONG_API_BASE_FIELD } from "@/lib/connectors/calls/stand-in";
import { finishConnect, startConnect } from "@/lib/connectors/connect";
import { createCredentials, type Credentials } from "@/lib/connectors/credentials";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { donorToken, saveDonorToken, setCallsOptIn, type TokenGrant } from "@/lib/connectors/store";
import { requestTokens } from "@/lib/connectors/token-endpoint";
import type { StandIn } from "@/lib/connectors/types";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import type { HandlerServices } from "@/lib/api/api-route";
import { apiAsDemoUsers, type ApiClient } from "../support/api";
import { backends, testSealer } from "../support/backends";

// Gong serves each customer on a host of its own and names it in the OAuth token answer
// (`api_base_url_for_customer`). Two Gong "hosts" here, each a stand-in with its own tenant on its
// own loopback address; the deployment's configured calls URL is the first. A credential whose
// token answer named the second host reads the second host's calls, and nothing of the first;
// a renewal whose answer names another base moves the credential there.

const DAY = 86_400_000;
const TTL_MS = 60_000;
const clock = { now: Date.now() };
const today = referenceDateAt(Date.now());

interface Host {
  tenant: Tenant;
  standIn: StandIn;
  served: Served;
  /** Requests the host received: path below /stand-ins/calls, and status. */
  answered: { path: string; status: number }[];
  /** The customer's API base, as the host's token answer names it. */
  api: string;
}

async function host(seed: number | undefined): Promise<Host> {
  const tenant = generateTenant({ referenceDate: today, ...(seed === undefined ? {} : { seed }) });
  const standIn = createCallsStandIn({ tenant, sealer: testSealer, tokenTtlMs: TTL_MS, now: () => clock.now });
  const answered: Host["answered"] = [];
  const served = await serveOnLoopback(async (request) => {
    const path = new URL(request.url).pathname.replace(/^\/stand-ins\/calls/, "");
    const res = await standIn.handle(request, path);
    answered.push({ path, status: res.status });
    return res;
  });
  return { tenant, standIn, served, answered, api: standIn.apiBaseFor!(`${served.url}/stand-ins/calls`) };
}

/** The calls a host lists for the trailing 30 days, most recent first. */
function recentIds(tenant: Tenant, now = Date.now()): string[] {
  return tenant.calls
    .filter((c) => Date.parse(c.started) >= now - 30 * DAY && Date.parse(c.started) < now)
    .sort((a, b) => Date.parse(b.started) - Date.parse(a.started) || (a.id < b.id ? -1 : 1))
    .map((c) => c.id);
}

let configured: Host;
let second: Host;
let config: ReturnType<typeof parseConfig>;

beforeAll(async () => {
  configured = await host(undefined);
  second = await host(20_261_127);
  // The deployment's calls URL and token endpoint are the first host's.
  config = parseConfig({ SECRET_KEY: "integration-test-key-".repeat(2), STAND_INS: "1", STAND_IN_ORIGIN: configured.served.url });
});
afterAll(async () => {
  await configured.served.close();
  await second.served.close();
});

const apiRequests = (h: Host) => h.answered.filter((a) => !a.path.startsWith("/oauth/"));
const tokenRequests = (h: Host) => h.answered.filter((a) => a.path === "/oauth/token");

describe("the Gong stand-in's customer host", () => {
  it("names the customer's API base in its token answer, under the path it is mounted at", async () => {
    const grant = configured.standIn.oauth.mintGrant("admin@demo.test");
    const res = await fetch(`${configured.served.url}/stand-ins/calls/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: grant.refresh_token ?? "" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body[GONG_API_BASE_FIELD]).toBe(configured.api);
    expect(configured.api).toMatch(new RegExp(`^${configured.served.url}/stand-ins/calls/us-\\d{5}$`));
  });

  it("serves the API at the customer's base only: the root and other customers' paths refuse the token as Gong's 401", async () => {
    const auth = { authorization: `Bearer ${configured.standIn.oauth.mintGrant("admin@demo.test").access_token}` };
    const window = new URLSearchParams({ fromDateTime: new Date(Date.now() - 30 * DAY).toISOString(), toDateTime: new Date().toISOString() });
    expect((await fetch(`${configured.api}/v2/calls?${window}`, { headers: auth })).status).toBe(200);
    for (const wrong of [`${configured.served.url}/stand-ins/calls/v2/calls`, `${configured.served.url}/stand-ins/calls/us-00001/v2/calls`]) {
      const res = await fetch(`${wrong}?${window}`, { headers: auth });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ requestId: expect.any(String), errors: [expect.stringMatching(/host/)] });
    }
  });

  it("is read through the token endpoint client, which keeps only a base it may send a token to", async () => {
    const grant = second.standIn.oauth.mintGrant("admin@demo.test");
    const issued = await requestTokens(config, callsConnector, { grant_type: "refresh_token", refresh_token: grant.refresh_token ?? "" });
    expect(issued.apiBaseUrl).toBe(configured.api);
  });
});

describe.each(backends)("a calls connection on a second Gong host, over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let api: ApiClient;
  let credentials: Credentials;
  let adminId: number;

  const services = (): HandlerServices => ({
    config,
    sealer: testSealer,
    answers: newAnswerCache(),
    vendorReads: newVendorReadCache({ freshMs: 0, staleMs: 0 }),
    credentials,
    crmUpstream: () => null,
  });

  const grantOf = (from: Host, named: string | null): TokenGrant => {
    const g = from.standIn.oauth.mintGrant("admin@demo.test");
    return { accessToken: g.access_token, refreshToken: g.refresh_token ?? null, expiresAt: clock.now + (g.expires_in ?? 0) * 1000, apiBaseUrl: named, account: "admin@demo.test" };
  };

  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    clock.now = Date.now();
    configured.answered.length = 0;
    second.answered.length = 0;
    credentials = createCredentials({ config, sealer: () => testSealer, now: () => clock.now });
    api = await apiAsDemoUsers(() => h.db, () => services());
    const rows = await h.db.selectFrom("users").select(["id", "email"]).execute();
    adminId = rows.find((r) => r.email === "admin@demo.test")!.id;
    await setCallsOptIn(h.db, rows.find((r) => r.email === "csm@demo.test")!.id, true);
  });
  it("reads calls from that host only, and a renewal whose answer names another base moves it there", async () => {
    expect(recentIds(second.tenant)).not.toEqual(recentIds(configured.tenant));
    await saveDonorToken(h.db, testSealer, "calls", grantOf(second, second.api), adminId, clock.now);

    const res = await api.get("/vendors/calls/calls", "csm");
    expect(res.status).toBe(200);
    expect((res.body.calls as { id: string }[]).map((c) => c.id)).toEqual(recentIds(second.tenant));
    expect(configured.answered).toEqual([]);
    const customer = new URL(second.api).pathname.replace(/^\/stand-ins\/calls/, "");
    expect(apiRequests(second).length).toBeGreaterThan(0);
    expect(apiRequests(second).every((a) => a.path === `${customer}/v2/calls` && a.status === 200)).toBe(true);

    // The token expires; the deployment's token endpoint renews it and names its own base.
    clock.now += 2 * TTL_MS;
    const moved = await api.get("/vendors/calls/calls", "csm");
    expect(moved.status).toBe(200);
    expect((moved.body.calls as { id: string }[]).map((c) => c.id)).toEqual(recentIds(configured.tenant));
    expect(tokenRequests(configured).map((a) => a.status)).toEqual([200]);
    expect((await donorToken(h.db, testSealer, "calls"))?.apiBaseUrl).toBe(configured.api);
  });

  it("keeps the base sealed beside the token: the row never holds it in the clear", async () => {
    await saveDonorToken(h.db, testSealer, "calls", grantOf(second, second.api), adminId, clock.now);
    const row = await h.db.selectFrom("donor_credentials").select("api_base_url").where("slug", "=", "calls").executeTakeFirstOrThrow();
    expect(row.api_base_url).not.toBeNull();
    expect(row.api_base_url).not.toContain("127.0.0.1");
    expect((await donorToken(h.db, testSealer, "calls"))?.apiBaseUrl).toBe(second.api);
  });

  it("renews a credential stored without a base once, before reading, to learn where its API is", async () => {
    await saveDonorToken(h.db, testSealer, "calls", grantOf(configured, null), adminId, clock.now);
    const first = await api.get("/vendors/calls/calls", "csm");
    expect(first.status).toBe(200);
    expect((first.body.calls as { id: string }[]).map((c) => c.id)).toEqual(recentIds(configured.tenant));
    expect(tokenRequests(configured).map((a) => a.status)).toEqual([200]);
    // Never at the root, which is not the customer's host.
    expect(apiRequests(configured).every((a) => a.path.startsWith(new URL(configured.api).pathname.replace(/^\/stand-ins\/calls/, "")))).toBe(true);
    expect((await donorToken(h.db, testSealer, "calls"))?.apiBaseUrl).toBe(configured.api);

    configured.answered.length = 0;
    expect((await api.get("/vendors/calls/calls", "csm")).status).toBe(200);
    expect(tokenRequests(configured)).toEqual([]);
  });

  it.each([
    { lasting: false, expiry: "an expiry ahead" },
    { lasting: true, expiry: "no expiry" },
  ])("still reads when that renewal cannot reach Gong, with $expiry: the host's 401 renews it once more", async ({ lasting }) => {
    await saveDonorToken(h.db, testSealer, "calls", { ...grantOf(configured, null), ...(lasting ? { expiresAt: null } : {}) }, adminId, clock.now);
    configured.standIn.faults.next({ status: 503, pathIncludes: "/oauth/token" });
    try {
      const res = await api.get("/vendors/calls/calls", "csm");
      expect(res.status).toBe(200);
      expect((res.body.calls as { id: string }[]).map((c) => c.id)).toEqual(recentIds(configured.tenant));
      expect(tokenRequests(configured).map((a) => a.status)).toEqual([503, 200]);
      // The current token was tried where the deployment said, refused there as not this host's, and renewed.
      expect(apiRequests(configured)[0]).toEqual({ path: "/v2/calls", status: 401 });
      expect((await donorToken(h.db, testSealer, "calls"))?.apiBaseUrl).toBe(configured.api);
    } finally {
      configured.standIn.faults.clear();
    }
  });

  it("connecting to the real product keeps the base Gong's code exchange names, and reads there", async () => {
    // Gong itself: a token endpoint that answers the code exchange with the second host's base.
    const exchanged: URLSearchParams[] = [];
    const gong = await serveOnLoopback(async (request) => {
      exchanged.push(new URLSearchParams(await request.text()));
      const g = second.standIn.oauth.mintGrant("admin@demo.test");
      return Response.json({ ...g, scope: callsConnector.scope, [GONG_API_BASE_FIELD]: second.api });
    });
    const vendor = parseConfig({
      SECRET_KEY: "integration-test-key-".repeat(2),
      CALLS_CLIENT_ID: "gong-client",
      CALLS_CLIENT_SECRET: "gong-secret",
      // The deployment's configured API URL is the first host; the customer is on the second.
      CALLS_API_URL: `${configured.served.url}/stand-ins/calls`,
      CALLS_AUTHORIZE_URL: "https://app.gong.test/oauth2/authorize",
      CALLS_TOKEN_URL: `${gong.url}/oauth2/generate-customer-token`,
    });
    try {
      const admin = { id: adminId, email: "admin@demo.test", handle: "admin", name: "Avery Admin", groups: ["admin"], permissions: ["calls.donor.manage"] };
      const deps = { db: h.db, sealer: testSealer, config: vendor, user: admin, connector: callsConnector, invalidate: () => {} };
      const start = await startConnect(new Request("http://127.0.0.1:3000/connections/calls/donor/connect", { method: "POST" }), deps, "donor");
      const state = new URL(start.headers.get("location") ?? "").searchParams.get("state") ?? "";
      const done = await finishConnect(new Request(`http://127.0.0.1:3000/connections/calls/callback?state=${state}&code=gong-code`), deps);
      expect(done.headers.get("location")).toBe("/connections?connected=calls");
      expect(exchanged.map((f) => f.get("grant_type"))).toEqual(["authorization_code"]);
      expect((await donorToken(h.db, testSealer, "calls"))?.apiBaseUrl).toBe(second.api);

      credentials = createCredentials({ config: vendor, sealer: () => testSealer, now: () => clock.now });
      const vendorApi = await apiAsDemoUsers(() => h.db, () => ({ ...services(), config: vendor }));
      const res = await vendorApi.get("/vendors/calls/calls", "csm");
      expect(res.status).toBe(200);
      expect((res.body.calls as { id: string }[]).map((c) => c.id)).toEqual(recentIds(second.tenant));
      expect(configured.answered).toEqual([]);
    } finally {
      await gong.close();
    }
  });

  it("checks the connection at the customer's host too", async () => {
    await saveDonorToken(h.db, testSealer, "calls", grantOf(second, second.api), adminId, clock.now);
    const check = await api.get("/connections/calls/check", "csm");
    expect(check.body).toMatchObject({ slug: "calls", status: "ok", ok: true });
    expect(configured.answered).toEqual([]);
    expect(apiRequests(second).length).toBe(1);
  });
});
