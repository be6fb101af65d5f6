import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiHandlers } from "@/lib/api";
import { endpoints, errorsOf, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { errorEnvelope } from "@/lib/contract/resources";
import { startSession, userForRequest } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import { handleApi, type HandlerMap } from "@/lib/api/api-route";
import { seedDemo } from "@/lib/seed";
import { backends, testSeed } from "../support/backends";
import { testServices } from "../support/api";

/** A concrete path for an endpoint, with a valid value for every path parameter. */
function concrete(e: EndpointDef): string {
  return e.path.replace(/:(\w+)/g, (_, name: string) => e.params?.[name]?.values?.[0] ?? "c-1");
}

const requiredQuery: Record<string, string> = { "cx.book": "?owner=o-1" };

describe.each(backends)("API over $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  const tokens: Record<string, string> = {};
  const call = (path: string, who?: string, init: RequestInit = {}, handlers: HandlerMap = apiHandlers) =>
    handleApi(
      new Request(`http://app.test/api${path}`, {
        ...init,
        headers: { ...(who ? { cookie: `dd_session=${tokens[who]}` } : {}), ...(init.headers ?? {}) },
      }),
      path.split("?")[0]!,
      { db: async () => h.db, services: testServices, userFor: userForRequest, handlers },
    );

  beforeAll(async () => {
    h = await backend.open();
    await seedDemo(h.db, testSeed());
    for (const who of ["admin", "csm", "member"]) {
      const id = await upsertUser(h.db, {
        email: `${who}@demo.test`,
        name: who,
        groups: who === "admin" ? ["admin", "cx"] : who === "csm" ? ["cx"] : [],
      });
      tokens[who] = (await startSession(h.db, id, 60_000)).token;
    }
  });
  afterAll(async () => {
    await h.close();
  });

  it.each(endpoints.map((e) => [e.path, e] as const))("%s answers 401 unauthorized without a session", async (_, e) => {
    const res = await call(concrete(e) + (requiredQuery[e.id] ?? ""));
    expect(res.status).toBe(401);
    expect(errorEnvelope.parse(await res.json()).error).toBe("unauthorized");
  });

  it.each(endpoints.map((e) => [e.path, e] as const))(
    "%s answers its schema or one of its documented errors for every demo user",
    async (_, e) => {
      for (const who of ["admin", "csm", "member"]) {
        const res = await call(concrete(e) + (requiredQuery[e.id] ?? ""), who);
        const body = await res.json();
        if (res.status === 200) {
          expect(() => e.response.parse(body), `${who} ${e.path}`).not.toThrow();
        } else {
          const env = errorEnvelope.parse(body);
          // internal_error is documented everywhere, but never an acceptable answer here.
          expect(env.error, `${who} ${e.path}: ${env.hint ?? ""}`).not.toBe("internal_error");
          expect(errorsOf(e), `${who} ${e.path} answered ${env.error}`).toContain(env.error);
          expect(res.status).toBe(errorCatalogue[env.error as keyof typeof errorCatalogue].status);
        }
        expect(res.headers.get("content-type")).toContain("application/json");
      }
    },
  );

  it("answers /me, favourites and home from storage", async () => {
    const me = await (await call("/me", "csm")).json();
    expect(me).toEqual({ email: "csm@demo.test", groups: ["cx"], permissions: ["crm.customers.read", "cx.read"] });
    expect(await (await call("/me/favourites", "csm")).json()).toEqual({ favourites: [] });
    expect(await (await call("/me/home", "member")).json()).toEqual({ path: null });
  });

  it("refuses what the caller may not read, and unknown instances, before anything else", async () => {
    expect((await call("/crm/users/companies", "csm")).status).toBe(403);
    expect((await call("/crm/users/companies", "member")).status).toBe(403);
    expect((await call("/cx/owners", "member")).status).toBe(403);
    const unknown = await call("/crm/staff/companies", "admin");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("no_such_instance");
    expect((await (await call("/connections/jira/check", "admin")).json()).error).toBe("no_connection_check");
  });

  it.each([
    ["/crm/customers/companies?limit=0", "invalid_query", "limit"],
    ["/crm/customers/companies?limit=201", "invalid_query", "limit"],
    ["/crm/customers/companies?limit=1.5", "invalid_query", "limit"],
    ["/crm/customers/companies?limit=5&limit=6", "invalid_query", "limit"],
    ["/cx/districts?days=0", "invalid_query", "days"],
    ["/cx/districts?days=366", "invalid_query", "days"],
    ["/cx/districts?from=2026-02-30&to=2026-03-01", "invalid_query", "from"],
    ["/cx/districts?from=2026-03-02&to=2026-03-01", "invalid_query", "from"],
    ["/cx/districts?from=2026-03-01", "invalid_query", "to"],
    // Years 0–99 are real ISO dates, but Date.UTC reads them as the 1900s.
    ["/cx/districts?from=0001-01-01&to=9999-12-31", "invalid_query", "from"],
    ["/cx/book?owner=o-1&from=0099-12-31&to=2026-01-01", "invalid_query", "from"],
    ["/cx/districts?from=1969-12-31&to=1970-01-02", "invalid_query", "from"],
    ["/cx/districts?from=2025-01-01&to=2026-01-01", "invalid_query", "to"],
    ["/cx/book?owner=o-1&from=2024-01-01&to=2026-09-30", "invalid_query", "to"],
    ["/cx/book", "owner_required", "owner"],
    ["/cx/book?owner=", "owner_required", "owner"],
    ["/cx/book?owner=o-1&basis=guess", "invalid_query", "basis"],
    ["/cx/owners?activeOnly=yes", "invalid_query", "activeOnly"],
  ])("%s → 400 %s naming %s", async (path, code, field) => {
    const res = await call(path, "admin");
    expect(res.status).toBe(400);
    const body = errorEnvelope.parse(await res.json());
    expect(body.error).toBe(code);
    expect(body.hint).toContain(field);
  });

  it("answers 404 not_found for unknown paths and 405 for other methods, as the envelope", async () => {
    const missing = await call("/nope", "admin");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe("not_found");
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const res = await call("/me", "admin", { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect((await res.json()).error).toBe("method_not_allowed");
    }
  });

  it("turns an unexpected failure into 500 internal_error without leaking it", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken: HandlerMap = {
      ...apiHandlers,
      me: async () => {
        throw new Error("secret detail at /srv/app/lib/x.ts:12");
      },
    };
    const res = await call("/me", "admin", {}, broken);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error).toBe("internal_error");
    expect(text).not.toContain("secret detail");
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });
});
