import "server-only";
import { checkDraft } from "./check-draft";
import { createDraft } from "./create-draft";
import { demoApi } from "./demo-api";
import { draftEvents } from "./draft-events";
import { draftRevisions } from "./draft-revisions";
import { endpoints } from "./endpoints";
import { readDraft } from "./read-draft";
import { render } from "./render";
import { renderPicture } from "./render-picture";
import { renderReports } from "./render-reports";
import { scenarios } from "./scenarios";
import { sendRenderReport } from "./send-render-report";
import { updateDraft } from "./update-draft";

// Every playground operation the playground's routes answer, one file each: the route modules
// (routes.ts) are derived from this list, and scripts/registry.test.ts holds it to the
// declarations in lib/contract/operations/ and to app/'s route files.
export const playgroundOperations = [createDraft, checkDraft, readDraft, updateDraft, draftEvents, draftRevisions, renderReports, sendRenderReport, render, renderPicture, demoApi, scenarios, endpoints] as const;

export type PlaygroundRouteKey = (typeof playgroundOperations)[number]["route"];
