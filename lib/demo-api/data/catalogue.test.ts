import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import { endpoints, errorsOf, type Endpoint } from "@/lib/contract/endpoints";
import { errorEnvelope } from "@/lib/contract/resources";
import { waitingText } from "@/lib/cx/ready";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { demoReferenceDate, DEMO_VIEWER_EMAIL, openParamExamples, catalogue, defaultScenario, endpointForPath, isScenario, isVariant, rich, scenarios, variantGlossary, variantsFor } from ".";
import { referenceDateAt } from "@/demo/tenant";

// Every canned answer, validated against the contract: each endpoint at each of its variants,
// and each scenario at each path, for every value a path parameter may take.

const viewerOwner = () => rich().tenant.owners.find((o) => o.email === DEMO_VIEWER_EMAIL)?.ownerId ?? "";

/** Concrete requests covering an endpoint: each path value, and the queries its handler branches on. */
function requestsFor(e: Endpoint): { path: string; query: string }[] {
  const paths = e.path.includes(":instance")
    ? ["customers", "users"].map((i) => e.path.replace(":instance", i))
    : e.path.includes(":slug")
      ? ["tracker", "coderepo", "calls", "support", "crmportal"].map((s) => e.path.replace(":slug", s))
      : e.path.includes(":id")
        ? [e.path.replace(":id", openParamExamples[e.id]?.id?.() ?? "")]
        : [e.path];
  const queries: Record<string, string[]> = {
    "vendors.tracker.issues": ["", "project=Platform"],
    "cx.owners": ["", "activeOnly=true"],
    "cx.book": [`owner=${viewerOwner()}`, `owner=${viewerOwner()}&basis=activity&days=90`],
    "cx.districts": ["", "from=2026-09-01&to=2026-09-30"],
  };
  return paths.flatMap((path) => (queries[e.id] ?? [""]).map((query) => ({ path, query })));
}

function expectValid(e: Endpoint, res: { status: number; body: unknown }): void {
  const body: unknown = JSON.parse(JSON.stringify(res.body));
  if (res.status === 200) {
    // Parsing strips unknown keys, so equality also proves there are none.
    expect(e.response.parse(body)).toEqual(body);
    return;
  }
  const env = errorEnvelope.strict().parse(body);
  expect(Object.hasOwn(errorCatalogue, env.error), env.error).toBe(true);
  expect(errorCatalogue[env.error as ErrorCode].status).toBe(res.status);
  expect(errorsOf(e)).toContain(env.error);
}

const get = (path: string, query = "", extra: { scenario?: string; examples?: Record<string, string> } = {}) =>
  demoApiResponse({ path, search: new URLSearchParams(query), ...extra });

describe("the catalogue", () => {
  it("covers every registry endpoint, with rich first and signed_out everywhere", () => {
    for (const e of endpoints) {
      const names = variantsFor(e.path);
      expect(names[0], e.path).toBe("rich");
      expect(names, e.path).toContain("signed_out");
      expect(names, e.path).toContain("server_error");
    }
    expect(Object.keys(catalogue).sort()).toEqual(endpoints.map((e) => e.id).sort());
  });

  it("describes every variant name it offers", () => {
    for (const e of endpoints) for (const v of variantsFor(e.path)) expect(variantGlossary[v], `${e.path} ${v}`).toBeTypeOf("string");
  });

  it("is today's: generated for the present day, and again when the day turns", () => {
    const today = referenceDateAt(Date.now());
    expect(demoReferenceDate()).toBe(today);
    expect(rich().tenant.referenceDate).toBe(today);
    expect(rich().now).toBe(Date.parse(`${today}T12:00:00.000Z`));
    // The day turns at noon UTC, as the stand-ins' does.
    expect(rich(Date.parse("2027-03-02T13:00:00Z")).tenant.referenceDate).toBe("2027-03-02");
    expect(rich(Date.parse("2027-03-02T11:00:00Z")).tenant.referenceDate).toBe("2027-03-01");
    expect(rich().tenant.referenceDate).toBe(today);
  });

  describe.each(endpoints.map((e) => [e.path, e] as const))("%s", (_, e) => {
    it.each(variantsFor(e.path))("answers %s within the contract", (variant) => {
      const requests = requestsFor(e);
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) {
        const res = get(r.path, `${r.query}${r.query ? "&" : ""}variant=${variant}`);
        expectValid(e, res);
        if (variant === "signed_out") expect(res).toEqual({ status: 401, body: { error: "unauthorized", hint: expect.any(String) } });
        if (variant === "rich") expect(res.status, `${r.path}?${r.query}`).toBe(200);
      }
    });
  });
});

