import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { COMPONENTS_PREFIX } from "./json-schema";
import { blocksMarkdown } from "./markdown";
import { ERROR_ENVELOPE, docsModel, sectionOf } from "./model";
import { CX_WAITING } from "./operations";
import { DOCS_PATH } from "./sections";
import type { DocsModel, ErrorDoc, JsonSchema, OperationDoc } from "./types";

// GET /openapi.json: the reference as an OpenAPI 3.1 document, built from the same model as
// /docs. API paths are relative to the servers (the API base, or the playground's demo API);
// the playground's and saving's routes carry their own server, the service's root.

const OPENAPI_VERSION = "3.1.0";
const SESSION_SCHEME = "session";
const METRICS_SCHEME = "metricsToken";

type Obj = { [key: string]: unknown };

const ref = (name: string) => ({ $ref: `${COMPONENTS_PREFIX}${name}` });

/** `/crm/:instance/companies` → `/crm/{instance}/companies` */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

function errorResponses(errors: ErrorDoc[]): Record<string, Obj> {
  const byStatus = new Map<number, ErrorDoc[]>();
  for (const e of errors) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  const out: Record<string, Obj> = {};
  for (const [status, list] of byStatus) {
    const codes = list.map((e) => e.code);
    out[String(status)] = {
      description: list.map((e) => `\`${e.code}\`: ${e.description}`).join(" "),
      ...(status === 429 ? { headers: { "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 0 } } } } : {}),
      content: {
        "application/json": {
          schema: { allOf: [ref(ERROR_ENVELOPE), { type: "object", properties: { error: { type: "string", enum: codes } } }] },
          examples: Object.fromEntries(list.map((e) => [e.code, { summary: e.description, value: { error: e.code } }])),
        },
      },
    };
  }
  return out;
}

/**
 * OpenAPI keys paths by template, and templates that differ only in their parameters' names
 * are one path (`/draft/{read_id}` for reading and `/draft/{write_token}` for updating). Such
 * operations share one key whose parameter names each name it is known by; each operation's
 * parameter is renamed to match and keeps its own description.
 */
function openApiPathKeys(ops: readonly OperationDoc[]): Map<OperationDoc, { key: string; renames: ReadonlyMap<string, string> }> {
  const shape = (path: string) => path.replace(/:\w+/g, ":");
  const names = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? "");
  const merged = new Map<string, Set<string>[]>();
  for (const op of ops) {
    const slots = merged.get(shape(op.path)) ?? [];
    names(op.path).forEach((n, i) => (slots[i] ??= new Set()).add(n));
    merged.set(shape(op.path), slots);
  }
  const out = new Map<OperationDoc, { key: string; renames: ReadonlyMap<string, string> }>();
  for (const op of ops) {
    const slots = merged.get(shape(op.path)) ?? [];
    const renames = new Map(names(op.path).map((n, i) => [n, [...(slots[i] ?? [n])].sort().join("_or_")] as const));
    out.set(op, { key: openApiPath(op.path.replace(/:(\w+)/g, (_, n: string) => `:${renames.get(n) ?? n}`)), renames });
  }
  return out;
}

function operationObject(op: OperationDoc, origin: string, tag: string, renames: ReadonlyMap<string, string>): Obj {
  const description = [blocksMarkdown(op.description, origin, 3)];
  if (op.security === "session-same-origin") {
    description.push(
      "Only from the signed-in person's own page on this site: a matching `Origin`, `Sec-Fetch-Site: same-origin` and the page's CSRF token; anything else answers 403 `forbidden`. Not callable from scripts or agents.",
    );
  }
  description.push(`Reference: ${DOCS_PATH}/${op.section}#${op.anchor}`);
  const responses: Record<string, Obj> = {};
  for (const r of op.responses) {
    const media: Obj =
      r.contentType === "text/event-stream"
        ? { schema: { type: "string", description: "Server-sent events; each `draft` event's data is a DraftEvent as JSON" }, "x-event-data": r.schema }
        : { schema: r.schema ?? {} };
    if (r.status === 200 && op.example) media.example = op.example.body;
    responses[String(r.status)] = { description: r.description, content: { [r.contentType]: media } };
  }
  Object.assign(responses, errorResponses(op.errors));
  const obj: Obj = {
    operationId: op.operationId,
    tags: [tag],
    summary: op.summary,
    description: description.filter(Boolean).join("\n\n"),
    parameters: op.params.map((p) => ({
      name: p.in === "path" ? (renames.get(p.name) ?? p.name) : p.name,
      in: p.in,
      required: p.required,
      ...(p.notes ? { description: p.notes } : {}),
      schema: p.schema,
    })),
    responses,
    externalDocs: { url: `${DOCS_PATH}/${op.section}#${op.anchor}` },
  };
  if (op.requestBodies.length) {
    obj.requestBody = {
      required: true,
      content: Object.fromEntries(op.requestBodies.map((b) => [b.contentType, { schema: b.schema ?? {} }])),
    };
  }
  if (op.security === "session" || op.security === "session-same-origin") obj.security = [{ [SESSION_SCHEME]: [] }];
  if (op.security === "none") obj.security = [];
  // Loopback callers need nothing; anyone else needs the deployment's token.
  if (op.security === "operator") obj.security = [{}, { [METRICS_SCHEME]: [] }];
  return obj;
}

let last: { origin: string; doc: Obj } | undefined;

/** The document; `origin` fills in the service's address where prose shows a command. */
export function openApiDocument(origin: string, model: DocsModel = docsModel()): Obj {
  if (last && last.origin === origin && model === docsModel()) return last.doc;
  const doc = build(origin, model);
  if (model === docsModel()) last = { origin, doc };
  return doc;
}

function build(origin: string, model: DocsModel): Obj {
  const paths: Record<string, Obj> = {};
  const tags: Obj[] = [];
  const keys = openApiPathKeys(model.sections.flatMap((s) => s.operations));
  for (const section of model.sections) {
    if (section.operations.length === 0) continue;
    tags.push({ name: section.title, description: `${section.summary}.`, externalDocs: { url: `${DOCS_PATH}/${section.slug}` } });
    for (const op of section.operations) {
      const { key, renames } = keys.get(op) ?? { key: openApiPath(op.path), renames: new Map<string, string>() };
      const item = (paths[key] ??= op.base === "origin" ? { servers: [{ url: "/", description: "The service's own address" }] } : {});
      item[op.method.toLowerCase()] = operationObject(op, origin, section.title, renames);
    }
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Dashboard data service",
      version: "1",
      summary: "The read-only API dashboards fetch, the public playground, and saving a dashboard.",
      description: blocksMarkdown(sectionOf(model, "conventions").intro, origin, 2),
    },
    servers: [
      { url: "/api", description: "The API, as the signed-in person (in a dashboard: window.DASHBOARD_API_BASE)" },
      { url: PLAYGROUND_API_BASE, description: "The playground's demo API: the same paths, canned demo data, no sign-in" },
    ],
    tags,
    paths,
    components: {
      schemas: model.components,
      securitySchemes: {
        [SESSION_SCHEME]: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description: "The session cookie set by signing in at /signin (HttpOnly, SameSite=Lax). A dashboard never handles it: the page it runs in sends the viewer's own.",
        },
        [METRICS_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description: "The deployment's METRICS_TOKEN, for scraping /metrics from elsewhere than the instance's own host.",
        },
      },
    },
    externalDocs: { description: "The API reference", url: DOCS_PATH },
    "x-cx-wrapper": {
      description: "Every /cx/* answer is 200 with {ok: true, data} or {ok: false, waitingOn}; the second is not an error: render waitingOn, never zeroes.",
      waiting: ref(CX_WAITING),
    },
  } satisfies JsonSchema;
}
