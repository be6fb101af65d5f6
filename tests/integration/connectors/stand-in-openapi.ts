import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// A vendor's published OpenAPI 3.0 description as the judge of a stand-in's answers: each answer
// is checked against the schema the vendor documents for that operation and status, with the
// description's own components, so a field the vendor requires and a stand-in leaves out fails.
//
// OpenAPI 3.0 is not JSON Schema: `nullable: true` beside a type (or a $ref) means "or null",
// which is translated here before Ajv sees it. A $ref the description names but never defines
// (Intercom 2.11's `custom_attributes`) accepts any value; the key that holds it is still required.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value a JSON pointer names in `doc`, or undefined. */
function at(doc: Json, pointer: string): Json | undefined {
  let here: Json | undefined = doc;
  for (const raw of pointer.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    here = isObject(here) ? here[key] : Array.isArray(here) ? here[Number(key)] : undefined;
    if (here === undefined) return undefined;
  }
  return here;
}

/** OpenAPI 3.0's schema dialect in JSON Schema's words; every object of the document is visited. */
function translate(node: Json, doc: Json): Json {
  if (Array.isArray(node)) return node.map((n) => translate(n, doc));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = translate(v, doc);
  if (typeof out.$ref === "string" && out.$ref.startsWith("#/") && at(doc, out.$ref) === undefined) {
    delete out.$ref;
  }
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (typeof out.type === "string" && out.$ref === undefined) {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export interface Conformance {
  ok: boolean;
  /** Where and why the answer departs from the description, one line each. */
  errors: string[];
}

export class OpenApiDescription {
  private readonly ajv: Ajv;
  private readonly doc: Json;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(
    document: unknown,
    private readonly id: string,
  ) {
    this.doc = document as Json;
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, unicodeRegExp: false });
    addFormats(this.ajv);
    // OpenAPI's numeric and descriptive formats constrain nothing JSON Schema checks.
    for (const f of ["int32", "int64", "float", "double", "timestamp", "binary", "byte", "password", "repo.nwo", "ssh-key", "ssh-key fingerprint", "ipv4/ipv6"]) {
      this.ajv.addFormat(f, true);
    }
    const translated = translate(this.doc, this.doc);
    if (!isObject(translated)) throw new Error(`${id}: the description is not an object`);
    this.ajv.addSchema({ ...translated, $id: id }, id);
  }

  /** The response object an operation documents for a status (or its `default`), $refs followed. */
  response(method: string, path: string, status: number): JsonObject | null {
    const op = at(this.doc, `#/paths/${escapePointer(path)}/${method.toLowerCase()}`);
    if (!isObject(op) || !isObject(op.responses)) throw new Error(`${this.id}: no operation ${method} ${path}`);
    let r = op.responses[String(status)] ?? op.responses.default;
    for (let hops = 0; isObject(r) && typeof r.$ref === "string" && hops < 5; hops++) r = at(this.doc, r.$ref);
    return isObject(r) ? r : null;
  }

  /** Whether the operation documents this status at all. */
  documents(method: string, path: string, status: number): boolean {
    return this.response(method, path, status) !== null;
  }

  /** Checks an answer's JSON body against the schema documented for the operation and status. */
  body(method: string, path: string, status: number, body: unknown): Conformance {
    const response = this.response(method, path, status);
    if (!response) throw new Error(`${this.id}: ${method} ${path} documents no ${status} answer`);
    const content = isObject(response.content) ? response.content : {};
    const key = Object.keys(content).find((k) => k.split(";")[0]?.trim() === "application/json");
    if (!key) throw new Error(`${this.id}: ${method} ${path} ${status} documents no JSON body`);
    // Pointer into the document as the operation holds it, so its $refs resolve in place.
    const pointer = this.pointerOf(method, path, status, key);
    return this.check(pointer, body);
  }

  /** Checks a value against a named component schema (e.g. an error model no operation lists). */
  component(name: string, value: unknown): Conformance {
    if (at(this.doc, `#/components/schemas/${escapePointer(name)}`) === undefined) throw new Error(`${this.id}: no component ${name}`);
    return this.check(`#/components/schemas/${escapePointer(name)}`, value);
  }

  /** Checks a header value (as sent, a string) against a header component's schema. */
  header(component: string, value: string | null): Conformance {
    const header = at(this.doc, `#/components/headers/${escapePointer(component)}`);
    if (!isObject(header)) throw new Error(`${this.id}: no header component ${component}`);
    if (value === null) return { ok: false, errors: [`header ${component} is missing`] };
    const schema = isObject(header.schema) ? header.schema : {};
    const typed: unknown = schema.type === "integer" || schema.type === "number" ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
    return this.check(`#/components/headers/${escapePointer(component)}/schema`, typed);
  }

  private pointerOf(method: string, path: string, status: number, mediaType: string): string {
    const op = at(this.doc, `#/paths/${escapePointer(path)}/${method.toLowerCase()}`) as JsonObject;
    const responses = op.responses as JsonObject;
    let pointer = `#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${String(status) in responses ? status : "default"}`;
    for (let hops = 0; hops < 5; hops++) {
      const r = at(this.doc, pointer);
      if (!isObject(r) || typeof r.$ref !== "string") break;
      pointer = r.$ref;
    }
    return `${pointer}/content/${escapePointer(mediaType)}/schema`;
  }

  private check(pointer: string, value: unknown): Conformance {
    let validate = this.cache.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.id}${pointer}` });
      this.cache.set(pointer, validate);
    }
    if (validate(value)) return { ok: true, errors: [] };
    return { ok: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`) };
  }
}
