import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { endpoints, errorsOf, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { openApiDocument, openApiPath } from "./openapi";

type Obj = Record<string, unknown>;
const doc = openApiDocument("https://dash.example.test") as Obj & { paths: Record<string, Record<string, Obj>>; components: Obj; tags: Obj[] };

async function check(document: Obj) {
  // The validator dereferences in place; it gets its own copy.
  return validate(structuredClone(document) as never);
}

// The validator dereferences the whole document, a few seconds each time on a busy machine.
describe("the OpenAPI document", { timeout: 30_000 }, () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await check(doc);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.specification).toBe("OpenAPI");
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is refused by the validator when broken, so the check above means something", async () => {
    const broken = structuredClone(doc);
    const me = broken.paths["/me"]?.get as Obj;
    me.parameters = [{ name: "instance", in: "path", required: true, schema: { type: "string" } }];
    expect((await check(broken)).valid).toBe(false);
    const noInfo: Obj = { ...structuredClone(doc), info: undefined };
    expect((await check(noInfo)).valid).toBe(false);
  });

  it("has every registry endpoint: its parameters, success schema, example and every error with its status", () => {
    for (const e of endpoints as readonly EndpointDef[]) {
      const op = doc.paths[openApiPath(e.path)]?.get as Obj & { parameters: Obj[]; responses: Record<string, Obj> };
      expect(op, e.path).toBeDefined();
      expect(op.operationId).toBe(e.id);
      expect(op.security).toEqual([{ session: [] }]);
      const queryKeys = Object.keys((e.query as unknown as { shape: Obj }).shape);
      expect(op.parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(queryKeys);
      for (const [name, rule] of Object.entries(e.params ?? {})) {
        const param = op.parameters.find((p) => p.in === "path" && p.name === name);
        expect(param?.required).toBe(true);
        if (rule.values) expect((param?.schema as Obj).enum).toEqual(rule.values);
      }
      const ok = (op.responses["200"]?.content as Record<string, Obj>)["application/json"];
      expect(ok?.schema).toBeDefined();
      expect(e.response.safeParse(ok?.example).success, e.id).toBe(true);
      for (const code of errorsOf(e)) {
        const status = String(errorCatalogue[code].status);
        const media = (op.responses[status]?.content as Record<string, Obj>)["application/json"] as Obj & { schema: { allOf: Obj[] }; examples: Obj };
        expect(media?.examples, `${e.id} ${code}`).toHaveProperty(code);
        expect(JSON.stringify(media.schema.allOf)).toContain(`"${code}"`);
        expect(media.schema.allOf[0]).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
      }
    }
  });

  it("states query limits: limit 1 to 200, days 1 to 365, from and to as dates, owner required", () => {
    const params = (path: string) => (doc.paths[path]?.get as { parameters: Obj[] }).parameters;
    const limit = params("/crm/{instance}/companies").find((p) => p.name === "limit");
    expect(limit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200 });
    const book = params("/cx/book");
    expect(book.find((p) => p.name === "owner")).toMatchObject({ required: true });
    expect(book.find((p) => p.name === "days")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 365 });
    expect(book.find((p) => p.name === "from")?.schema).toMatchObject({ type: "string", format: "date" });
  });

  it("has the error envelope, the CX wrapper and the session security scheme", () => {
    const schemas = doc.components.schemas as Record<string, Obj>;
    expect(schemas.ErrorEnvelope).toMatchObject({ required: ["error"], properties: { error: { type: "string" }, hint: { type: "string" } } });
    expect(schemas.CxWaiting).toMatchObject({ required: ["ok", "waitingOn"] });
    for (const path of ["/cx/owners", "/cx/book", "/cx/districts"]) {
      const ok = ((doc.paths[path]?.get as { responses: Record<string, { content: Record<string, { schema: Obj }> }> }).responses["200"]?.content["application/json"]?.schema) as { anyOf: Obj[] };
      expect(ok.anyOf).toContainEqual({ $ref: "#/components/schemas/CxWaiting" });
    }
    expect((doc.components.securitySchemes as Obj).session).toMatchObject({ type: "apiKey", in: "cookie", name: "dd_session" });
  });

  it("keys each path once, however its operations name their path values", () => {
    const shapes = Object.keys(doc.paths).map((k) => k.replace(/\{[^}]+\}/g, "{}"));
    expect(new Set(shapes).size).toBe(shapes.length);
    for (const [key, item] of Object.entries(doc.paths)) {
      const inKey = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const method of ["get", "post"]) {
        const op = item[method] as { parameters: { name: string; in: string }[] } | undefined;
        if (op) expect(op.parameters.filter((p) => p.in === "path").map((p) => p.name).sort(), `${method} ${key}`).toEqual(inKey);
      }
    }
    // Reading and updating a draft share a path; each still says which value it takes.
    const draft = doc.paths["/dashboards/playground/draft/{read_id_or_write_token}"] as Record<string, { parameters: { name: string; description?: string }[] }>;
    expect(draft.post?.parameters[0]?.description).toContain("write token");
    expect(draft.get?.parameters[0]?.description).toContain("read id");
  });

  it("puts the playground and saving under their own tags, on the service's root", () => {
    const tagOf = (path: string, method: string) => ((doc.paths[path]?.[method] as Obj | undefined)?.tags as string[] | undefined)?.[0];
    expect(tagOf("/dashboards/playground/draft", "post")).toBe("Playground");
    expect(tagOf("/dashboards/playground/draft/{read_id_or_write_token}", "post")).toBe("Playground");
    expect(tagOf("/dashboards/playground/draft/{read_id_or_write_token}", "get")).toBe("Playground");
    expect(tagOf("/dashboards/playground/draft/{read_id}/events", "get")).toBe("Events");
    expect(tagOf("/~/{handle}/{slug}", "post")).toBe("Saving a dashboard");
    expect(doc.paths["/~/{handle}/{slug}"]?.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(doc.tags.map((t) => t.name)).toEqual(expect.arrayContaining(["Playground", "Events", "Saving a dashboard", "CRM"]));
    const save = doc.paths["/~/{handle}/{slug}"]?.post as Obj & { responses: Record<string, Obj>; requestBody: { content: Obj } };
    expect(Object.keys(save.responses).sort()).toEqual(["200", "201", "400", "401", "403", "405", "413", "415"]);
    expect(Object.keys(save.requestBody.content)).toEqual(["text/html"]);
    const create = doc.paths["/dashboards/playground/draft"]?.post as Obj & { responses: Record<string, Obj>; security: unknown };
    expect(create.security).toEqual([]);
    expect((create.responses["429"] as Obj).headers).toHaveProperty("Retry-After");
  });
});
