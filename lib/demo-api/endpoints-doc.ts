import "server-only";
import { z } from "zod";
import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import { endpoints, errorsOf, type EndpointDef } from "@/lib/contract/endpoints";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE, SCENARIO_PARAM, VARIANT_PARAM } from "@/lib/contract/playground";
import { errorEnvelope } from "@/lib/contract/resources";
import { snapshotPolicy } from "@/lib/frame/snapshot-policy";
import { dashboardParamsConvention } from "@/lib/frame/params";

// GET /dashboards/playground/endpoints: every API endpoint with the JSON Schemas of its query
// (as sent: strings) and of its success body, its errors, and the error envelope, generated
// from the zod contract so it cannot drift from what the API validates and answers.

type JsonSchema = z.core.JSONSchema.BaseSchema;

interface DocError {
  status: number;
  error: ErrorCode;
  description: string;
}

interface EndpointDoc {
  id: string;
  method: "GET";
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters: what each means and, where the set is closed, its values. */
  params?: Record<string, { description: string; values?: readonly string[]; unknown?: ErrorCode }>;
  /** Query parameters as sent (strings); `required` lists the mandatory ones. */
  query: JsonSchema;
  /** The 200 body. */
  response: JsonSchema;
  errors: DocError[];
  /** The permission the caller needs, `{param}` standing for that path value. */
  permission?: string;
  /** Paged lists: the key holding the list; follow `nextCursor` until it is null. */
  pagedList?: string;
}

/** The snapshot convention, as /endpoints states it. */
const snapshotConvention = `A dashboard may embed its data as a snapshot. ${snapshotPolicy}`;

interface EndpointsBody {
  apiBase: string;
  liveApiBase: string;
  errorEnvelope: JsonSchema;
  endpoints: EndpointDoc[];
  cxWrapper: string;
  paging: string;
  snapshot: string;
  addressParams: string;
  demo: { scenarios: string; scenarioParam: string; variantParam: string; errors: DocError[] };
}

const docError = (code: ErrorCode): DocError => ({ status: errorCatalogue[code].status, error: code, description: errorCatalogue[code].description });

/**
 * A named schema (one with a meta id) comes out as a bare `$ref` into `$defs`; the root is
 * inlined so each body's schema reads directly, and `$defs` keeps what is still referred to.
 */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  const { $ref, $defs, ...root } = out;
  const name = typeof $ref === "string" && $ref.startsWith("#/$defs/") ? $ref.slice("#/$defs/".length) : undefined;
  const target = name !== undefined && $defs ? $defs[name] : undefined;
  if (name === undefined || !$defs || typeof target !== "object") return out;
  const rest = Object.fromEntries(Object.entries($defs).filter(([k]) => k !== name));
  const stillUsed = JSON.stringify([target, rest]).includes(`"#/$defs/${name}"`);
  const defs = stillUsed ? $defs : rest;
  return { ...root, ...target, ...(Object.keys(defs).length ? { $defs: defs } : {}) };
}

function endpointDoc(e: EndpointDef): EndpointDoc {
  return {
    id: e.id,
    method: "GET",
    path: e.path,
    tag: e.tag,
    summary: e.summary,
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.params ? { params: e.params } : {}),
    query: schemaOf(e.query, "input"),
    response: schemaOf(e.response, "output"),
    errors: errorsOf(e).map(docError),
    ...(e.permission !== undefined ? { permission: e.permission } : {}),
    ...(e.pagedList !== undefined ? { pagedList: e.pagedList } : {}),
  };
}

let cached: EndpointsBody | undefined;

export function endpointsBody(): EndpointsBody {
  cached ??= build();
  return cached;
}

function build(): EndpointsBody {
  return {
    apiBase: PLAYGROUND_API_BASE,
    liveApiBase: "/api",
    errorEnvelope: schemaOf(errorEnvelope, "output"),
    endpoints: endpoints.map(endpointDoc),
    cxWrapper:
      "Every /cx/* answer is 200 with either {ok: true, data} or {ok: false, waitingOn}. The second means the deployment cannot answer yet: render the waitingOn text, never zeroes.",
    paging: `Paged lists answer {<list>, nextCursor}. Pass nextCursor back as cursor for the next page; it is null on the last page. A cursor this server did not issue answers 400 invalid_cursor. Where an endpoint takes limit, its query names the page size's bounds.`,
    snapshot: snapshotConvention,
    addressParams: dashboardParamsConvention,
    demo: {
      scenarios: `${PLAYGROUND_BASE}/scenarios lists the scenarios and every path's variants.`,
      scenarioParam: `?${SCENARIO_PARAM}=<name> picks a scenario for one request (playground only; never in dashboard code).`,
      variantParam: `?${VARIANT_PARAM}=<name> picks one path's variant for one request.`,
      errors: (["no_example", "unknown_scenario", "unknown_example"] as const).map(docError),
    },
  };
}
