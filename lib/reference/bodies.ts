import { z } from "zod";

// Bodies the reference documents that have no zod schema elsewhere: the answer of a save, as
// decisions.md fixes it. The playground's two descriptive answers are in
// lib/contract/playground-bodies.ts.

export const savedDashboard = z
  .object({
    path: z.string().meta({ description: "Where the dashboard is: /~/<handle>/<slug>" }),
    revision: z.number().int().meta({ description: "This save's revision; every save keeps the earlier ones" }),
    savedAt: z.number().meta({ description: "Epoch milliseconds of this save" }),
  })
  .meta({ id: "SavedDashboard" });
