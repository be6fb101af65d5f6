import "server-only";
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

/** The playground's tools, in the order tools/list names them: the loop's first. */
export const playgroundTools: readonly PlaygroundTool[] = [
  checkHtml,
  createDraft,
  updateDraft,
  readDraftTool,
  readRenderReports,
  renderDraft,
  listScenarios,
  describeEndpointTool,
  showDraft,
  readDemoData,
];
