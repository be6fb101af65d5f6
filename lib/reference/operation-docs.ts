import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import type { SiteOperationId } from "@/lib/contract/operations";
import type { SiteOperationDef } from "@/lib/contract/operations/types";
import { SchemaSet, fieldRows, limitsOf, typeLabel } from "./json-schema";
import { operationAnchor } from "./sections";
import type { Block, BodyDoc, ErrorDoc, JsonSchema, OperationDoc, ParamDoc, ResponseDoc, Security } from "./types";

// What every documented operation is built with: its params, bodies, answers and errors in the
// reference's shape, and a site operation from its declaration (lib/contract/operations/).

export const p = (text: string): Block => ({ kind: "p", text });

export function errorDocs(codes: readonly ErrorCode[]): ErrorDoc[] {
  return [...new Set(codes)]
    .map((code) => ({ status: errorCatalogue[code].status, code, description: errorCatalogue[code].description }))
    .sort((a, b) => a.status - b.status);
}

export function pathParam(name: string, notes: string, schema: JsonSchema, set: SchemaSet): ParamDoc {
  return { name, in: "path", type: typeLabel(schema, set.components), required: true, limits: limitsOf(schema, set.components), notes, schema };
}

export function jsonBody(status: number, description: string, schema: JsonSchema, set: SchemaSet): ResponseDoc {
  return { status, contentType: "application/json", description, schema, fields: fieldRows(schema, set.components) };
}

/** What the reference adds to a declaration: who may call it, and its params, bodies and answers in the reference's shape. */
interface SiteSpec {
  security: Security;
  params?: ParamDoc[];
  requestBodies?: BodyDoc[];
  responses: ResponseDoc[];
  curl?: boolean;
}

/** What the reference adds to each declaration, by its id. */
export type SiteSpecs = { readonly [I in SiteOperationId]?: SiteSpec };

/** A site operation's doc entry: its method, path, summary, section, prose and errors from its declaration. */
export function siteOperation(op: SiteOperationDef, s: SiteSpec): OperationDoc {
  return {
    anchor: operationAnchor(op.method, op.path),
    operationId: op.id,
    method: op.method,
    path: op.path,
    base: "origin",
    section: op.section,
    summary: op.summary,
    description: (op.description ?? []).map((b) => (typeof b === "string" ? p(b) : b)),
    security: s.security,
    params: s.params ?? [],
    requestBodies: s.requestBodies ?? [],
    responses: s.responses,
    errors: errorDocs(op.errors),
    curl: s.curl ?? true,
  };
}
