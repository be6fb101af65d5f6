import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cxWrapper } from "@/lib/contract/resources";
import { pageQuery, windowShape } from "@/lib/contract/query";
import { SchemaSet, fieldRows, queryParams, typeLabel } from "./json-schema";

const row = (rows: ReturnType<typeof fieldRows>, name: string) => {
  const found = rows.find((r) => r.name === name);
  if (!found) throw new Error(`no row ${name} in ${rows.map((r) => r.name).join(", ")}`);
  return found;
};

describe("SchemaSet", () => {
  it("moves named schemas to components and refers to them there", () => {
    const set = new SchemaSet();
    const item = z.object({ id: z.string() }).meta({ id: "DocsTestItem" });
    const out = set.add(z.object({ items: z.array(item) }));
    expect(JSON.stringify(out)).toContain('"$ref":"#/components/schemas/DocsTestItem"');
    expect(out).not.toHaveProperty("$schema");
    expect(set.components.DocsTestItem).toMatchObject({ type: "object", required: ["id"] });
  });

  it("refuses two different schemas under one name", () => {
    const set = new SchemaSet();
    set.define("Thing", { type: "string" });
    set.define("Thing", { type: "string" });
    expect(() => set.define("Thing", { type: "number" })).toThrow(/Two different schemas are named Thing/);
  });
});

describe("field rows", () => {
  const set = new SchemaSet();
  const schema = set.add(
    z.object({
      id: z.string().meta({ description: "The id" }),
      score: z.number().min(0).max(1).nullable().optional().meta({ description: "A share" }),
      tags: z.array(z.string()),
      counts: z.record(z.enum(["call", "email"]), z.number()),
      rows: z.array(z.object({ at: z.string(), note: z.string().nullable() })),
    }),
  );
  const rows = fieldRows(schema, set.components);

  it("lists every field, parents before children, with list items marked []", () => {
    expect(rows.map((r) => r.name)).toEqual(["id", "score", "tags", "counts", "rows", "rows[].at", "rows[].note"]);
  });

  it("says whether each field is nullable and required, with its type, notes and limits", () => {
    expect(row(rows, "id")).toEqual({ name: "id", type: "string", nullable: false, required: true, notes: "The id." });
    expect(row(rows, "score")).toEqual({ name: "score", type: "number", nullable: true, required: false, notes: "A share. 0 to 1." });
    expect(row(rows, "tags").type).toBe("array of string");
    expect(row(rows, "counts").type).toBe('object: "call" | "email" → number');
    expect(row(rows, "rows[].note")).toMatchObject({ nullable: true, required: true });
  });

  it("reads the CX wrapper as one table, saying which fields come with which answer", () => {
    const cx = set.add(cxWrapper(z.object({ owners: z.array(z.object({ ownerId: z.string() })) })));
    const cxRows = fieldRows(cx, set.components);
    expect(row(cxRows, "ok")).toMatchObject({ type: "boolean", required: true });
    expect(row(cxRows, "data").notes).toBe("Only when `ok` is true.");
    expect(row(cxRows, "data.owners[].ownerId").notes).toBe("");
    expect(row(cxRows, "waitingOn").notes).toBe("Render this text, not zeroes. Only when `ok` is false.");
  });

  it("labels unions, enums and nullable references", () => {
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] }, {})).toBe("string | null");
    expect(typeLabel({ type: "string", enum: ["real", "activity"] }, {})).toBe('"real" | "activity"');
    expect(typeLabel({ $ref: "#/components/schemas/X" }, { X: { type: ["number", "null"] } })).toBe("number | null");
  });
});

describe("query parameters", () => {
  it("document what a parameter means: limit is an integer from 1 to 200, dates are dates", () => {
    const set = new SchemaSet();
    const [limit, cursor] = queryParams(pageQuery, set);
    expect(limit).toMatchObject({ name: "limit", type: "integer", required: false, limits: "1 to 200" });
    expect(cursor).toMatchObject({ name: "cursor", type: "string", limits: "1 to 512 characters" });
    const window = queryParams(z.object({ owner: z.string().min(1), ...windowShape }), set);
    expect(window.map((p) => [p.name, p.type, p.required])).toEqual([
      ["owner", "string", true],
      ["days", "integer", false],
      ["from", "string (date)", false],
      ["to", "string (date)", false],
    ]);
  });

  it("falls back to the accepted strings where the parsed form has no JSON Schema", () => {
    const set = new SchemaSet();
    const [flag] = queryParams(z.object({ flag: z.enum(["true", "false"]).transform((v) => v === "true").optional() }), set);
    expect(flag?.type).toBe('"true" | "false"');
  });
});