describe("the scenarios", () => {
  it("are uniquely named, described, and include the default", () => {
    const names = scenarios.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(isScenario(defaultScenario)).toBe(true);
    for (const s of scenarios) expect(s.description.length).toBeGreaterThan(20);
    expect(names).toEqual(expect.arrayContaining(["default", "new-customer", "signed-out", "outage", "non-monetary", "first-sync"]));
  });

  it("name only paths and variants that exist", () => {
    for (const s of scenarios) {
      for (const [path, variant] of Object.entries(s.examples)) {
        expect(endpointForPath(path), `${s.name}: ${path}`).toBeDefined();
        expect(isVariant(path, variant), `${s.name}: ${path} → ${variant}`).toBe(true);
      }
    }
  });

  describe.each(scenarios.map((s) => [s.name] as const))("%s", (name) => {
    it("answers every path within the contract", () => {
      for (const e of endpoints) {
        for (const r of requestsFor(e)) {
          const res = get(r.path, `${r.query}${r.query ? "&" : ""}scenario=${name}`);
          expectValid(e, res);
          if (name === "signed-out") expect(res.status).toBe(401);
          if (name === "default") expect(res.status, r.path).toBe(200);
        }
      }
    });

    it("answers the same through a draft's scenario as through ?scenario=", () => {
      for (const e of endpoints) {
        for (const r of requestsFor(e)) expect(get(r.path, r.query, { scenario: name })).toEqual(get(r.path, `${r.query}${r.query ? "&" : ""}scenario=${name}`));
      }
    });
  });

  it("tell path values apart where a concrete key is given (member: customers yes, users no)", () => {
    expect(get("/crm/customers/companies", "scenario=member").status).toBe(200);
    expect(get("/crm/users/companies", "scenario=member")).toMatchObject({ status: 403, body: { error: "forbidden" } });
    expect(get("/me", "scenario=member").body).toMatchObject({ email: "member@demo.test", groups: [] });
  });
});

describe("data semantics", () => {
  it("keeps ARR at district grain in a book: one figure per district", () => {
    const res = get("/cx/book", `owner=${viewerOwner()}`);
    const book = z.object({ ok: z.literal(true), data: z.object({ rows: z.array(z.object({ districtName: z.string(), arr: z.number().nullable().optional() })) }) }).parse(res.body);
    expect(book.data.rows.length).toBeGreaterThan(5);
    const byDistrict = new Map<string, Set<number | null | undefined>>();
    for (const r of book.data.rows) byDistrict.set(r.districtName, (byDistrict.get(r.districtName) ?? new Set()).add(r.arr));
    for (const [district, figures] of byDistrict) expect(figures.size, district).toBe(1);
  });

  it("answers the non-monetary shapes: arr null, no deals, no pipeline", () => {
    const companies = get("/crm/customers/companies", "variant=non_monetary&limit=200").body as { companies: { arr?: number | null }[] };
    expect(companies.companies.length).toBeGreaterThan(0);
    expect(companies.companies.every((c) => c.arr === null)).toBe(true);
    expect(get("/crm/customers/deals", "variant=non_monetary").body).toEqual({ deals: [], nextCursor: null });
    const summary = get("/crm/customers/summary", "variant=non_monetary").body;
    expect(summary).not.toHaveProperty("pipeline");
    expect(summary).toMatchObject({ totals: { deals: 0 } });
    // The users instance is non-monetary even at its richest.
    expect(get("/crm/users/summary").body).not.toHaveProperty("pipeline");
    expect(get("/crm/users/deals").body).toEqual({ deals: [], nextCursor: null });
    expect(get("/crm/customers/summary").body).toHaveProperty("pipeline");
  });

  it("tells the same first-sync story in /sources and the CX views", () => {
    const sources = get("/crm/customers/sources", "scenario=first-sync").body as { sources: { status: string; progress: { done: number; expected: number | null } | null }[] };
    const src = sources.sources[0];
    expect(src?.status).toBe("running");
    const progress = src?.progress;
    if (!progress) throw new Error("no progress");
    const text = waitingText({ completed: false, latest: { status: "running", rowsDone: progress.done, rowsExpected: progress.expected } });
    for (const path of ["/cx/owners", "/cx/districts"]) expect(get(path, "scenario=first-sync").body).toEqual({ ok: false, waitingOn: text });
    expect(get("/cx/book", `owner=${viewerOwner()}&scenario=first-sync`).body).toEqual({ ok: false, waitingOn: text });
    expect(get("/crm/customers/companies", "scenario=first-sync")).toMatchObject({ status: 503, body: { error: "crm_not_synced" } });
  });

  it("leaves health and reach null when only the CRM is loaded", () => {
    const res = get("/cx/book", `owner=${viewerOwner()}&variant=crm_only`).body as { ok: true; data: { rows: { health: unknown; reach: unknown; cadence: unknown }[] } };
    expect(res.data.rows.length).toBeGreaterThan(0);
    for (const r of res.data.rows) {
      expect(r.health).toBeNull();
      expect(r.reach).toBeNull();
      expect(r.cadence).not.toBeNull();
    }
  });

  it("keeps a check's ok true exactly when its status is ok", () => {
    for (const variant of variantsFor("/connections/:slug/check")) {
      for (const slug of ["tracker", "coderepo", "calls", "support", "crmportal"]) {
        const res = get(`/connections/${slug}/check`, `variant=${variant}`);
        if (res.status !== 200) continue;
        const body = res.body as { ok: boolean; status: string; slug: string };
        expect(body.ok).toBe(body.status === "ok");
        expect(body.slug).toBe(slug);
      }
    }
  });
});
