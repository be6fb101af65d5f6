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

/** describe_endpoint's answer: one endpoint of the list above, with what applies to it. */
export const endpointDescriptionSchema = z.object({
  apiBase: z.string(),
  liveApiBase: z.string(),
  endpoint: endpointsBodySchema.shape.endpoints.element,
  demoVariants: z.array(z.string()).meta({ description: "The endpoint's demo variants (force one with `examples`)" }),
  errorEnvelope: jsonSchema,
  notes: z.array(z.string()).meta({ description: "The conventions that apply to it: the CX wrapper, cursor paging, snapshot fallback" }),
});
