import fs from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// HubSpot's published OpenAPI descriptions (tests/fixtures/vendor-api/hubspot) as validators of
// answers: an answer is found its operation by method and path, and its body checked against
// the schema that operation declares for its status (or its `default`, HubSpot's error body).
// Each description is added whole under its file's name, so its own `#/components/...`
// references resolve inside it.

const dir = path.resolve(import.meta.dirname, "../../fixtures/vendor-api/hubspot");

type Json = Record<string, unknown>;

interface Operation {
  file: string;
  template: string;
  responses: Record<string, Json>;
}

/** Which description and path template serve a request the CRM portal connector sends. */
const routes: { pattern: RegExp; file: (m: RegExpExecArray) => string; template: (m: RegExpExecArray) => string }[] = [
  {
    // deals are described under their numeric type id, 0-3, which HubSpot also answers to.
    pattern: /^\/crm\/v3\/objects\/(companies|contacts|deals|calls|meetings|emails)(\/search)?$/,
    file: (m) => m[1] ?? "",
    template: (m) => `/crm/v3/objects/${m[1] === "deals" ? "0-3" : m[1]}${m[2] ?? ""}`,
  },
  { pattern: /^\/crm\/v3\/owners\/?$/, file: () => "owners", template: () => "/crm/v3/owners" },
  {
    pattern: /^\/crm\/v4\/associations\/[a-z]+\/[a-z]+\/batch\/read$/,
    file: () => "associations-v4",
    template: () => "/crm/v4/associations/{fromObjectType}/{toObjectType}/batch/read",
  },
  { pattern: /^\/account-info\/v3\/details$/, file: () => "accountInfo", template: () => "/account-info/v3/details" },
];

// ajv-formats is CommonJS with its function as the default export's own default.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export class HubspotSpec {
  private readonly ajv: Ajv;
  private readonly docs = new Map<string, Json>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    // Not strict: the descriptions carry OpenAPI's own keywords (`example`, `x-hubspot-…`) beside
    // JSON Schema's, which say nothing about an answer.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Json;
      const id = name.replace(/\.json$/, "");
      this.docs.set(id, doc);
      this.ajv.addSchema(doc, `hubspot-${id}`);
    }
  }

  /** The operation a request is for, or null when the descriptions hold none. */
  operation(method: string, requestPath: string): Operation | null {
    for (const r of routes) {
      const m = r.pattern.exec(requestPath);
      if (!m) continue;
      const file = r.file(m);
      const template = r.template(m);
      const paths = this.docs.get(file)?.paths as Record<string, Record<string, { responses: Record<string, Json> }>> | undefined;
      const op = paths?.[template]?.[method.toLowerCase()];
      return op ? { file, template, responses: op.responses } : null;
    }
    return null;
  }

  /** Where in its description the schema of an answer with this status is (a JSON pointer). */
  private schemaPointer(op: Operation, method: string, status: number): string {
    const statusKey = String(status) in op.responses ? String(status) : "default";
    const declared = op.responses[statusKey];
    if (!declared) throw new Error(`${op.template} declares no answer for ${status} and no default`);
    const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
    let at = `#/paths/${escape(op.template)}/${method.toLowerCase()}/responses/${statusKey}`;
    let response = declared;
    if (typeof declared.$ref === "string") {
      at = declared.$ref;
      const name = declared.$ref.replace("#/components/responses/", "");
      response = ((this.docs.get(op.file)?.components as Json).responses as Record<string, Json>)[name] ?? {};
    }
    const content = response.content as Record<string, Json> | undefined;
    const type = content && ("application/json" in content ? "application/json" : Object.keys(content)[0]);
    if (!type) throw new Error(`${op.template} declares no body for ${status}`);
    return `${at}/content/${escape(type)}/schema`;
  }

  /** Problems of an error body against HubSpot's `Error` schema (each description has the same). */
  checkError(body: unknown): string[] {
    const ref = "hubspot-companies#/components/schemas/Error";
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `error body: ${e.instancePath || "(root)"} ${e.message ?? ""}`);
  }

  /** Problems of an answer's body against the description; empty when it conforms. */
  check(method: string, requestPath: string, status: number, body: unknown): string[] {
    const op = this.operation(method, requestPath);
    if (!op) return [`no operation in HubSpot's descriptions for ${method} ${requestPath}`];
    const ref = `hubspot-${op.file}${this.schemaPointer(op, method, status)}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${method} ${requestPath} ${status}: ${e.instancePath || "(root)"} ${e.message ?? ""}`);
  }
}
