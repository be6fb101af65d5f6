import { z } from "zod";

// The playground's two descriptive answers, built as plain objects (lib/demo-api/answers.ts and
// the endpoint list): the reference documents them with these, the MCP tools that answer them
// declare them as their output, and a test parses the real ones with them.

const docError = z.object({ status: z.number().int(), error: z.string(), description: z.string() });
const jsonSchema = z.record(z.string(), z.unknown()).meta({ description: "A JSON Schema (draft 2020-12)" });

export const scenariosBodySchema = z
  .object({
    apiBase: z.string().meta({ description: "The demo API's base: /dashboards/playground/api" }),
    default: z.string().meta({ description: "The scenario used when none is named" }),
    scenarios: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        examples: z.record(z.string(), z.string()).meta({ description: "API path → variant: what the scenario changes" }),
      }),
    ),
    paths: z
      .array(z.object({ path: z.string(), variants: z.array(z.string()), default: z.string() }))
      .meta({ description: "Every API path with its variants, in registry order" }),
    variants: z.array(z.object({ name: z.string(), description: z.string() })).meta({ description: "What each variant name means" }),
    usage: z.object({ scenario: z.string(), variant: z.string(), precedence: z.string() }),
  })
  .meta({ id: "PlaygroundScenarios" });

export const endpointsBodySchema = z
  .object({
    apiBase: z.string(),
    liveApiBase: z.string(),
    errorEnvelope: jsonSchema,
    endpoints: z.array(
      z.object({
        id: z.string(),
        method: z.literal("GET"),
        path: z.string(),
        tag: z.string(),
        summary: z.string(),
        description: z.string().optional(),
        params: z
          .record(z.string(), z.object({ description: z.string(), values: z.array(z.string()).optional(), unknown: z.string().optional() }))
          .optional(),
        query: jsonSchema,
        response: jsonSchema,
        errors: z.array(docError),
        permission: z.string().optional(),
        pagedList: z.string().optional(),
      }),
    ),
    cxWrapper: z.string(),
    paging: z.string(),
    demo: z.object({ scenarios: z.string(), scenarioParam: z.string(), variantParam: z.string(), errors: z.array(docError) }),
  })
  .meta({ id: "PlaygroundEndpoints" });

const endpointDoc = endpointsBodySchema.shape.endpoints.element;

/** describe_endpoint's answer: one endpoint in a few lines, the JSON Schemas only when asked for. */
export const endpointDescriptionSchema = z.object({
  apiBase: z.string().meta({ description: "The demo API's base" }),
  liveApiBase: z.string().meta({ description: "The base on a viewer's own data" }),
  path: z.string(),
  summary: z.string(),
  description: z.string().optional(),
  permission: z.string().optional(),
  params: endpointDoc.shape.params,
  query: z
    .array(
      z.object({
        name: z.string(),
        required: z.boolean(),
        type: z.string(),
        min: z.number().optional().meta({ description: "Numbers: the least value; strings: the least length" }),
        max: z.number().optional().meta({ description: "Numbers: the greatest value; strings: the greatest length" }),
        values: z.array(z.string()).optional(),
        description: z.string().optional(),
      }),
    )
    .meta({ description: "The query parameters, sent as strings" }),
  answer: z.string().meta({ description: "The 200 body's shape, TypeScript-like" }),
  errors: z.array(z.string()).meta({ description: "The errors it may answer, as `<status> <code>`" }),
  pagedList: z.string().optional().meta({ description: "Paged: the key holding the list; follow nextCursor as cursor" }),
  demoVariants: z.array(z.string()).meta({ description: "The endpoint's demo variants (force one with `examples`)" }),
  notes: z.array(z.string()).meta({ description: "The conventions that apply to it: the CX wrapper, cursor paging" }),
  schemas: z.object({ query: jsonSchema, response: jsonSchema, errorEnvelope: jsonSchema }).optional().meta({ description: "With schemas: true" }),
});
