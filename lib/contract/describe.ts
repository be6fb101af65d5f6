import { z } from "zod";

// Compact, TypeScript-like renderings of the contract's schemas, for readers who want the
// shape at a glance (llms.txt, the API reference). Generated from the zod schemas themselves.

type Json = { [k: string]: unknown };

function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function render(s: unknown, depth: number, defs: Json): string {
  if (!isObj(s)) return "unknown";
  // A schema the contract names (meta id) is written once under $defs and referred to by $ref.
  if (typeof s.$ref === "string" && s.$ref.startsWith("#/$defs/")) {
    return depth > 6 ? "{ … }" : render(defs[s.$ref.slice("#/$defs/".length)], depth, defs);
  }
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const parts = ((s.anyOf ?? s.oneOf) as unknown[]).map((x) => render(x, depth, defs));
    return [...new Set(parts)].join(" | ");
  }
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => render({ ...s, type: t }, depth, defs)).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `${wrap(render(s.items, depth, defs))}[]`;
    case "object": {
      const props = isObj(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const keys = Object.keys(props);
      if (keys.length === 0) {
        return isObj(s.additionalProperties) ? `{ [key: string]: ${render(s.additionalProperties, depth, defs)} }` : "{}";
      }
      if (depth > 6) return "{ … }";
      const pad = "  ".repeat(depth + 1);
      const lines = keys.map((k) => `${pad}${k}${required.has(k) ? "" : "?"}: ${render(props[k], depth + 1, defs)}`);
      return `{\n${lines.join(";\n")};\n${"  ".repeat(depth)}}`;
    }
    default:
      return "unknown";
  }
}

function wrap(t: string): string {
  return t.includes("|") ? `(${t})` : t;
}

/** The shape of a schema's output (what a client receives), e.g. `{ id: string; arr?: number | null }`. */
export function describeShape(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });
  return render(json, 0, isObj(json.$defs) ? json.$defs : {});
}
