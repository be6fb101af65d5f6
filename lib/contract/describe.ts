import { z } from "zod";

// Compact, TypeScript-like renderings of the contract's schemas, for readers who want the
// shape at a glance (llms.txt). Generated from the zod schemas themselves, through their JSON
// Schema: every named schema (`meta({ id })`) arrives as a `$ref` into `$defs`, so references are
// followed here, and one the renderer cannot follow is an error rather than a silent `unknown`.
// `unknown` is printed only where the contract itself admits anything (`z.unknown()`).

type Json = { [k: string]: unknown };

function isObj(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const REF_PREFIXES = ["#/$defs/", "#/definitions/"];

interface Ctx {
  defs: Json;
  /** Named schemas being expanded: a schema that contains itself is printed by name inside. */
  open: readonly string[];
}

/** A rendering, and whether it is a union at its top (so `[]` needs parentheses). */
interface Out {
  text: string;
  union: boolean;
}

const plain = (text: string): Out => ({ text, union: false });

/** Follows `$ref`s; keywords beside a reference (its description) win over the target's. */
function resolve(s: Json, ctx: Ctx): { schema: Json; ctx: Ctx; recursive?: string } {
  let current = s;
  let open = ctx.open;
  while (typeof current.$ref === "string") {
    const ref = current.$ref;
    const prefix = REF_PREFIXES.find((p) => ref.startsWith(p));
    const name = prefix ? decodeURIComponent(ref.slice(prefix.length)) : undefined;
    const target = name !== undefined ? ctx.defs[name] : undefined;
    if (name === undefined || !isObj(target)) throw new Error(`describeShape cannot follow ${ref}`);
    if (open.includes(name)) return { schema: current, ctx, recursive: name };
    const { $ref: _ref, ...beside } = current;
    current = { ...target, ...beside };
    open = [...open, name];
  }
  return { schema: current, ctx: { ...ctx, open } };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

/** A description as one trailing comment line. */
function comment(s: Json): string {
  return typeof s.description === "string" && s.description.trim() ? ` // ${s.description.replace(/\s+/g, " ").trim()}` : "";
}

function union(parts: Out[]): Out {
  const texts = [...new Set(parts.map((p) => p.text))];
  return texts.length === 1 ? { text: texts[0] ?? "never", union: parts[0]?.union ?? false } : { text: texts.join(" | "), union: true };
}

const list = (item: Out): string => `${item.union ? `(${item.text})` : item.text}[]`;

function render(raw: unknown, depth: number, ctx0: Ctx): Out {
  if (raw === true || (isObj(raw) && Object.keys(raw).length === 0)) return plain("unknown");
  if (raw === false) return plain("never");
  if (!isObj(raw)) throw new Error(`describeShape cannot render ${JSON.stringify(raw)}`);
  const { schema: s, ctx, recursive } = resolve(raw, ctx0);
  if (recursive) return plain(recursive);

  const alternatives = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (alternatives) return union(alternatives.map((a) => render(a, depth, ctx)));
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((a) => render(a, depth, ctx));
    return plain(parts.map((p) => (p.union ? `(${p.text})` : p.text)).join(" & "));
  }
  if (Array.isArray(s.enum)) return union(s.enum.map((v) => plain(JSON.stringify(v))));
  if ("const" in s) return plain(JSON.stringify(s.const));

  if (Array.isArray(s.type)) return union(s.type.map((t) => render({ ...s, type: t }, depth, ctx)));
  switch (s.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
    case "null":
      return plain(s.type);
    case "array":
      if (Array.isArray(s.prefixItems)) return plain(`[${s.prefixItems.map((i) => render(i, depth, ctx).text).join(", ")}]`);
      return plain(list(s.items === undefined ? plain("unknown") : render(s.items, depth, ctx)));
    case "object":
      return plain(objectShape(s, depth, ctx));
    case undefined:
      // Keywords without a type (a description, a default) still admit anything.
      return plain("unknown");
    default:
      throw new Error(`describeShape cannot render type ${JSON.stringify(s.type)}`);
  }
}

function objectShape(s: Json, depth: number, ctx: Ctx): string {
  const props = isObj(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const extra = s.additionalProperties;
  const keys = Object.keys(props);
  if (keys.length === 0) {
    if (extra === false) return "{}";
    const value = isObj(extra) ? render(extra, depth, ctx).text : "unknown";
    const names = isObj(s.propertyNames) ? resolve(s.propertyNames, ctx).schema : undefined;
    if (names && Array.isArray(names.enum)) {
      const all = names.enum.every((n) => typeof n === "string" && required.has(n));
      const record = `Record<${names.enum.map((n) => JSON.stringify(n)).join(" | ")}, ${value}>`;
      return all ? record : `Partial<${record}>`;
    }
    return `Record<string, ${value}>`;
  }
  if (depth > 12) return "{ … }";
  const pad = "  ".repeat(depth + 1);
  const lines = keys.map((k) => {
    const prop = props[k];
    const shown = isObj(prop) ? resolve(prop, ctx).schema : {};
    const [first = "", ...rest] = render(prop, depth + 1, ctx).text.split("\n");
    const head = `${pad}${key(k)}${required.has(k) ? "" : "?"}: ${first}`;
    return rest.length ? `${head}${comment(shown)}\n${rest.join("\n")};` : `${head};${comment(shown)}`;
  });
  if (isObj(extra)) lines.push(`${pad}[key: string]: ${render(extra, depth + 1, ctx).text};`);
  return `{\n${lines.join("\n")}\n${"  ".repeat(depth)}}`;
}

/** Renders a JSON Schema (with its `$defs`) as a TypeScript-like declaration. */
export function renderJsonSchema(schema: unknown): string {
  const defs = isObj(schema) && isObj(schema.$defs) ? schema.$defs : {};
  const ctx: Ctx = { defs, open: [] };
  const text = render(schema, 0, ctx).text;
  const root = isObj(schema) ? resolve(schema, ctx).schema : {};
  const lead = comment(root).trim();
  return lead ? `${lead}\n${text}` : text;
}

/**
 * The shape of a schema: `output` (default) is what a client receives, `input` what a server
 * accepts, e.g. `{ id: string; arr?: number | null; // Annual recurring revenue }`.
 */
export function describeShape(schema: z.ZodType, io: "input" | "output" = "output"): string {
  return renderJsonSchema(z.toJSONSchema(schema, { io, unrepresentable: "any" }));
}
