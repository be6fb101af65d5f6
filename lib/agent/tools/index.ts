import "server-only";
import { toolOperations } from "@/lib/contract/operations";
import { checkHtml } from "./check-html";
import { createDraft } from "./create-draft";
import { describeEndpointTool } from "./describe-endpoint";
import { listScenarios } from "./list-scenarios";
import { readDemoData } from "./read-demo-data";
import { readDraftTool } from "./read-draft";
import { readRenderReports } from "./read-render-reports";
import { renderDraft } from "./render-draft";
import { showDraft } from "./show-draft";
import { updateDraft } from "./update-draft";
import type { PlaygroundTool } from "./shared";

/** Every tool's implementation, one module each; scripts/registry.test.ts holds them to the declared tools. */
export const toolImplementations: readonly PlaygroundTool[] = [checkHtml, createDraft, describeEndpointTool, listScenarios, readDemoData, readDraftTool, readRenderReports, renderDraft, showDraft, updateDraft];

/** The playground's tools, in the order their declarations give tools/list (lib/contract/operations/index.ts). */
export const playgroundTools: readonly PlaygroundTool[] = toolOperations.map((o) => {
  const found = toolImplementations.find((t) => t.op === o.id);
  if (!found) throw new Error(`The MCP tool ${o.tool.name} (${o.id}) has no implementation in lib/agent/tools/`);
  return found;
});
