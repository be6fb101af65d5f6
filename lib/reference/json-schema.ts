import { z } from "zod";
import type { FieldRow, JsonSchema, ParamDoc } from "./types";

// JSON Schema from the zod contract, and the readable forms the reference shows: field tables,
// type labels and parameter rows. Named schemas (a zod `meta({ id })`) become shared components
// referred to as `#/components/schemas/<id>`, which is where OpenAPI keeps them.

export const COMPONENTS_PREFIX = "#/components/schemas/";

function isObj(v: unknown): v is JsonSchema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function mapRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mapRefs);
  if (!isObj(value)) return value;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? COMPONENTS_PREFIX + v.slice("#/$defs/".length) : mapRefs(v);
  }
  return out;
}

/** Collects the named schemas of every conversion, so each is defined once. */
export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  /** The JSON Schema of a zod schema, its named parts moved to the components. */
  add(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
    const raw = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = raw;
    if (isObj($defs)) {
      for (const [name, def] of Object.entries($defs)) this.define(name, mapRefs(def) as JsonSchema);
    }
    return mapRefs(root) as JsonSchema;
  }

  /** Adds a named component; the same name twice must mean the same schema. */
  define(name: string, schema: JsonSchema): void {
    const existing = this.components[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`Two different schemas are named ${name}`);
    }
    this.components[name] = schema;
  }
}

// ── Reading schemas ───────────────────────────────────────────────────────────────────────

type Components = Readonly<Record<string, JsonSchema>>;

/** Follows `$ref`s; keywords beside a reference (its description) win over the target's. */
function resolve(s: JsonSchema, components: Components): JsonSchema {
  let current = s;
  const seen = new Set<string>();
  while (typeof current.$ref === "string") {
    const ref = current.$ref;
    if (!ref.startsWith(COMPONENTS_PREFIX) || seen.has(ref)) break;
    seen.add(ref);
    const target = components[ref.slice(COMPONENTS_PREFIX.length)];
    if (!target) throw new Error(`Unknown schema ${ref}`);
    const { $ref: _ref, ...beside } = current;
    current = { ...target, ...beside };
  }
  return current;
}

