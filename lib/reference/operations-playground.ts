import { z } from "zod";
import { siteOperationById as declared } from "@/lib/contract/operations";
import { SCENARIO_PARAM, VARIANT_PARAM, draftInput } from "@/lib/contract/playground";
import { renderInput } from "@/lib/contract/renders";
import { SchemaSet, fieldRows, queryParams, sentences } from "./json-schema";
import type { BodyDoc, ParamDoc } from "./types";
import { jsonBody, pathParam, type SiteSpecs } from "./operation-docs";

// What the reference adds to the playground's declarations (lib/contract/operations/): drafts,
// their reports and renders, the demo API and the documents beside it, and a draft's event
// stream. Their words, errors and schemas are the declarations'; who may call each, its params,
// and the line each body and answer is given are stated here.

export function playgroundOperations(set: SchemaSet) {
  const readId = pathParam("read_id", "The draft's read id: `id` of the creation answer, and the last segment of `watchUrl`. It only reads.", { type: "string" }, set);
  return { ...draftOperations(set, readId), ...reportOperations(set, readId), ...renderOperations(set, readId), ...demoApiOperations(set), ...draftEventsOperation(set, readId) } satisfies SiteSpecs;
}

/** Writing, checking, reading and drawing a draft. */
function draftOperations(set: SchemaSet, readId: ParamDoc) {
  const writeToken = pathParam("write_token", "The draft's write token: the last segment of `postUrl`. Whoever holds it can update the draft.", { type: "string" }, set);
  const create = declared("playground.createDraft");
  const check = declared("playground.checkDraft");
  const update = declared("playground.updateDraft");
  const revisions = declared("playground.draftRevisions");
  const htmlQuery = queryParams(
    z.object({ scenario: draftInput.shape.scenario, dash: draftInput.shape.dash, dataMode: draftInput.shape.dataMode, baseRevision: draftInput.shape.baseRevision }),
    set,
  ).map((q) => ({ ...q, notes: sentences(q.notes, "With a `text/html` body only.") }));
  const input = set.add(create.input, "input");
  const bodies: BodyDoc[] = [
    { contentType: "application/json", description: "The draft; only `html` is required.", schema: input, fields: fieldRows(input, set.components) },
    { contentType: "text/html", description: "The HTML itself; the other fields go in the query string.", schema: { type: "string" }, fields: [] },
  ];
  const changes = set.add(update.input, "input");
  const updateBodies: BodyDoc[] = [
    {
      contentType: "application/json",
      description: "What changes: every field is optional. A field sent replaces its value, `null` clears it (scenario back to `default`, no examples, no dash), a field left out keeps its value.",
      schema: changes,
      fields: fieldRows(changes, set.components),
    },
    { contentType: "text/html", description: "New HTML alone; scenario, examples and dash keep their values (or set them in the query string).", schema: { type: "string" }, fields: [] },
  ];
  return {
    "playground.createDraft": {
      security: "none",
      params: htmlQuery,
      requestBodies: bodies,
      responses: [jsonBody(201, "The new draft: keep `postUrl`, hand the human `watchUrl`", set.add(create.answer), set)],
    },
    "playground.checkDraft": {
      security: "none",
      params: htmlQuery,
      requestBodies: bodies,
      responses: [jsonBody(200, "The findings and the reads", set.add(check.answer), set)],
    },
    "playground.updateDraft": {
      security: "none",
      params: [writeToken, ...htmlQuery],
      requestBodies: updateBodies,
      responses: [jsonBody(200, "The accepted revision", set.add(update.answer), set)],
    },
    "playground.readDraft": {
      security: "none",
      params: [readId],
      responses: [jsonBody(200, "The current draft", set.add(declared("playground.readDraft").answer), set)],
    },
    "playground.draftRevisions": {
      security: "none",
      params: [readId, ...queryParams(revisions.query, set)],
      responses: [jsonBody(200, "One page of the kept revisions", set.add(revisions.answer), set)],
    },
    "playground.drawDraft": {
      security: "session",
      params: [readId, ...queryParams(z.object({ viewport: renderInput.shape.viewport, revision: z.string().optional().meta({ description: "The revision to draw; the current one when left out" }) }), set)],
      responses: [jsonBody(200, "The drawing", set.add(declared("playground.drawDraft").answer), set)],
      curl: false,
    },
  } satisfies SiteSpecs;
}

