import { agentOperations } from "./agent";
import { draftOperations } from "./drafts";
import { oauthOperations } from "./oauth";
import { operatorOperations } from "./operators";
import { renderOperations } from "./renders";
import { savingOperations } from "./saving";
import type { SiteOperationDef } from "./types";

// Every operation the service answers outside /api (whose endpoints are lib/contract/endpoints.ts):
// the playground's, saving's, the OAuth server's that MCP hosts connect through, and the
// operators'. Each is declared once, in its family's file here: its method, path, summary, the
// reference's words on it, the errors it answers, its schemas, and the MCP tool that mirrors it.
// The reference (lib/reference/operations.ts) documents each from its entry, the MCP server
// (lib/agent/tools) names and describes each tool from it, and the playground's handlers
// (lib/playground/operations) take their method from it; scripts/registry.test.ts fails when a
// route, a documented operation, a handler or an MCP tool has no entry, or an entry's tool no
// implementation.

export const siteOperations = [...draftOperations, ...agentOperations, ...renderOperations, ...savingOperations, ...oauthOperations, ...operatorOperations] as const satisfies readonly SiteOperationDef[];

type SiteOperation = (typeof siteOperations)[number];
export type SiteOperationId = SiteOperation["id"];
/** An operation's declaration, with its own schemas' types. */
export type DeclarationOf<I extends SiteOperationId> = Extract<SiteOperation, { id: I }>;
type WithTool = Extract<SiteOperation, { tool: object }>;
export type ToolOperationId = WithTool["id"];

/** An operation's declaration, by its id, with its own schemas' types. */
export function siteOperationById<I extends SiteOperationId>(id: I): DeclarationOf<I> {
  const found = siteOperations.find((o): o is DeclarationOf<I> => o.id === id);
  if (!found) throw new Error(`No operation ${id}`);
  return found;
}

/** The operations an MCP tool mirrors, in the order tools/list names their tools: the loop's first. */
export const toolOperations: readonly WithTool[] = (
  [
    "playground.checkDraft",
    "playground.createDraft",
    "playground.updateDraft",
    "playground.readDraft",
    "playground.renderReports",
    "playground.render",
    "playground.scenarios",
    "playground.endpoints",
    "playground.draftEvents",
    "playground.demoApi",
  ] as const satisfies readonly ToolOperationId[]
).map((id) => siteOperationById(id));
