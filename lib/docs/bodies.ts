import { z } from "zod";

// Bodies the reference documents that have no zod schema elsewhere: the playground's two
// descriptive answers (built as plain objects; a test parses the real ones with these) and the
// answer of a save, as decisions.md fixes it.

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

export const savedDashboard = z
  .object({
    path: z.string().meta({ description: "Where the dashboard is: /~/<handle>/<slug>" }),
    revision: z.number().int().meta({ description: "This save's revision; every save keeps the earlier ones" }),
    savedAt: z.number().meta({ description: "Epoch milliseconds of this save" }),
  })
  .meta({ id: "SavedDashboard" });
