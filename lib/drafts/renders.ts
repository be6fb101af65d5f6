import "server-only";
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import { RENDER_VIEWPORTS, type RenderAnswer, type RenderInput, type RenderViewport } from "@/lib/contract/renders";
import { renderReport } from "@/lib/contract/reports";
import type { Dialect } from "@/lib/db/migrate";
import type { Renderer } from "@/lib/renderer";
import { noSuchDraft, revisionOfDraft, validateDemoState, type DraftContext, type RevisionOfDraft } from "./drafts";
import { findRender, renderPng, type StoredRender } from "./render-store";
import { createRenderDrawing, NO_PARAMS, renderKey, SERVICE } from "./render-drawing";

// The service's own renders of demo drafts: POST /draft/<read_id>/render draws a revision in the
// service's headless Chromium through the page the renderer opens (/dashboards/playground/render/
// <read_id>: the same frame and broker a watcher gets, on the demo API), and answers the render
// report and a PNG of the whole dashboard, the frame sized to its content. An agent gets eyes
// without a browser of its own, and evidence nobody outside can forge.
//
// - Demo drafts only: a live draft reads each viewer's own data, and the server has no viewer.
// - A render is kept per revision, viewport, demo state and page parameters (draft_renders):
//   asked again, it is answered from storage by any instance, and costs no render. Parameters
//   reach the dashboard as the watch page's ?p.<name> would, checked by the page's own rules.
// - The picture of a revision in its own state is also drawn on the first GET of its address, so
//   a demo draft's watch page can name it as its link preview (og:image, preview()) before
//   anyone has asked for a render: a crawler's fetch meets the same bounds as an agent's render.
// - The report is stored among the revision's render reports as the service's own (`source.kind`
//   `service`) when the state is the revision's own, which no report posted from outside
//   displaces (report-store.ts).
// - Bounded: the renderer's own slots, queue and time limit, each client address's share of the
//   slots and queue, an early end for a render that waits on nothing (lib/renderer), and renders
//   per client address and per draft per minute, shared across instances on PostgreSQL.

/** Who asked for a render: the address its allowance and renderer share are counted by, and the origin its picture's URL is written under. */
interface RenderCaller {
  address: string;
  origin: string;
}

/** A render's picture, with the entity tag a conditional GET is answered by. */
export interface Picture {
  png: Uint8Array;
  etag: string;
}

export interface Renders {
  /** POST /draft/<read_id>/render */
  render(readId: string, input: RenderInput, caller: RenderCaller): Promise<RenderAnswer>;
  /** GET /draft/<read_id>/render/<revision>-<key>.png: `address` is counted for the drawing a first GET makes. */
  picture(readId: string, file: string, address: string): Promise<Picture>;
  /**
   * The link preview of a demo draft's current revision: the path of its picture at desktop width
   * in the revision's own state (drawn on its first GET), with its size once drawn; null for a
   * live draft, whose picture would need a viewer's data, or for no draft.
   */
  preview(readId: string): Promise<{ path: string; width?: number; height?: number } | null>;
}

interface RendersDeps {
  ctx: DraftContext;
  dialect: Dialect;
  /** The renderer, or null when this deployment has no browser. */
  renderer: () => Renderer | null;
  refused?: (limit: string) => void;
}

const READ_ID_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const PICTURE_FILE = /^([1-9][0-9]{0,14})-([0-9a-f]{16})\.png$/;

