import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as apiRoute from "@/app/dashboards/playground/api/[[...path]]/route";
import * as endpointsRoute from "@/app/dashboards/playground/endpoints/route";
import * as scenariosRoute from "@/app/dashboards/playground/scenarios/route";
import { errorCatalogue } from "@/lib/contract/errors";
import { endpointById, endpoints, errorsOf } from "@/lib/contract/endpoints";
import { errorEnvelope } from "@/lib/contract/resources";
import { endpointsBodySchema } from "@/lib/contract/playground-bodies";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { DEMO_VIEWER_EMAIL, isVariant, rich, variantsFor } from "@/lib/demo-api/data";

// The demo API through its route handlers: path values and queries handled as the real API
// handles them, the playground's scenario and variant parameters, and /scenarios, /endpoints.

const ORIGIN = "http://playground.test";

async function call(apiPath: string, method = "GET"): Promise<{ status: number; headers: Headers; body: unknown }> {
  const url = new URL(`${ORIGIN}/dashboards/playground/api${apiPath}`);
  const segments = url.pathname.replace("/dashboards/playground/api", "").split("/").filter(Boolean).map(decodeURIComponent);
  const ctx = { params: Promise.resolve({ path: segments }) };
  const request = new Request(url, { method });
  const handler = method === "GET" ? apiRoute.GET : method === "POST" ? apiRoute.POST : method === "DELETE" ? apiRoute.DELETE : apiRoute.PUT;
  const res = await handler(request, ctx);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const get = (path: string) => call(path);
const direct = (path: string, query = "", extra: { scenario?: string; examples?: Record<string, string> } = {}) =>
  demoApiResponse({ path, search: new URLSearchParams(query), ...extra });

const viewerOwner = () => rich().tenant.owners.find((o) => o.email === DEMO_VIEWER_EMAIL)?.ownerId ?? "";

/** Follows nextCursor from the first page to the last, collecting each page's items. */
async function pageThrough(path: string, list: string, limit?: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q = new URLSearchParams();
    if (limit !== undefined) q.set("limit", String(limit));
    if (cursor !== null) q.set("cursor", cursor);
    const res = await get(`${path}${q.size ? `?${q}` : ""}`);
    expect(res.status, `${path}?${q}`).toBe(200);
    const body = z.object({ nextCursor: z.string().nullable() }).catchall(z.unknown()).parse(res.body);
    const items = z.array(z.object({ id: z.string() }).loose()).parse(body[list]);
    ids.push(...items.map((i) => i.id));
    cursor = body.nextCursor;
    pages += 1;
    expect(pages).toBeLessThan(1000);
  } while (cursor !== null);
  return { ids, pages };
}

