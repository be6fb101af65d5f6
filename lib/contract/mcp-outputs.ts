import { z } from "zod";
import { RENDER_VIEWPORTS, type RenderViewport } from "./renders";

// What the MCP tools answer as structured content, beyond the playground's own bodies: a
// refusal's fields, the relayed reads of the inline views, and the saved dashboards' answers.
// Every tool that answers JSON declares its answer or its refusal, so a client that holds
// structured content to the declared schema (errors included, as the v1 SDK's client does)
// reads both, and an agent reads a refusal's numbers as fields, not out of words.

/** A refusal: the playground's error envelope, with what its headers said as fields. */
const toolRefusal = z
  .looseObject({
    error: z.string().meta({ description: "The error code, as in the error reference" }),
    hint: z.string().optional().meta({ description: "What to do about it" }),
    currentRevision: z.number().int().min(1).optional().meta({ description: "revision_conflict: the draft's current revision, to read and base the update on" }),
    retryAfter: z.number().int().min(0).optional().meta({ description: "Busy or over an allowance: the seconds to wait before asking again" }),
  })
  .meta({ description: "A refusal (isError): the error envelope" });

/**
 * The declared output of a tool answering `answer`: the answer, or a refusal. Typed as an object
 * at its root as well, since initialize-era clients take only an object schema there.
 */
export const orRefusal = <S extends z.ZodType>(answer: S) => terse(z.union([answer, toolRefusal]).meta({ type: "object" }));

/** The keys of a JSON Schema whose values are maps of name → schema, not schemas themselves. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** A JSON Schema without its prose: what a client validates by, with the words left to describe_endpoint and the reference. */
function withoutProse(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutProse);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => !((k === "description" || k === "$schema") && typeof v === "string"))
      .map(([k, v]) => [k, SCHEMA_MAPS.has(k) && typeof v === "object" && v !== null ? Object.fromEntries(Object.entries(v).map(([n, s]) => [n, withoutProse(s)])) : withoutProse(v)]),
  );
}

/**
 * A tool's input schema as tools/list sends it: every word kept (a model writes its arguments
 * from them), without the dialect's URI, which MCP's default (2020-12) already is.
 */
export function plainInput<S extends z.ZodType>(schema: S): S {
  return rewritten(schema, (json) => {
    if (typeof json !== "object" || json === null) return json;
    const { $schema: _dialect, ...rest } = json as Record<string, unknown>;
    return rest;
  });
}

/**
 * A tool's output schema as tools/list sends it: the same validation, its JSON Schema without
 * descriptions. The list is read whole before a first call, and an answer's fields are
 * described where an agent looks them up (describe_endpoint, the reference), not in every list.
 */
function terse<S extends z.ZodType>(schema: S): S {
  return rewritten(schema, withoutProse);
}

/** The same schema (zod validates), its JSON Schema passed through `rewrite` wherever the SDK asks for it. */
function rewritten<S extends z.ZodType>(schema: S, rewrite: (json: unknown) => unknown): S {
  const std = schema["~standard"] as z.ZodType["~standard"] & { jsonSchema?: { input: (o: unknown) => unknown; output: (o: unknown) => unknown } };
  const jsonSchema = std.jsonSchema;
  if (!jsonSchema) return schema;
  return {
    "~standard": {
      ...std,
      validate: std.validate,
      jsonSchema: { input: (o: unknown) => rewrite(jsonSchema.input(o)), output: (o: unknown) => rewrite(jsonSchema.output(o)) },
    },
  } as unknown as S;
}

/** One read a dashboard made in an inline view, answered whatever its status. */
export const relayedRead = z
  .object({
    status: z.number().int().meta({ description: "The HTTP status the API answered" }),
    contentType: z.string(),
    body: z.string().meta({ description: "The body, as text" }),
  })
  .strict();

/** A saved dashboard as show_dashboard answers it. */
export const shownDashboard = z
  .object({
    path: z.string().meta({ description: "/~/<handle>/<slug>" }),
    url: z.string().meta({ description: "Its page on this site" }),
    title: z.string(),
    owner: z.object({ handle: z.string(), name: z.string() }).strict(),
    yours: z.boolean(),
    revision: z.number().int(),
    savedAt: z.string(),
    live: z.enum(["run", "drawn"]).meta({ description: "run: it runs on the person's data here; drawn: someone else's, drawn by this site" }),
    reads: z.array(z.string()).meta({ description: "The API paths its code reads" }),
    readsComplete: z.boolean(),
  })
  .strict();

/** read_dashboard: the shown dashboard with its code. */
export const readDashboard = shownDashboard.extend({ html: z.string() }).strict();

/** draw_dashboard: the service's drawing of it, an inert document. */
export const drawnDashboard = z
  .looseObject({
    html: z.string().meta({ description: "The inert document, whole" }),
    drawnAt: z.string(),
    height: z.number().meta({ description: "The height it was drawn at, in CSS pixels" }),
    revision: z.number().int(),
    viewport: z.enum(Object.keys(RENDER_VIEWPORTS) as [RenderViewport, ...RenderViewport[]]),
    remembered: z.boolean(),
  });
