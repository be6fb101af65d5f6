import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoints, errorsOf, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { scenariosBody } from "@/lib/demo-api/answers";
import { endpointsBody } from "@/lib/demo-api/endpoints-doc";
import { endpointsBodySchema, scenariosBodySchema } from "@/lib/contract/playground-bodies";
import { EXAMPLE_LIST_ITEMS } from "./examples";
import { allOperations, docsModel, sectionOf } from "./model";
import { docsSections, type SectionSlug } from "./sections";
import type { OperationDoc } from "./types";

const model = docsModel();
const ops = allOperations(model);

function opFor(e: EndpointDef): OperationDoc {
  const found = ops.find((o) => o.registryId === e.id);
  if (!found) throw new Error(`no operation for ${e.id}`);
  return found;
}

/** Every property name anywhere in a schema, read straight from zod's JSON Schema. */
function propertyNames(schema: z.ZodType): Set<string> {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  const names = new Set<string>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.properties === "object" && o.properties !== null) for (const k of Object.keys(o.properties)) names.add(k);
    Object.values(o).forEach(visit);
  };
  visit(json);
  return names;
}

describe("the docs model", () => {
  it("has the sections in reading order, conventions first", () => {
    expect(model.sections.map((s) => s.slug)).toEqual(docsSections.map((s) => s.slug));
    expect(model.sections[0]?.slug).toBe("conventions");
    expect(sectionOf(model, "conventions").operations).toEqual([]);
  });

  it("has one operation per registry endpoint, with unique anchors and operation ids", () => {
    for (const e of endpoints) expect(opFor(e)).toMatchObject({ method: "GET", path: e.path, base: "api", operationId: e.id });
    expect(new Set(ops.map((o) => o.anchor)).size).toBe(ops.length);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    expect(opFor(endpoints.find((e) => e.id === "crm.companies")!).anchor).toBe("get-crm-instance-companies");
  });

  it("documents every path value, query parameter, error and field of every endpoint", () => {
    for (const e of endpoints as readonly EndpointDef[]) {
      const op = opFor(e);
      const pathParams = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect(op.params.filter((p) => p.in === "path").map((p) => p.name)).toEqual(pathParams);
      const queryKeys = Object.keys((e.query as unknown as z.ZodObject).shape);
      expect(op.params.filter((p) => p.in === "query").map((p) => p.name), e.id).toEqual(queryKeys);
      expect(op.errors.map((x) => x.code).sort(), e.id).toEqual([...errorsOf(e)].sort());
      for (const err of op.errors) expect(err.status).toBe(errorCatalogue[err.code].status);
      const documented = new Set(op.responses[0]?.fields.map((f) => f.name.split(".").at(-1)?.replace("[]", "")));
      for (const name of propertyNames(e.response)) expect(documented.has(name), `${e.id}: field ${name}`).toBe(true);
    }
  });

  it("gives every endpoint an example from the demo data that parses with its success schema", () => {
    for (const e of endpoints as readonly EndpointDef[]) {
      const example = opFor(e).example;
      expect(example?.status, e.id).toBe(200);
      const parsed = e.response.safeParse(example?.body);
      expect(parsed.success, `${e.id}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("pages the paged examples for real and cuts long lists for the page", () => {
    const companies = opFor(endpoints.find((e) => e.id === "crm.companies")!).example;
    expect(companies?.request).toBe(`/crm/customers/companies?limit=${EXAMPLE_LIST_ITEMS}`);
    expect((companies?.body as { companies: unknown[]; nextCursor: string | null }).nextCursor).toEqual(expect.any(String));
    const contacts = opFor(endpoints.find((e) => e.id === "vendors.crmportal.contacts")!).example;
    expect(contacts?.shortened).toBe(true);
    expect((contacts?.body as { contacts: unknown[] }).contacts).toHaveLength(EXAMPLE_LIST_ITEMS);
    const me = opFor(endpoints.find((e) => e.id === "me")!).example;
    expect(me?.shortened).toBe(false);
    expect((me?.body as { permissions: string[] }).permissions.length).toBeGreaterThan(EXAMPLE_LIST_ITEMS);
    const book = opFor(endpoints.find((e) => e.id === "cx.book")!).example;
    expect(book?.request).toMatch(/^\/cx\/book\?owner=\w+$/);
    expect(book?.body).toMatchObject({ ok: true, data: { basis: "real" } });
  });

  it("documents every error the playground's routes answer", () => {
    const sources = ["playground/service.ts", "playground/stages.ts", "drafts/drafts.ts", "demo-api/answers.ts", "drafts/reports.ts", "drafts/renders.ts"].map((f) => fs.readFileSync(path.join(import.meta.dirname, "..", f), "utf8"));
    const thrown = new Set(sources.flatMap((s) => [...s.matchAll(/ApiError\("([a-z_]+)"/g)].map((m) => m[1])));
    thrown.add("no_such_draft");
    const documented = new Set(["playground", "demo-api", "renders", "events"].flatMap((s) => sectionOf(model, s as SectionSlug).operations).flatMap((o) => o.errors.map((e) => e.code)));
    // The demo API also answers each endpoint's own errors, which the endpoints document.
    const apiErrors = new Set(endpoints.flatMap((e) => errorsOf(e)));
    for (const code of thrown) expect(documented.has(code as never) || apiErrors.has(code as never), code).toBe(true);
    expect(thrown.size).toBeGreaterThan(8);
  });

  it("describes the playground's scenarios and endpoints answers as they are", () => {
    expect(scenariosBodySchema.strict().safeParse(scenariosBody()).success).toBe(true);
    const parsed = endpointsBodySchema.safeParse(endpointsBody());
    expect(parsed.success, parsed.error?.message).toBe(true);
  });

  it("documents saving as decisions.md fixes it, without a curl line", () => {
    const saving = sectionOf(model, "saving").operations;
    const save = saving.find((o) => o.method === "POST");
    expect(save?.path).toBe("/~/:handle/:slug");
    expect(save?.requestBodies.map((b) => b.contentType)).toEqual(["text/html"]);
    expect(save?.responses.map((r) => r.status)).toEqual([201, 200]);
    expect(save?.responses[0]?.fields.map((f) => f.name)).toEqual(["path", "revision", "savedAt"]);
    expect(save?.errors.map((e) => [e.status, e.code])).toEqual(
      expect.arrayContaining([
        [400, "invalid_slug"],
        [400, "empty_dashboard"],
        [400, "invalid_dashboard"],
        [400, "dashboard_uses_webrtc"],
        [401, "unauthorized"],
        [403, "forbidden"],
        [405, "method_not_allowed"],
        [413, "payload_too_large"],
        [415, "unsupported_media_type"],
      ]),
    );
    expect(save?.errors).toHaveLength(9);
    expect(save?.curl).toBe(false);
    expect(saving.map((o) => `${o.method} ${o.path}`)).toEqual(["POST /~/:handle/:slug", "GET /~/:handle/:slug", "GET /~/:handle", "POST /account/favourites", "POST /account/home", "POST /account/trust", "POST /account/snapshots", "GET /snapshots/:token", "GET /snapshots/:token/picture.png"]);
  });

  it("names a draft's path value by what it is: read_id where it reads, write_token where it writes", () => {
    const drafts = ops.filter((o) => o.path.startsWith("/dashboards/playground/draft/"));
    expect(drafts.map((o) => `${o.method} ${o.path}`)).toEqual([
      "POST /dashboards/playground/draft/:write_token",
      "GET /dashboards/playground/draft/:read_id",
      "GET /dashboards/playground/draft/:read_id/revisions",
      "GET /dashboards/playground/draft/:read_id/drawn",
      "GET /dashboards/playground/draft/:read_id/reports",
      "POST /dashboards/playground/draft/:read_id/reports",
      "POST /dashboards/playground/draft/:read_id/render",
      "GET /dashboards/playground/draft/:read_id/render/:file",
      "GET /dashboards/playground/draft/:read_id/events",
    ]);
    for (const o of drafts) {
      const named = o.params.filter((p) => p.in === "path").map((p) => p.name);
      // Only an update writes; a render report is sent with the read id, like the page that renders it.
      expect(named[0], o.path).toEqual(o.operationId === "playground.updateDraft" ? "write_token" : "read_id");
    }
  });
});
