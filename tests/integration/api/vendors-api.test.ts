import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { endpointById } from "@/lib/contract/endpoints";
import { errorEnvelope } from "@/lib/contract/resources";
import { deleteDonorToken, saveDonorToken } from "@/lib/connectors/store";
import { serveOnLoopback, type Served } from "@/lib/connectors/stand-in/node-server";
import { userIdByEmail } from "@/lib/auth/users";
import { createApp, type App } from "@/lib/root";
import { seedDemo } from "@/lib/seed";
import { generateTenant, referenceDateAt } from "@/demo/tenant";
import { apiAsDemoUsers, type ApiClient, type Who } from "../support/api";
import { backends } from "../support/backends";

// The /vendors endpoints and connection checks end to end: API wrapper → access rules → vendor
// client → the stand-ins over real loopback HTTP, for each demo user.

let served: Served;
/** The app under test: built from its own configuration, once the stand-ins' address is known. */
let testApp: App;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-vendors-"));
const baseEnv = { DATA_DIR: dataDir, SECRET_KEY: "vendors-api-test-key-vendors-api-test-key", CONNECTOR_TIMEOUT_MS: "2000" };

beforeAll(async () => {
  served = await serveOnLoopback(async (req) => {
    const m = /^\/stand-ins\/([^/]+)(\/.*)?$/.exec(new URL(req.url).pathname);
    return m ? testApp.standIns.serve(req, m[1]!, m[2] ?? "/") : new Response("not found", { status: 404 });
  });
  testApp = createApp(parseConfig({ ...baseEnv, STAND_IN_ORIGIN: served.url }));
});
afterAll(async () => {
  await served.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(backends)("vendor reads over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let api: ApiClient;
  const get = (p: string, who: Who) => api.get(p, who);

  beforeAll(async () => {
    h = await backend.open();
    await seedDemo(h.db, { scale: 1, sealer: testApp.sealer(), upstreams: testApp.config.upstreams });
    api = await apiAsDemoUsers(() => h.db, () => testApp.services());
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    testApp.caches.vendorReads.invalidate("");
    for (const s of [...Object.values(testApp.standIns.all()), testApp.standIns.crmportal()]) s.faults.clear();
  });

  it("answers the connected user's data in the contract's shapes", async () => {
    const issues = await get("/vendors/tracker/issues", "csm");
    expect(issues.status).toBe(200);
    expect(endpointById("vendors.tracker.issues").response.parse(issues.body).issues.length).toBeGreaterThan(0);

    // The projects are listed, each one the issues read takes; one the tracker lacks is refused.
    const projects = await get("/vendors/tracker/projects", "csm");
    expect(projects.status).toBe(200);
    const listed = endpointById("vendors.tracker.projects").response.parse(projects.body).projects;
    expect(listed.length).toBeGreaterThan(0);
    const inFirst = await get(`/vendors/tracker/issues?project=${encodeURIComponent(listed[0]!.name)}`, "csm");
    expect(inFirst.status).toBe(200);
    const unknown = await get("/vendors/tracker/issues?project=No%20Such%20Project", "csm");
    expect([unknown.status, unknown.body.error]).toEqual([404, "no_such_project"]);

    const repos = await get("/vendors/coderepo/repos", "csm");
    expect(repos.status).toBe(200);
    endpointById("vendors.coderepo.repos").response.parse(repos.body);

    const calls = await get("/vendors/calls/calls/detailed", "csm");
    expect(calls.status).toBe(200);
    const parsed = endpointById("vendors.calls.detailed").response.parse(calls.body);
    expect(parsed.calls.length).toBeGreaterThan(0);
    const transcript = await get(`/vendors/calls/calls/${encodeURIComponent(parsed.calls[0]!.id)}/transcript`, "csm");
    expect(transcript.status).toBe(200);
    expect(endpointById("vendors.calls.transcript").response.parse(transcript.body).callId).toBe(parsed.calls[0]!.id);
    const missing = await get("/vendors/calls/calls/999999999/transcript", "csm");
    expect([missing.status, missing.body.error]).toEqual([404, "not_found"]);
  });

  it("reads the CRM portal directly, unpaginated, for every signed-in person", async () => {
    const tenant = generateTenant({ referenceDate: referenceDateAt(Date.now()) });
    const live: Record<string, number> = {
      companies: tenant.companies.filter((c) => !c.archived).length,
      contacts: tenant.contacts.filter((c) => !c.archived).length,
      deals: tenant.deals.filter((d) => !d.archived).length,
    };
    expect(live.companies).toBeGreaterThan(100);
    for (const who of ["admin", "csm", "member"] as const) {
      for (const [id, path, key] of [
        ["vendors.crmportal.companies", "/vendors/crmportal/companies", "companies"],
        ["vendors.crmportal.contacts", "/vendors/crmportal/contacts", "contacts"],
        ["vendors.crmportal.deals", "/vendors/crmportal/deals", "deals"],
      ] as const) {
        const r = await get(path, who);
        expect(r.status, `${who} ${path}`).toBe(200);
        const list = endpointById(id).response.parse(r.body) as Record<string, unknown[]>;
        // The whole list in one answer, past the portal's 100-record pages.
        expect(list[key]!.length, path).toBe(live[key]);
      }
    }
    const deals = endpointById("vendors.crmportal.deals").response.parse((await get("/vendors/crmportal/deals", "csm")).body);
    expect(deals.deals.some((d) => d.companyId === null)).toBe(true);
    expect((await get("/connections/crmportal/check", "member")).body).toMatchObject({ slug: "crmportal", status: "ok", ok: true });
  });

  it("pages support conversations with its own cursors: every conversation exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await get(`/vendors/support/conversations${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, "admin");
      expect(r.status).toBe(200);
      const page = endpointById("vendors.support.conversations").response.parse(r.body);
      seen.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    const bad = await get("/vendors/support/conversations?cursor=not-ours", "admin");
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_cursor"]);
  });

  it("opens one support conversation from the list with what was said in it; an id it does not have is 404", async () => {
    const list = endpointById("vendors.support.conversations").response.parse((await get("/vendors/support/conversations", "admin")).body);
    const listed = list.conversations.find((c) => c.state === "closed") ?? list.conversations[0]!;
    const r = await get(`/vendors/support/conversations/${listed.id}`, "admin");
    expect(r.status).toBe(200);
    const one = endpointById("vendors.support.conversation").response.parse(r.body);
    // The list's fields, then the parts: the opening message first, oldest to newest.
    expect(one).toMatchObject(listed);
    expect(one.parts.length).toBeGreaterThan(0);
    expect(one.parts[0]).toMatchObject({ kind: "comment", author: { type: "customer" } });
    expect(one.parts.map((p) => p.createdAt)).toEqual(one.parts.map((p) => p.createdAt).sort((a, b) => a - b));
    for (const unknown of ["1", "not-a-conversation", "..%2Fme", "%2e%2e"]) {
      const missing = await get(`/vendors/support/conversations/${unknown}`, "admin");
      expect([missing.status, errorEnvelope.parse(missing.body).error], unknown).toEqual([404, "not_found"]);
    }
    expect((await get(`/vendors/support/conversations/${listed.id}`, "member")).status).toBe(401);
  });

  it("answers each not-connected and not-opted-in case with its code", async () => {
    for (const [p, status, code] of [
      ["/vendors/tracker/issues", 401, "tracker_not_connected"],
      ["/vendors/tracker/projects", 401, "tracker_not_connected"],
      ["/vendors/coderepo/repos", 401, "coderepo_not_connected"],
      ["/vendors/support/conversations", 401, "support_not_connected"],
      ["/vendors/support/conversations/1", 401, "support_not_connected"],
      ["/vendors/calls/calls", 403, "calls_not_opted_in"],
    ] as const) {
      const r = await get(p, "member");
      expect([r.status, errorEnvelope.parse(r.body).error], p).toEqual([status, code]);
    }
  });

  it("answers 409 when the shared calls credential is missing", async () => {
    const adminId = (await userIdByEmail(h.db, "admin@demo.test"))!;
    await deleteDonorToken(h.db, "calls");
    try {
      const r = await get("/vendors/calls/calls", "csm");
      expect([r.status, r.body.error]).toEqual([409, "calls_donor_not_connected"]);
      const check = await get("/connections/calls/check", "csm");
      expect(check.body).toMatchObject({ status: "not-connected", ok: false });
    } finally {
      await saveDonorToken(h.db, testApp.sealer(), "calls", { accessToken: testApp.standIns.all().calls.oauth.mint("admin@demo.test") }, adminId);
    }
  });

  it("answers 502 <slug>_upstream_error when the upstream fails, never a partial list", async () => {
    testApp.standIns.all().tracker.faults.next({ status: 500 });
    const r = await get("/vendors/tracker/issues", "csm");
    expect([r.status, r.body.error]).toEqual([502, "tracker_upstream_error"]);
    testApp.standIns.crmportal().faults.next({ status: 500 });
    const portal = await get("/vendors/crmportal/contacts", "csm");
    expect([portal.status, portal.body.error]).toEqual([502, "crmportal_upstream_error"]);
    // A refusal renews the credential once and reads again (tests/integration/connectors/renewal.test.ts
    // covers a renewal the vendor refuses too).
    const coderepo = testApp.standIns.all().coderepo.faults;
    coderepo.clear();
    coderepo.next({ status: 401, pathIncludes: "/user" });
    const refused = await get("/vendors/coderepo/repos", "csm");
    expect(refused.status).toBe(200);
    expect(coderepo.seen.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(["POST /oauth/token"]));
  });

  it("caches a user's reads briefly, and never serves them to another user", async () => {
    await get("/vendors/tracker/issues", "csm");
    const before = testApp.standIns.all().tracker.faults.seen.length;
    await get("/vendors/tracker/issues", "csm");
    expect(testApp.standIns.all().tracker.faults.seen.length).toBe(before);
    const other = await get("/vendors/tracker/issues", "admin");
    expect(testApp.standIns.all().tracker.faults.seen.length).toBeGreaterThan(before);
    const mine = await get("/vendors/tracker/issues", "csm");
    expect(other.body).not.toEqual(mine.body);
  });

  it("runs connection checks as the calling user", async () => {
    const ok = await get("/connections/tracker/check", "csm");
    expect(endpointById("connections.check").response.parse(ok.body)).toMatchObject({ slug: "tracker", status: "ok", ok: true });
    expect(ok.body.details.length).toBeGreaterThan(0);
    expect((await get("/connections/tracker/check", "member")).body).toMatchObject({ status: "not-connected", ok: false });
    expect((await get("/connections/calls/check", "member")).body).toMatchObject({ status: "not-connected", ok: false });
    testApp.standIns.all().support.faults.next({ status: 500 });
    expect((await get("/connections/support/check", "csm")).body).toMatchObject({ status: "failed", ok: false });
  });

  it("answers not-configured when a connector has no upstream", async () => {
    const off = createApp(parseConfig({ ...baseEnv, STAND_INS: "0" }));
    const api = await apiAsDemoUsers(() => h.db, () => off.services());
    const get = (p: string, who: Who) => api.get(p, who);
    try {
      const r = await get("/vendors/tracker/issues", "csm");
      expect([r.status, r.body.error]).toEqual([503, "tracker_not_configured"]);
      const calls = await get("/vendors/calls/calls", "csm");
      expect([calls.status, calls.body.error]).toEqual([503, "calls_not_configured"]);
      expect((await get("/connections/coderepo/check", "csm")).body).toMatchObject({ status: "not-configured", ok: false });
      const portal = await get("/vendors/crmportal/companies", "csm");
      expect([portal.status, portal.body.error]).toEqual([503, "crmportal_not_configured"]);
      expect((await get("/connections/crmportal/check", "csm")).body).toMatchObject({ status: "not-configured", ok: false });
    } finally {
    }
  });
});
