import type { ErrorCode } from "@/lib/contract/errors";
import type { Block } from "@/lib/contract/operations/types";
import type { EndpointId } from "@/lib/contract/endpoints";
import type { SectionSlug } from "./sections";

// The reference's model: what /docs, the Markdown sections and /openapi.json are rendered from.
// Plain data, so the three renderings read the same facts and cannot drift apart.

export type JsonSchema = { [key: string]: unknown };

export type { Block };

/** One row of a field table: a dotted path (`rows[].health.band`) and what it holds. */
export interface FieldRow {
  name: string;
  type: string;
  nullable: boolean;
  required: boolean;
  notes: string;
}

export interface ParamDoc {
  name: string;
  in: "path" | "query" | "header";
  type: string;
  required: boolean;
  /** Range, length, pattern, format or the closed set of values. */
  limits: string;
  notes: string;
  schema: JsonSchema;
}

export interface ErrorDoc {
  status: number;
  code: ErrorCode;
  description: string;
}

export interface BodyDoc {
  contentType: string;
  description: string;
  /** JSON Schema with `#/components/schemas/…` references; absent for opaque bodies (HTML, text). */
  schema?: JsonSchema;
  fields: FieldRow[];
}

export interface ResponseDoc extends BodyDoc {
  status: number;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface ExampleDoc {
  /** The request relative to the API base, query included: `/crm/customers/companies?limit=3`. */
  request: string;
  status: number;
  body: unknown;
  /** True when lists were cut to their first items for the page. */
  shortened: boolean;
}

/** `unstated`: a page whose access the contract leaves to the page itself. */
/** `operator`: callers on loopback, or the bearer of the deployment's METRICS_TOKEN (behind TRUSTED_PROXY). */
export type Security = "session" | "none" | "session-same-origin" | "operator" | "unstated";

export const OPERATOR_ACCESS =
  "Access: callers on this machine's loopback, or `Authorization: Bearer <METRICS_TOKEN>` when the deployment sets one; anyone else gets 404 `not_found` when no token is set, and 401 `unauthorized` when one is. No session.";

export interface OperationDoc {
  /** Stable fragment id: `get-crm-instance-companies`. */
  anchor: string;
  operationId: string;
  method: "GET" | "POST";
  /** As written in the contract: `/crm/:instance/companies`, `/~/:handle/:slug`. */
  path: string;
  /** `api`: relative to the API base; `origin`: relative to the service's address. */
  base: "api" | "origin";
  section: SectionSlug;
  registryId?: EndpointId;
  summary: string;
  description: Block[];
  permission?: string;
  pagedList?: string;
  security: Security;
  params: ParamDoc[];
  requestBodies: BodyDoc[];
  responses: ResponseDoc[];
  errors: ErrorDoc[];
  example?: ExampleDoc;
  /** Whether a curl line is offered; saving refuses anything but the person's own page. */
  curl: boolean;
}

export interface SectionDoc {
  slug: SectionSlug;
  title: string;
  summary: string;
  intro: Block[];
  operations: OperationDoc[];
}

export interface DocsModel {
  sections: SectionDoc[];
  /** Every named schema the operations refer to, by name. */
  components: Record<string, JsonSchema>;
}

/** Responses that share a body (a save's 201 and 200), so renderings show the fields once. */
export function groupResponses(responses: ResponseDoc[]): { statuses: number[]; response: ResponseDoc }[] {
  const groups: { statuses: number[]; response: ResponseDoc; key: string }[] = [];
  for (const r of responses) {
    const key = `${r.contentType} ${JSON.stringify(r.schema ?? null)}`;
    const same = groups.find((g) => g.key === key);
    if (same) same.statuses.push(r.status);
    else groups.push({ statuses: [r.status], response: r, key });
  }
  return groups.map(({ statuses, response }) => ({ statuses, response }));
}