describe("the route", () => {
  it("answers JSON, never cached", async () => {
    const res = await get("/me");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(endpointById("me").response.parse(res.body).email).toBe(DEMO_VIEWER_EMAIL);
  });

  it.each(["POST", "PUT", "DELETE"])("refuses %s with 405 method_not_allowed", async (method) => {
    const res = await call("/me", method);
    expect(res.status).toBe(405);
    expect(errorEnvelope.strict().parse(res.body).error).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("GET");
  });

  it("answers an error status in the envelope, with the catalogue's status", async () => {
    const res = await get("/vendors/tracker/issues?variant=not_connected");
    expect(res.status).toBe(401);
    expect(errorEnvelope.strict().parse(res.body)).toEqual({ error: "tracker_not_connected", hint: "Connect Linear at /connections." });
  });

  it("answers 404 no_example for a path the demo does not know", async () => {
    for (const path of ["/nope", "/me/extra", "/crm/customers", "/"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(errorEnvelope.parse(res.body).error).toBe("no_example");
    }
  });

  it("answers no_example for an unknown path whatever the draft's scenario", () => {
    // Every registry path has a default variant, so only a path outside the registry lacks an example.
    expect(direct("/vendors/unknown/things", "", { scenario: "outage" })).toMatchObject({ status: 404, body: { error: "no_example" } });
  });
});

describe("scenarios and variants", () => {
  it("refuses an unknown scenario with 400 unknown_scenario", async () => {
    const res = await get("/me?scenario=nope");
    expect(res.status).toBe(400);
    expect(errorEnvelope.parse(res.body).error).toBe("unknown_scenario");
    // The hint names the parameter, the value and the accepted ones.
    expect(errorEnvelope.parse(res.body).hint).toMatch(/^scenario: no scenario "nope"; it is one of default, .*outage/);
    expect(direct("/me", "", { scenario: "nope" })).toMatchObject({ status: 400, body: { error: "unknown_scenario" } });
  });

  it("refuses an unknown variant with 400 unknown_example, also one another path has", async () => {
    for (const q of ["/me?variant=nope", "/me?variant=empty", "/nope?variant=rich"]) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(errorEnvelope.parse(res.body).error).toBe("unknown_example");
    }
    expect(direct("/me", "", { examples: { "/me": "nope" } })).toMatchObject({ status: 400, body: { error: "unknown_example" } });
  });

  it("refuses a playground parameter given twice", () => {
    expect(direct("/me", "variant=rich&variant=signed_out")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    expect(direct("/me", "scenario=default&scenario=outage")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
  });

  it("picks, most specific first: ?variant, ?scenario, draft examples (concrete, pattern), draft scenario", () => {
    const path = "/crm/users/companies";
    expect(direct(path, "variant=empty", { scenario: "signed-out", examples: { [path]: "forbidden" } }).body).toEqual({ companies: [], nextCursor: null });
    expect(direct(path, "scenario=default", { scenario: "signed-out", examples: { [path]: "forbidden" } }).status).toBe(200);
    expect(direct(path, "", { scenario: "signed-out", examples: { [path]: "forbidden", "/crm/:instance/companies": "empty" } }).status).toBe(403);
    expect(direct(path, "", { scenario: "signed-out", examples: { "/crm/:instance/companies": "empty" } }).body).toEqual({ companies: [], nextCursor: null });
    expect(direct(path, "", { scenario: "signed-out" }).status).toBe(401);
    expect(direct(path, "", {}).status).toBe(200);
  });

  it("mixes variants freely across paths in one draft", () => {
    const examples = { "/vendors/tracker/issues": "empty", "/cx/owners": "waiting", "/me": "signed_out" };
    expect(direct("/vendors/tracker/issues", "", { examples }).body).toEqual({ issues: [] });
    expect(direct("/cx/owners", "", { examples }).body).toMatchObject({ ok: false });
    expect(direct("/me", "", { examples }).status).toBe(401);
    expect(direct("/vendors/coderepo/repos", "", { examples }).status).toBe(200);
  });

  it("runs the real API's order: 401 before path values, path values before 403, 403 before the query", () => {
    expect(direct("/crm/nowhere/companies", "variant=signed_out").status).toBe(401);
    expect(direct("/crm/nowhere/companies", "variant=forbidden")).toMatchObject({ status: 404, body: { error: "no_such_instance" } });
    expect(direct("/cx/book", "variant=forbidden")).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(direct("/cx/book", "variant=waiting")).toMatchObject({ status: 400, body: { error: "owner_required" } });
    expect(direct("/crm/customers/companies", "variant=server_error&limit=0")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    expect(direct("/crm/customers/companies", "variant=server_error")).toMatchObject({ status: 500, body: { error: "internal_error" } });
  });

  it("matches patterns and concrete paths in isVariant and variantsFor", () => {
    expect(isVariant("/crm/:instance/companies", "non_monetary")).toBe(true);
    expect(isVariant("/crm/customers/companies", "non_monetary")).toBe(true);
    expect(isVariant("/vendors/calls/calls/123/transcript", "not_opted_in")).toBe(true);
    expect(isVariant("/vendors/calls/calls/detailed", "empty")).toBe(true);
    expect(isVariant("/me", "empty")).toBe(false);
    expect(isVariant("/nope", "rich")).toBe(false);
    expect(variantsFor("/crm/users/summary")).toEqual(variantsFor("/crm/:instance/summary"));
    expect(variantsFor("/nope")).toEqual([]);
  });
});

describe("path values and queries, as the real API", () => {
  it("answers 404 no_such_instance for an instance other than customers and users", async () => {
    for (const rest of ["companies", "contacts", "deals", "summary", "sources"]) {
      const res = await get(`/crm/staff/${rest}`);
      expect(res.status).toBe(404);
      expect(errorEnvelope.parse(res.body).error).toBe("no_such_instance");
    }
  });

  it.each([
    ["/crm/customers/companies", "companies"],
    ["/crm/customers/contacts", "contacts"],
    ["/crm/customers/deals", "deals"],
    ["/crm/users/companies", "companies"],
    ["/crm/users/contacts", "contacts"],
    ["/vendors/support/conversations", "conversations"],
  ])("pages %s: each item exactly once, cursors to the end", async (path, list) => {
    const whole = direct(path, path.startsWith("/crm") ? "limit=200" : "");
    expect(whole.status).toBe(200);
    const { ids: all } = path.startsWith("/crm") ? await pageThrough(path, list, 200) : await pageThrough(path, list);
    expect(all.length).toBeGreaterThan(0);
    for (const limit of path.startsWith("/crm") ? [1, 7, 50] : [undefined]) {
      const { ids, pages } = await pageThrough(path, list, limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(all);
      if (limit !== undefined) expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
    }
  });

  it("pages the default limit of 50 and says so on the last page", () => {
    const first = z.object({ contacts: z.array(z.unknown()), nextCursor: z.string().nullable() }).parse(direct("/crm/customers/contacts").body);
    expect(first.contacts).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    expect(direct("/crm/customers/deals", "limit=200").body).toMatchObject({ nextCursor: null });
  });

  it("refuses a cursor it did not issue, or issued for another list, with 400 invalid_cursor", () => {
    const companies = z.object({ nextCursor: z.string() }).parse(direct("/crm/customers/companies", "limit=5").body);
    const support = z.object({ nextCursor: z.string() }).parse(direct("/vendors/support/conversations").body);
    const [body, mac] = companies.nextCursor.split(".");
    const bad = [
      ["/crm/customers/companies", "garbage"],
      ["/crm/customers/companies", `${body}.${(mac ?? "").replace(/^./, (c) => (c === "0" ? "1" : "0"))}`],
      ["/crm/customers/companies", `${body}x.${mac}`],
      ["/crm/customers/companies", `${companies.nextCursor}.extra`],
      ["/crm/customers/contacts", companies.nextCursor],
      ["/crm/users/companies", companies.nextCursor],
      ["/crm/customers/companies", support.nextCursor],
      ["/vendors/support/conversations", companies.nextCursor],
      ["/crm/customers/deals", companies.nextCursor],
    ] as const;
    for (const [path, cursor] of bad) {
      expect(direct(path, new URLSearchParams({ cursor }).toString()), `${path} ${cursor}`).toMatchObject({ status: 400, body: { error: "invalid_cursor" } });
    }
    // The same cursor stays good on its own list, also under another variant of that list.
    expect(direct("/crm/customers/companies", new URLSearchParams({ cursor: companies.nextCursor }).toString()).status).toBe(200);
    expect(direct("/crm/customers/companies", new URLSearchParams({ cursor: companies.nextCursor, variant: "non_monetary" }).toString()).status).toBe(200);
    // An empty list issued no cursor, so none is accepted there.
    expect(direct("/crm/customers/companies", new URLSearchParams({ cursor: "x.y", variant: "empty" }).toString())).toMatchObject({ status: 400, body: { error: "invalid_cursor" } });
  });

  it("validates limit with the registry's schema: 400 invalid_query", () => {
    for (const limit of ["0", "201", "abc", "1.5", "-1", ""]) {
      expect(direct("/crm/customers/companies", `limit=${limit}`), limit).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    }
    expect(direct("/crm/customers/companies", "limit=1&limit=2")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    expect(direct("/crm/customers/companies", "limit=200").status).toBe(200);
  });

  it("refuses a window in years Date.UTC cannot name, instead of failing on it", () => {
    for (const path of ["/cx/districts", "/cx/book"]) {
      const answer = direct(path, "owner=o-1&from=0001-01-01&to=9999-12-31");
      expect(answer, path).toMatchObject({ status: 400, body: { error: "invalid_query", hint: expect.stringContaining("from") } });
    }
  });

  it("filters tracker issues by project id or name; without it, the assigned view", () => {
    const { projects } = rich().tracker;
    const assigned = endpointById("vendors.tracker.issues").response.parse(direct("/vendors/tracker/issues").body).issues;
    expect(assigned.length).toBeGreaterThan(0);
    for (const i of assigned) {
      expect(i).not.toHaveProperty("project");
      expect(i).not.toHaveProperty("priority");
      expect(i).not.toHaveProperty("assignee");
    }
    let seen = 0;
    for (const p of projects) {
      for (const q of [p.id, p.name, `  ${p.name.toUpperCase()} `]) {
        const issues = endpointById("vendors.tracker.issues").response.parse(direct("/vendors/tracker/issues", new URLSearchParams({ project: q }).toString()).body).issues;
        expect(issues.every((i) => i.project?.id === p.id), q).toBe(true);
        expect(issues.length).toBe(p.issues.length);
        seen += issues.length;
      }
    }
    expect(seen).toBe(3 * rich().tenant.tracker.issues.filter((i) => i.projectId !== null).length);
    // As the real read: a project the tracker lacks is 404, not an empty project.
    expect(direct("/vendors/tracker/issues", "project=No%20such%20project")).toMatchObject({ status: 404, body: { error: "no_such_project" } });
    const listed = endpointById("vendors.tracker.projects").response.parse(direct("/vendors/tracker/projects").body).projects;
    expect(listed.map((p) => p.id).sort()).toEqual(projects.map((p) => p.id).sort());
    expect(direct("/vendors/tracker/issues", "project=")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
  });

  it("answers one owner's book; owner is required", () => {
    expect(direct("/cx/book")).toMatchObject({ status: 400, body: { error: "owner_required" } });
    expect(direct("/cx/book", "owner=")).toMatchObject({ status: 400, body: { error: "owner_required" } });
    const t = rich().tenant;
    for (const owner of t.owners) {
      const res = endpointById("cx.book").response.parse(direct("/cx/book", `owner=${owner.ownerId}`).body);
      if (!res.ok) throw new Error("waiting");
      expect(res.data.ownerId).toBe(owner.ownerId);
      expect(res.data.basis).toBe("real");
      const theirs = new Set(t.companies.filter((c) => c.ownerId === owner.ownerId && c.parentCompanyId !== null && !c.archived).map((c) => c.id));
      expect(new Set(res.data.rows.map((r) => r.companyId))).toEqual(theirs);
    }
    const unknown = endpointById("cx.book").response.parse(direct("/cx/book", "owner=nobody").body);
    expect(unknown).toMatchObject({ ok: true, data: { ownerId: "nobody", rows: [] } });
  });

  it("applies the book's window and basis, refusing what the real API refuses", () => {
    const owner = viewerOwner();
    const windowed = endpointById("cx.book").response.parse(direct("/cx/book", `owner=${owner}&from=2026-09-01&to=2026-09-30&basis=activity`).body);
    expect(windowed).toMatchObject({ ok: true, data: { basis: "activity", window: { sinceIso: "2026-09-01T00:00:00.000Z", untilIso: "2026-09-30T23:59:59.999Z" } } });
    const days = endpointById("cx.book").response.parse(direct("/cx/book", `owner=${owner}&days=7`).body);
    // Seven days up to the demo's today: its tenant is generated for the present day.
    const today = rich().tenant.referenceDate;
    const weekAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString();
    expect(days).toMatchObject({ ok: true, data: { window: { sinceIso: weekAgo, untilIso: `${today}T23:59:59.999Z` } } });
    for (const q of ["days=0", "days=366", "from=2026-09-01", "from=2026-09-30&to=2026-09-01", "from=2026-02-30&to=2026-03-01", "basis=guess"]) {
      expect(direct("/cx/book", `owner=${owner}&${q}`), q).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    }
    expect(direct("/cx/districts", "days=abc")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
    // The quiet districts hold every state a district row can be in.
    const quiet = endpointById("cx.districts").response.parse(direct("/cx/districts", "variant=quiet").body);
    if (!quiet.ok) throw new Error("quiet districts are ready");
    expect(quiet.data.rows.some((r) => r.cadence?.silent30d === true && r.cadence.daysSinceContact === null)).toBe(true);
    expect(quiet.data.rows.some((r) => r.health === null)).toBe(true);
    expect(quiet.data.rows.some((r) => r.health !== null && r.cadence?.daysSinceContact !== null)).toBe(true);
    // The districts say their window back too.
    const districts = endpointById("cx.districts").response.parse(direct("/cx/districts", "from=2026-09-01&to=2026-09-30").body);
    expect(districts).toMatchObject({ ok: true, data: { window: { sinceIso: "2026-09-01T00:00:00.000Z", untilIso: "2026-09-30T23:59:59.999Z" } } });
  });

  it("drops departed owners with activeOnly=true", () => {
    const all = endpointById("cx.owners").response.parse(direct("/cx/owners").body);
    const active = endpointById("cx.owners").response.parse(direct("/cx/owners", "activeOnly=true").body);
    if (!all.ok || !active.ok) throw new Error("waiting");
    expect(all.data.owners).toHaveLength(rich().tenant.owners.length);
    expect(active.data.owners).toHaveLength(rich().tenant.owners.filter((o) => o.active).length);
    expect(active.data.owners.length).toBeLessThan(all.data.owners.length);
    expect(direct("/cx/owners", "activeOnly=yes")).toMatchObject({ status: 400, body: { error: "invalid_query" } });
  });

  it("answers a transcript for each listed call and 404 not_found for any other id", () => {
    const calls = endpointById("vendors.calls.detailed").response.parse(direct("/vendors/calls/calls/detailed").body).calls;
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      const t = endpointById("vendors.calls.transcript").response.parse(direct(`/vendors/calls/calls/${c.id}/transcript`).body);
      expect(t.callId).toBe(c.id);
      expect(t.segments.length).toBeGreaterThan(0);
      const speakers = new Set(c.participants.map((p) => p.speakerId).filter((s) => s !== null));
      for (const s of t.segments) if (s.speakerId !== null) expect(speakers.has(s.speakerId), s.speakerId).toBe(true);
    }
    const old = rich().tenant.calls.find((c) => !calls.some((x) => x.id === c.id));
    for (const id of ["0", "nope", old?.id ?? "missing"]) {
      expect(direct(`/vendors/calls/calls/${id}/transcript`), id).toMatchObject({ status: 404, body: { error: "not_found" } });
    }
  });

  it("answers each connector's check and 404 no_connection_check for an unknown slug", async () => {
    for (const slug of ["tracker", "coderepo", "calls", "support", "crmportal"]) {
      const res = await get(`/connections/${slug}/check`);
      expect(endpointById("connections.check").response.parse(res.body)).toMatchObject({ slug, ok: true, status: "ok" });
    }
    const res = await get("/connections/fax/check");
    expect(res.status).toBe(404);
    expect(errorEnvelope.parse(res.body).error).toBe("no_connection_check");
  });

  it("answers quickly once warm", () => {
    const owner = viewerOwner();
    const paths = ["/crm/customers/contacts", "/cx/districts", `/cx/book?owner=${owner}`, "/vendors/support/conversations", "/crm/customers/summary"];
    for (const p of paths) direct(p.split("?")[0] ?? p, p.split("?")[1] ?? "");
    // CPU time, not the clock's: a busy machine stretches the clock, not the work.
    const started = process.cpuUsage();
    for (let i = 0; i < 100; i++) for (const p of paths) direct(p.split("?")[0] ?? p, p.split("?")[1] ?? "");
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000 / 500).toBeLessThan(3);
  });
});

describe("GET /scenarios", () => {
  it("lists the scenarios, the default and every path's variants", async () => {
    const res = await scenariosRoute.GET(new Request("http://app.test/dashboards/playground/scenarios"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age/);
    const body = z
      .object({
        default: z.string(),
        scenarios: z.array(z.object({ name: z.string(), description: z.string().min(1) }).loose()).min(6),
        paths: z.array(z.object({ path: z.string(), variants: z.array(z.string()).min(3), default: z.literal("rich") })),
        variants: z.array(z.object({ name: z.string(), description: z.string() })),
      })
      .loose()
      .parse(await res.json());
    expect(body.scenarios.map((s) => s.name)).toContain(body.default);
    expect(body.paths.map((p) => p.path)).toEqual(endpoints.map((e) => e.path));
    for (const p of body.paths) {
      expect(p.variants).toContain(p.default);
      expect(p.variants).toEqual(variantsFor(p.path));
    }
  });

  it("refuses POST", async () => {
    const res = await scenariosRoute.POST(new Request("http://app.test/dashboards/playground/scenarios", { method: "POST" }));
    expect(res.status).toBe(405);
    expect(errorEnvelope.parse(await res.json()).error).toBe("method_not_allowed");
  });
});

describe("GET /endpoints", () => {
  it("documents every registry endpoint with JSON Schemas and its errors", async () => {
    const res = await endpointsRoute.GET(new Request("http://app.test/dashboards/playground/endpoints"));
    expect(res.status).toBe(200);
    // Parsed with the schema /docs publishes for this body, so the two cannot drift apart.
    const body = endpointsBodySchema.parse(await res.json());
    expect([body.apiBase, body.liveApiBase]).toEqual(["/dashboards/playground/api", "/api"]);
    expect(body.endpoints.map((e) => e.id)).toEqual(endpoints.map((e) => e.id));
    expect(JSON.stringify(body.errorEnvelope)).toContain('"error"');
    for (const e of body.endpoints) {
      const def = endpointById(e.id as (typeof endpoints)[number]["id"]);
      expect(e.path).toBe(def.path);
      expect(e.query.type).toBe("object");
      expect(e.response.type === "object" || Array.isArray(e.response.anyOf), e.id).toBe(true);
      expect(e.errors.map((x) => x.error)).toEqual(errorsOf(def));
      for (const x of e.errors) expect(x.status).toBe(errorCatalogue[x.error as keyof typeof errorCatalogue].status);
    }
    const book = body.endpoints.find((e) => e.id === "cx.book");
    expect(book?.query.required).toEqual(["owner"]);
    // The query is documented as sent: strings, before the schema's transforms.
    const companies = body.endpoints.find((e) => e.id === "crm.companies");
    expect(JSON.stringify(companies?.query)).toContain('"limit":{');
    expect(JSON.stringify(companies?.response)).toContain("nextCursor");
  });
});
