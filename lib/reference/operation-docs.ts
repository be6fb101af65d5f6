import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import { siteOperationById, type SiteOperationId } from "@/lib/contract/operations";
import { SchemaSet, fieldRows, limitsOf, typeLabel } from "./json-schema";
import { operationAnchor, type SectionSlug } from "./sections";
import type { Block, BodyDoc, ErrorDoc, JsonSchema, OperationDoc, ParamDoc, ResponseDoc, Security } from "./types";

// What every documented operation is built with: its params, bodies, answers and errors in the
// reference's shape, and a site operation from its entry in lib/contract/operations.ts.

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


interface SiteSpec {
  /** The operation's entry in lib/contract/operations.ts: its method, path and summary. */
  op: SiteOperationId;
  section: SectionSlug;
  description?: Block[];
  security: Security;
  params?: ParamDoc[];
  requestBodies?: BodyDoc[];
  responses: ResponseDoc[];
  errors: ErrorCode[];
  curl?: boolean;
}

export function siteOperation(s: SiteSpec): OperationDoc {
  const op = siteOperationById(s.op);
  return {
    anchor: operationAnchor(op.method, op.path),
    operationId: op.id,
    method: op.method,
    path: op.path,
    base: "origin",
    section: s.section,
    summary: op.summary,
    description: s.description ?? [],
    security: s.security,
    params: s.params ?? [],
    requestBodies: s.requestBodies ?? [],
    responses: s.responses,
    errors: errorDocs(s.errors),
    curl: s.curl ?? true,
  };
}