export function createRenders(deps: RendersDeps): Renders {
  const { ctx } = deps;
  const drawnRender = createRenderDrawing(deps);

  const answerOf = (origin: string, readId: string, currentRevision: number, key: string, stored: StoredRender, cached: boolean): RenderAnswer => {
    const report = renderReport.parse({ ...(JSON.parse(stored.report) as object), source: SERVICE });
    return {
      revision: stored.revision,
      currentRevision,
      viewport: stored.viewport as RenderViewport,
      scenario: stored.scenario,
      examples: JSON.parse(stored.examples) as Record<string, string>,
      params: report.params,
      report,
      picture: {
        url: `${origin}${PLAYGROUND_BASE}/draft/${encodeURIComponent(readId)}/render/${stored.revision}-${key}.png`,
        width: stored.width,
        height: stored.height,
        bytes: stored.bytes,
      },
      cached,
    };
  };

  return {
    async render(readId, input, caller) {
      if (!READ_ID_SHAPE.test(readId)) throw noSuchDraft(ctx.settings);
      const found = await revisionOfDraft(ctx, readId, input.revision ?? null);
      if (found.dataMode !== "demo") {
        throw new ApiError("render_demo_only", "This draft renders each viewer's own live data; the service has no viewer, so it draws demo-mode drafts only. Create the draft with dataMode demo to have it rendered.");
      }
      const viewport = input.viewport ?? "desktop";
      const scenario = input.scenario ?? found.revision.scenario;
      const examples = input.examples ?? found.revision.examples;
      validateDemoState({ scenario, examples });
      const params = input.params ?? NO_PARAMS;
      const key = renderKey(viewport, scenario, examples, params);
      const { stored, cached } = await drawnRender(caller.address, readId, found, viewport, scenario, examples, key, params);
      return answerOf(caller.origin, readId, found.currentRevision, key, stored, cached);
    },

    async picture(readId, file, address) {
      const m = PICTURE_FILE.exec(file);
      if (!READ_ID_SHAPE.test(readId) || !m) throw new ApiError("not_found", "A render's picture is at the url its render answered: <revision>-<key>.png.");
      const revision = Number(m[1]);
      const key = m[2] ?? "";
      let png = await renderPng(ctx.db, readId, revision, key);
      if (!png) {
        // A revision's own state, at either size, is drawn on its first GET: the address a watch
        // page's link preview names before anyone has asked for a render (preview()).
        const own = await ownState(readId, revision, key);
        if (own) {
          const made = await drawnRender(address, readId, own.found, own.viewport, own.found.revision.scenario, own.found.revision.examples, key);
          png = made.png ?? (await renderPng(ctx.db, readId, revision, key));
        }
      }
      if (!png) throw new ApiError("not_found", "No such render: it was never made, or its revision is no longer kept. POST /draft/<read_id>/render draws it.");
      return { png, etag: `"${createHash("sha256").update(png).digest("base64url").slice(0, 22)}"` };
    },

    async preview(readId) {
      if (!READ_ID_SHAPE.test(readId)) return null;
      let found: RevisionOfDraft;
      try {
        found = await revisionOfDraft(ctx, readId, null);
      } catch (err) {
        if (err instanceof ApiError) return null;
        throw err;
      }
      if (found.dataMode !== "demo") return null;
      const { revision, scenario, examples } = found.revision;
      const key = renderKey("desktop", scenario, examples);
      const path = `${PLAYGROUND_BASE}/draft/${encodeURIComponent(readId)}/render/${revision}-${key}.png`;
      const made = await findRender(ctx.db, readId, revision, key);
      return made ? { path, width: made.width, height: made.height } : { path };
    },
  };

  /** The revision and size whose own demo state `key` names, when the draft is a demo draft and keeps that revision. */
  async function ownState(readId: string, revision: number, key: string): Promise<{ found: RevisionOfDraft; viewport: RenderViewport } | null> {
    let found: RevisionOfDraft;
    try {
      found = await revisionOfDraft(ctx, readId, revision);
    } catch (err) {
      if (err instanceof ApiError) return null;
      throw err;
    }
    // Never anyone's live data: the service draws only what anyone with the link sees.
    if (found.dataMode !== "demo") return null;
    const viewport = (Object.keys(RENDER_VIEWPORTS) as RenderViewport[]).find((v) => renderKey(v, found.revision.scenario, found.revision.examples) === key);
    return viewport ? { found, viewport } : null;
  }
}