/** Splits `null` out of a schema: what remains, and whether null is allowed. */
function splitNull(s: JsonSchema, components: Components): { base: JsonSchema; nullable: boolean } {
  const r = resolve(s, components);
  if (Array.isArray(r.type) && r.type.includes("null")) {
    const rest = r.type.filter((t) => t !== "null");
    return { base: { ...r, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const union = Array.isArray(r.anyOf) ? r.anyOf : Array.isArray(r.oneOf) ? r.oneOf : undefined;
  if (union) {
    const branches = (union as JsonSchema[]).map((b) => resolve(b, components));
    const nonNull = branches.filter((b) => b.type !== "null");
    const nullable = nonNull.length < branches.length;
    const { anyOf: _a, oneOf: _o, ...rest } = r;
    if (nonNull.length === 1 && nonNull[0]) return { base: { ...nonNull[0], ...rest }, nullable };
    return { base: { ...rest, anyOf: nonNull }, nullable };
  }
  return { base: r, nullable: false };
}

const literal = (v: unknown) => JSON.stringify(v);

/** A short type label: `string`, `integer`, `"ok" | "failed"`, `array of object`. */
export function typeLabel(s: JsonSchema, components: Components): string {
  const { base, nullable } = splitNull(s, components);
  const label = baseLabel(base, components);
  return nullable ? `${label} | null` : label;
}

function baseLabel(s: JsonSchema, components: Components): string {
  if (Array.isArray(s.anyOf)) {
    const labels = [...new Set((s.anyOf as JsonSchema[]).map((b) => typeLabel(b, components)))];
    return labels.join(" | ");
  }
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(" | ");
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.type)) return s.type.join(" | ");
  switch (s.type) {
    case "array": {
      const items = isObj(s.items) ? typeLabel(s.items, components) : "any";
      return `array of ${items.includes("|") ? `(${items})` : items}`;
    }
    case "object": {
      if (isObj(s.properties) && Object.keys(s.properties).length > 0) return "object";
      if (isObj(s.additionalProperties)) {
        const keys = isObj(s.propertyNames) ? typeLabel(s.propertyNames, components) : "string";
        return `object: ${keys} → ${typeLabel(s.additionalProperties, components)}`;
      }
      return "object";
    }
    case "string":
      return typeof s.format === "string" ? `string (${s.format})` : "string";
    case undefined:
      return "any";
    default:
      return String(s.type);
  }
}

/** Ranges, lengths and patterns, in words. */
export function limitsOf(s: JsonSchema, components: Components): string {
  const { base } = splitNull(s, components);
  const out: string[] = [];
  // zod gives every integer the safe-integer range; that says nothing to a reader.
  const bound = (v: unknown) => (typeof v === "number" && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
  const range = (lo: unknown, hi: unknown, unit: string) => {
    if (typeof lo === "number" && typeof hi === "number") out.push(`${lo} to ${hi}${unit}`);
    else if (typeof lo === "number") out.push(`at least ${lo}${unit}`);
    else if (typeof hi === "number") out.push(`at most ${hi}${unit}`);
  };
  range(bound(base.minimum), bound(base.maximum), "");
  range(base.minLength, base.maxLength, " characters");
  range(base.minItems, base.maxItems, " items");
  if (typeof base.pattern === "string") out.push(`pattern \`${base.pattern}\``);
  return out.join("; ");
}

function describe(s: JsonSchema): string {
  return typeof s.description === "string" ? s.description : "";
}

/** Joins note parts as sentences, leaving out a limit the description already states. */
export function sentences(...parts: string[]): string {
  const kept: string[] = [];
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    if (kept.some((k) => k.includes(part))) continue;
    kept.push(/[.!?]$/.test(part) ? part : `${part}.`);
  }
  return kept.join(" ");
}

// ── Field tables ──────────────────────────────────────────────────────────────────────────

interface Row extends FieldRow {
  /** Set while merging union branches: the branches the row occurs in. */
  branches?: Set<number>;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

function add(rows: Map<string, Row>, row: Row): void {
  const existing = rows.get(row.name);
  if (!existing) {
    rows.set(row.name, row);
    return;
  }
  const types = new Set([...existing.type.split(" | "), ...row.type.split(" | ")]);
  if (types.has("true") && types.has("false")) {
    types.delete("true");
    types.delete("false");
    types.add("boolean");
  }
  existing.type = [...types].join(" | ");
  existing.nullable ||= row.nullable;
  existing.required &&= row.required;
  if (row.notes && !existing.notes.includes(row.notes)) existing.notes = sentences(existing.notes, row.notes);
}

function walk(s: JsonSchema, name: string, required: boolean, components: Components, rows: Map<string, Row>, depth: number): void {
  if (depth > 12) return;
  const resolved = resolve(s, components);
  const { base, nullable } = splitNull(resolved, components);
  if (name) {
    const notes = sentences(describe(resolved) || describe(base), limitsOf(base, components));
    add(rows, { name, type: baseLabel(base, components), nullable, required, notes });
  }
  children(base, name, components, rows, depth);
}

function children(base: JsonSchema, name: string, components: Components, rows: Map<string, Row>, depth: number): void {
  if (Array.isArray(base.anyOf)) {
    unionChildren(base.anyOf as JsonSchema[], name, components, rows, depth);
    return;
  }
  if (base.type === "object" && isObj(base.properties)) {
    const req = new Set(Array.isArray(base.required) ? (base.required as string[]) : []);
    for (const [key, prop] of Object.entries(base.properties)) {
      if (isObj(prop)) walk(prop, join(name, key), req.has(key), components, rows, depth + 1);
    }
    return;
  }
  if (base.type === "array" && isObj(base.items)) {
    const { base: item } = splitNull(base.items, components);
    children(item, `${name}[]`, components, rows, depth + 1);
  }
}

/**
 * Union branches (the CX wrapper's two shapes) share one table: a field found in every branch
 * is listed once, and one found in some branches says when it is there, by the branch's
 * constant field (`when ok is true`).
 */
function unionChildren(branches: JsonSchema[], name: string, components: Components, rows: Map<string, Row>, depth: number): void {
  const perBranch = branches.map((b) => {
    const local = new Map<string, Row>();
    const { base } = splitNull(b, components);
    children(base, name, components, local, depth + 1);
    return { base, local };
  });
  const order: string[] = [];
  const merged = new Map<string, Row>();
  perBranch.forEach(({ local }, i) => {
    for (const row of local.values()) {
      if (!merged.has(row.name)) order.push(row.name);
      add(merged, { ...row });
      const m = merged.get(row.name);
      if (m) (m.branches ??= new Set()).add(i);
    }
  });
  const whenOf = (i: number): string => {
    const props = perBranch[i]?.base.properties;
    if (!isObj(props)) return "";
    for (const [key, p] of Object.entries(props)) {
      if (isObj(p) && "const" in p) return `Only when \`${key}\` is ${literal(p.const)}.`;
    }
    return "";
  };
  const partial = new Set<string>();
  for (const key of order) {
    const row = merged.get(key);
    if (!row) continue;
    const inAll = (row.branches?.size ?? 0) === branches.length;
    const { branches: seenIn, ...plain } = row;
    if (!inAll) {
      // A field of a branch-only parent is only there when its parent is; say it once.
      const parentPartial = [...partial].some((p) => key.startsWith(`${p}.`) || key.startsWith(`${p}[]`));
      partial.add(key);
      const when = parentPartial ? "" : [...(seenIn ?? [])].map(whenOf).filter(Boolean).join(" ");
      if (when) plain.notes = sentences(plain.notes, when);
    }
    add(rows, plain);
  }
}

/** Every field of a body, parent before children, as dotted paths (`[]` marks list items). */
export function fieldRows(schema: JsonSchema, components: Components): FieldRow[] {
  const rows = new Map<string, Row>();
  walk(schema, "", true, components, rows, 0);
  return [...rows.values()].map(({ branches: _b, ...row }) => row);
}

// ── Parameters ────────────────────────────────────────────────────────────────────────────

/**
 * Query parameters arrive as strings; where the contract parses one into a number, the
 * documented type is what it means (`integer`, 1 to 200), which is how OpenAPI describes a
 * query parameter. Where the parsed form has no JSON Schema (a boolean read from "true"), the
 * accepted strings are documented instead.
 */
export function queryParams(query: z.ZodType, set: SchemaSet): ParamDoc[] {
  const input = set.add(query, "input");
  const output = set.add(query, "output");
  const inProps = isObj(input.properties) ? input.properties : {};
  const outProps = isObj(output.properties) ? output.properties : {};
  const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
  return Object.entries(inProps).map(([name, inSchema]) => {
    const out = outProps[name];
    const schema = (isObj(out) && out.type !== undefined ? out : inSchema) as JsonSchema;
    return {
      name,
      in: "query" as const,
      type: typeLabel(schema, set.components),
      required: required.has(name),
      limits: limitsOf(schema, set.components),
      notes: describe(schema),
      schema,
    };
  });
}
