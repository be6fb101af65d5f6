import { z } from "zod";
import { endpoints, errorsOf, type Endpoint, type EndpointDef } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { cxWrapper } from "@/lib/contract/resources";
import { endpointExample } from "./examples";
import { COMPONENTS_PREFIX, SchemaSet, queryParams, sentences } from "./json-schema";
import { docsSections, operationAnchor, type SectionSlug } from "./sections";
import type { Block, JsonSchema, OperationDoc, ParamDoc } from "./types";
import { errorDocs, p, pathParam, jsonBody, siteOperation, type SiteSpecs } from "./operation-docs";
import { siteOperations } from "@/lib/contract/operations";
import { playgroundOperations } from "./operations-playground";
import { oauthOperations, operationsOperations, savingOperations } from "./operations-account";

// Every operation the reference documents: the API endpoints from their registry
// (lib/contract/endpoints.ts), written here, and the playground's (operations-playground.ts),
// saving's, OAuth's and the operators' from their declarations (lib/contract/operations/), in
// their order, each with what the reference adds to it (operations-playground.ts,
// operations-account.ts: who may call it, its params, bodies and answers built on its schemas).

export const CX_WAITING = "CxWaiting";

/** The CX answers' waiting branch becomes one shared component, so the wrapper reads as such. */
function withWaitingRef(schema: JsonSchema, waiting: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.anyOf)) return schema;
  const key = JSON.stringify(waiting);
  return { ...schema, anyOf: schema.anyOf.map((b) => (JSON.stringify(b) === key ? { $ref: `${COMPONENTS_PREFIX}${CX_WAITING}` } : b)) };
}

function sectionOfEndpoint(def: EndpointDef): SectionSlug {
  const found = docsSections.find((s) => "tag" in s && s.tag === def.tag && (!("paths" in s) || s.paths.some((p) => def.path.startsWith(p))));
  if (!found) throw new Error(`No section for ${def.path} (tag ${def.tag}): list its prefix in lib/reference/sections.ts`);
  return found.slug;
}

function apiOperation(e: Endpoint, set: SchemaSet, waiting: JsonSchema): OperationDoc {
  const def: EndpointDef = e;
  const response = withWaitingRef(set.add(def.response, "output"), waiting);
  const params: ParamDoc[] = [];
  for (const [name, rule] of Object.entries(def.params ?? {})) {
    const schema: JsonSchema = rule.values ? { type: "string", enum: [...rule.values] } : { type: "string" };
    const unknown = rule.unknown ? `Any other value answers ${errorCatalogue[rule.unknown].status} \`${rule.unknown}\`.` : "";
    params.push(pathParam(name, sentences(rule.description, unknown), schema, set));
  }
  for (const q of queryParams(def.query, set)) {
    const missing = def.missingQuery?.[q.name];
    params.push(missing ? { ...q, notes: sentences(q.notes, `Missing: ${errorCatalogue[missing].status} \`${missing}\`.`) } : q);
  }
  const description: Block[] = [];
  if (def.description) description.push(p(def.description));
  if (def.permission) description.push(p(`Needs the permission \`${def.permission}\`${def.permission.includes("{") ? " (the path value in braces)" : ""}; without it: 403 \`forbidden\`.`));
  if (def.pagedList) description.push(p(`Paged: the list is \`${def.pagedList}\`; pass \`nextCursor\` back as \`cursor\` until it is \`null\` (see [cursor paging](#cursor-paging)).`));
  const isCx = def.tag === "cx";
  return {
    anchor: operationAnchor("GET", def.path),
    operationId: def.id,
    method: "GET",
    path: def.path,
    base: "api",
    section: sectionOfEndpoint(def),
    registryId: e.id,
    summary: def.summary,
    description,
    ...(def.permission !== undefined ? { permission: def.permission } : {}),
    ...(def.pagedList !== undefined ? { pagedList: def.pagedList } : {}),
    security: "session",
    params,
    requestBodies: [],
    responses: [
      jsonBody(200, isCx ? "`{ok: true, data}`, or `{ok: false, waitingOn}` while the deployment cannot answer yet" : def.summary, response, set),
    ],
    errors: errorDocs(errorsOf(def)),
    example: endpointExample(e),
    curl: true,
  };
}

export function buildOperations(set: SchemaSet): OperationDoc[] {
  const waiting = set.add(cxWrapper(z.unknown()).options[1]);
  set.define(CX_WAITING, waiting);
  const api = endpoints.map((e) => apiOperation(e, set, waiting));
  // Every declaration must have what the reference adds to it: one left out fails to compile.
  const specs = { ...playgroundOperations(set), ...savingOperations(set), ...oauthOperations(set), ...operationsOperations(set) } satisfies Required<SiteSpecs>;
  return [...api, ...siteOperations.map((o) => siteOperation(o, specs[o.id]))];
}
