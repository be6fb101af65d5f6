import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeShape, renderJsonSchema } from "./describe";
import { endpointById, endpoints } from "./endpoints";
import { draftCreated, draftInput } from "./playground";
import { cxBookRow } from "./resources";

describe("describeShape", () => {
  it("renders optional, nullable, arrays, enums and nested objects", () => {
    const s = z.object({ id: z.string(), arr: z.number().nullable().optional(), tags: z.array(z.enum(["a", "b"])), owner: z.object({ n: z.number() }) });
    expect(describeShape(s)).toBe('{\n  id: string;\n  arr?: number | null;\n  tags: ("a" | "b")[];\n  owner: {\n    n: number;\n  };\n}');
  });

  it("renders named schemas (written once under $defs) by their fields, at the root and nested", () => {
    const item = z.object({ n: z.number() }).meta({ id: "DescribeItem" });
    const named = z.object({ id: z.string(), items: z.array(item), first: item.nullable() }).meta({ id: "DescribeNamed" });
    expect(describeShape(named)).toBe("{\n  id: string;\n  items: {\n    n: number;\n  }[];\n  first: {\n    n: number;\n  } | null;\n}");
    expect(describeShape(endpointById("me").response)).toContain("email: string");
  });

  it("renders the CX wrapper's two forms", () => {
    const text = describeShape(endpointById("cx.owners").response);
    expect(text).toContain("ok: true");
    expect(text).toContain("ok: false");
    expect(text).toContain("waitingOn: string; // Render this text, not zeroes");
  });

  it("follows named schemas (meta id → $ref into $defs), at the root and inside lists", () => {
    const named = z.object({ when: z.string().meta({ description: "ISO date" }) }).meta({ id: "DescribeTestNamed" });
    const s = z.object({ one: named, many: z.array(named), maybe: named.nullable().optional() }).meta({ id: "DescribeTestRoot" });
    expect(JSON.stringify(z.toJSONSchema(s))).toContain('"$ref":"#/$defs/DescribeTestRoot"');
    expect(describeShape(s)).toBe(
      [
        "{",
        "  one: {",
        "    when: string; // ISO date",
        "  };",
        "  many: {",
        "    when: string; // ISO date",
        "  }[];",
        "  maybe?: {",
        "    when: string; // ISO date",
        "  } | null;",
        "}",
      ].join("\n"),
    );
  });

  it("puts field descriptions after the field, on its first line", () => {
    const text = describeShape(draftCreated);
    expect(text).toContain("  postUrl: string; // Carries the secret write token: keep it; never show it to the human\n");
    expect(text).toContain('    severity: "error" | "warning" | "info";\n');
    const row = describeShape(cxBookRow);
    expect(row).toContain("  health?: { // Null when no health source is wired.\n");
    expect(row).toContain('    byKind: Record<"call" | "meeting" | "email", number>; // Counts within the window\n');
    expect(row).toContain("  } | null;\n");
  });

  it("renders records, partial records, tuples, literals and unions of lists", () => {
    const s = z.object({
      byPath: z.record(z.string(), z.string()),
      some: z.partialRecord(z.enum(["x", "y"]), z.number()),
      pair: z.tuple([z.string(), z.number()]),
      flag: z.literal(true),
      mixed: z.array(z.union([z.string(), z.number()])),
      "odd-key": z.boolean(),
    });
    expect(describeShape(s)).toBe(
      [
        "{",
        "  byPath: Record<string, string>;",
        '  some: Partial<Record<"x" | "y", number>>;',
        "  pair: [string, number];",
        "  flag: true;",
        "  mixed: (string | number)[];",
        '  "odd-key": boolean;',
        "}",
      ].join("\n"),
    );
  });

  it("reads input shapes when asked: what the server accepts", () => {
    const text = describeShape(draftInput, "input");
    expect(text).toMatch(/^ {2}html: string;/m);
    expect(text).toMatch(/^ {2}dataMode\?: "demo" \| "live";/m);
    expect(text).toMatch(/^ {2}examples\?: Record<string, string>;/m);
  });

  it("prints unknown only where the contract admits anything", () => {
    expect(describeShape(z.object({ any: z.unknown(), data: z.record(z.string(), z.unknown()) }))).toBe("{\n  any: unknown;\n  data: Record<string, unknown>;\n}");
    // The contract's responses admit nothing unknown; a description may still say the word.
    for (const e of endpoints) expect(describeShape(e.response).replace(/ \/\/ .*$/gm, ""), e.path).not.toMatch(/\bunknown\b/);
  });

  it("names a schema that contains itself instead of expanding it forever", () => {
    const text = renderJsonSchema({
      $ref: "#/$defs/Node",
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["children"] } },
    });
    expect(text).toBe("{\n  children: Node[];\n}");
  });

  it("refuses a reference it cannot follow rather than printing unknown", () => {
    expect(() => renderJsonSchema({ type: "object", properties: { a: { $ref: "#/$defs/Missing" } } })).toThrow(/cannot follow #\/\$defs\/Missing/);
    expect(() => renderJsonSchema({ $ref: "https://example.test/schema.json" })).toThrow(/cannot follow/);
  });
});