/** The demo API and the documents an agent reads beside it. */
function demoApiOperations(set: SchemaSet) {
  return {
    "playground.demoApi": {
      security: "none",
      params: [
        pathParam("apiPath", "An API path without the base, e.g. `crm/customers/companies`; it may contain slashes.", { type: "string" }, set),
        ...queryParams(
          z.object({
            [SCENARIO_PARAM]: z.string().optional().meta({ description: "A scenario for this one request; playground only, never in dashboard code" }),
            [VARIANT_PARAM]: z.string().optional().meta({ description: "A variant of this path for this one request" }),
          }),
          set,
        ),
      ],
      responses: [{ status: 200, contentType: "application/json", description: "The endpoint's own answer (see that endpoint)", schema: {}, fields: [] }],
    },
    "playground.scenarios": {
      security: "none",
      responses: [jsonBody(200, "Scenarios and variants", set.add(declared("playground.scenarios").answer), set)],
    },
    "playground.endpoints": {
      security: "none",
      responses: [jsonBody(200, "The endpoints", set.add(declared("playground.endpoints").answer), set)],
    },
    "playground.llms": {
      security: "none",
      responses: [{ status: 200, contentType: "text/plain", description: "The index", schema: { type: "string" }, fields: [] }],
    },
    "playground.llmsFull": {
      security: "none",
      responses: [{ status: 200, contentType: "text/plain", description: "The protocol", schema: { type: "string" }, fields: [] }],
    },
    "playground.mcp": {
      security: "none",
      requestBodies: [{ contentType: "application/json", description: "A JSON-RPC 2.0 message of MCP, or a batch of them.", schema: { type: "object" }, fields: [] }],
      responses: [{ status: 200, contentType: "application/json", description: "The JSON-RPC answer: a tool's result, the tool list, the server's capabilities", schema: { type: "object" }, fields: [] }],
      curl: false,
    },
  } satisfies SiteSpecs;
}

function draftEventsOperation(set: SchemaSet, readId: ParamDoc) {
  const events = declared("playground.draftEvents");
  const data = set.add(events.answer);
  return {
    "playground.draftEvents": {
      security: "none",
      params: [readId, { name: "Last-Event-ID", in: "header", type: "string", required: false, limits: "", notes: "The last revision received; sent by EventSource when it reconnects.", schema: { type: "string" } }],
      responses: [{ status: 200, contentType: "text/event-stream", description: "`draft` events; the fields below are each event's `data`", schema: data, fields: fieldRows(data, set.components) }],
    },
  } satisfies SiteSpecs;
}

/** The service's own renders of demo drafts (lib/drafts/renders.ts). */
function renderOperations(set: SchemaSet, readId: ParamDoc) {
  const render = declared("playground.render");
  const input = set.add(render.input, "input");
  return {
    "playground.render": {
      security: "none",
      params: [readId],
      requestBodies: [{ contentType: "application/json", description: "What to draw; every field is optional, and no body draws the current revision as it is.", schema: input, fields: fieldRows(input, set.components) }],
      responses: [jsonBody(200, "The render: its report and where its picture is", set.add(render.answer), set)],
      curl: true,
    },
    "playground.renderPicture": {
      security: "none",
      params: [readId, { name: "file", in: "path", type: "string", required: true, limits: "<revision>-<key>.png", notes: "As the render's `picture.url` names it", schema: { type: "string" } }],
      responses: [{ status: 200, contentType: "image/png", description: "The dashboard, as drawn", schema: { type: "string", format: "binary" }, fields: [] }],
    },
  } satisfies SiteSpecs;
}

/** Render reports: what browsers saw when they rendered a demo draft (lib/drafts/reports.ts). */
function reportOperations(set: SchemaSet, readId: ParamDoc) {
  const reports = declared("playground.renderReports");
  const send = declared("playground.sendRenderReport");
  const input = set.add(send.input, "input");
  return {
    "playground.renderReports": {
      security: "none",
      params: [readId, ...queryParams(reports.query, set)],
      responses: [jsonBody(200, "The revision's reports, newest first", set.add(reports.answer), set)],
    },
    "playground.sendRenderReport": {
      security: "none",
      params: [readId],
      requestBodies: [{ contentType: "application/json", description: "One render of one revision.", schema: input, fields: fieldRows(input, set.components) }],
      responses: [jsonBody(201, "The report was stored", set.add(send.answer), set)],
      curl: false,
    },
  } satisfies SiteSpecs;
}
