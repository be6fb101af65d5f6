import "server-only";
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import { RENDER_VIEWPORTS, renderPageResult, type RenderAnswer, type RenderInput, type RenderViewport } from "@/lib/contract/renders";
import { REPORTS_PER_REVISION, REPORTS_PER_SOURCE, REPORT_REVISIONS, REPORT_MESSAGE_MAX, renderReport, type RenderReport, type ReportSource } from "@/lib/contract/reports";
import type { Dialect } from "@/lib/db/migrate";
import { RenderIdle, RenderTimeout, RendererBusy, type Renderer } from "@/lib/renderer";
import { noSuchDraft, revisionOfDraft, validateDemoState, type DraftContext, type RevisionOfDraft } from "./drafts";
import { insertReport } from "./report-store";
import { findRender, renderPng, storeRender, type StoredRender } from "./render-store";
import { limiterFor } from "@/lib/limits/shared";

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
const DAY_MS = 86_400_000;
const SERVICE: ReportSource = { kind: "service", id: "s-renderer" };

/** A revision's render in one state: stored, and whether it had been before; its PNG when just drawn. */
interface Drawn {
  stored: StoredRender;
  cached: boolean;
  png?: Buffer;
}

type Params = Record<string, string>;
const NO_PARAMS: Params = {};

const sortedRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** What distinguishes one render of a revision from another: the viewport, the demo state and the page parameters. */
function renderKey(viewport: RenderViewport, scenario: string, examples: Record<string, string>, params: Params = NO_PARAMS): string {
  // Without parameters the key is what it was before they existed: kept pictures keep their addresses.
  const parts: unknown[] = [viewport, scenario, sortedRecord(examples)];
  if (Object.keys(params).length > 0) parts.push(sortedRecord(params));
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);
}

/** The render page's address for one revision in one state, its parameters as the watch page's ?p.<name>. */
function renderPagePath(readId: string, revision: number, scenario: string, examples: Record<string, string>, params: Params): string {
  const q = new URLSearchParams({ revision: String(revision), scenario });
  if (Object.keys(examples).length > 0) q.set("examples", JSON.stringify(examples));
  for (const [name, value] of Object.entries(sortedRecord(params))) q.append(`p.${name}`, value);
  return `${PLAYGROUND_BASE}/render/${encodeURIComponent(readId)}?${q}`;
}

const sameState = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

export function createRenders(deps: RendersDeps): Renders {
  const { ctx } = deps;
  const perAddress = limiterFor({ db: ctx.db, dialect: deps.dialect }, "renders", ctx.settings.rendersPerMinute, { now: ctx.now, log: ctx.log });
  const perDraft = limiterFor({ db: ctx.db, dialect: deps.dialect }, "renders-draft", ctx.settings.rendersPerDraftPerMinute, { now: ctx.now, log: ctx.log });
  const cutoff = () => ctx.now() - ctx.settings.draftIdleDays * DAY_MS;
  const inFlight = new Map<string, Promise<Drawn>>();

  const limited = (take: { ok: true } | { ok: false; retryAfterSeconds: number }, limit: string, what: string) => {
    if (take.ok) return;
    deps.refused?.(limit);
    throw new ApiError("rate_limited", `Too many renders ${what}; retry in ${take.retryAfterSeconds} s.`, { "retry-after": String(take.retryAfterSeconds) });
  };

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

  /**
   * The stored render of one revision in one state, drawn first when there is none (under every
   * bound: the allowances per address and per draft, the renderer's pages, shares and time limit).
   * Asked again while it is being drawn here, the same drawing answers both.
   */
  function drawnRender(client: string, readId: string, found: RevisionOfDraft, viewport: RenderViewport, scenario: string, examples: Record<string, string>, key: string, params: Params = NO_PARAMS): Promise<Drawn> {
    const flight = `${readId}|${found.revision.revision}|${key}`;
    const running = inFlight.get(flight);
    if (running) return running;
    const made = drawOnce(client, readId, found, viewport, scenario, examples, key, params).finally(() => inFlight.delete(flight));
    inFlight.set(flight, made);
    return made;
  }

  async function drawOnce(client: string, readId: string, found: RevisionOfDraft, viewport: RenderViewport, scenario: string, examples: Record<string, string>, key: string, params: Params): Promise<Drawn> {
    const { revision } = found.revision;
    const made = await findRender(ctx.db, readId, revision, key);
    if (made) return { stored: made, cached: true };

    const renderer = deps.renderer();
    if (!renderer) {
      throw new ApiError("renderer_not_configured", "This deployment has no browser to render with: its operator installs Chromium (Debian: chromium) or sets RENDERER_CHROMIUM to one. Open the watch link with ?static=1 in a browser of your own meanwhile.");
    }
    // One key for the allowance and for the renderer's share of pages and queue: the address as
    // every limit counts it (an IPv6 address by its /64).
    limited(await perAddress.take(client), "renders", "from your address");
    limited(await perDraft.take(readId), "renders_draft", "of this draft");

    const size = RENDER_VIEWPORTS[viewport];
    const now = ctx.now();
    let report: Omit<RenderReport, "at" | "source">;
    let drawn: { png: Buffer; width: number; height: number } | null = null;
    try {
      const out = await renderer.render({
        path: renderPagePath(readId, revision, scenario, examples, params),
        viewport: size,
        ready: `document.documentElement.dataset.rendered === "true"`,
        result: "window.__dashboardRender ?? null",
        picture: '[data-testid="dashboard-frame"]',
      }, client);
      const parsed = renderPageResult.safeParse(out.result);
      if (!parsed.success) throw new Error("the render page answered no report");
      report = { ...parsed.data.report, page: "render", params };
      drawn = out;
    } catch (err) {
      if (err instanceof RendererBusy) {
        deps.refused?.("renderer");
        const why = err.reason === "share" ? "Your address already has its share of the renderer's pages and queue drawing or waiting" : "Every render slot is taken and the queue is full";
        throw new ApiError("renderer_busy", `${why}; retry in ${err.retryAfterSeconds} s.`, { "retry-after": String(err.retryAfterSeconds) });
      }
      if (!(err instanceof RenderTimeout)) throw err;
      // What the agent needs to know is that it never finished: the service's report says so.
      const message =
        err instanceof RenderIdle
          ? `The dashboard stopped without finishing: for ${err.idleMs / 1000} s it made no request and did no work, and never said it was done (a frame that navigated away, or a wait for something that never comes), so the renderer ended it before its time limit.`
          : `The dashboard did not finish drawing within the renderer's time limit: its page stopped answering (a script that never yields, or a document too large to draw).`;
      report = { page: "render", settled: false, elapsedMs: Math.min(600_000, ctx.now() - now), errors: [{ kind: "error", message: message.slice(0, REPORT_MESSAGE_MAX), line: null, column: null, count: 1 }], console: [], refusals: [], requests: [], dropped: 0, params };
      await keepServiceReport(report);
      throw new ApiError("render_timed_out", `${message} The service's report of revision ${revision} says so (GET …/reports?revision=${revision}).`);
    }
    await keepServiceReport(report);
    const stored: StoredRender = {
      revision,
      viewport,
      scenario,
      examples: JSON.stringify(examples),
      report: JSON.stringify({ at: now, ...report }),
      width: drawn.width,
      height: drawn.height,
      created_at: now,
      bytes: drawn.png.byteLength,
    };
    try {
      await storeRender(ctx.db, { draftId: readId, revision, key, viewport, scenario, examples: stored.examples, report: stored.report, png: drawn.png, width: drawn.width, height: drawn.height, now });
    } catch (err) {
      // The revision was pruned while it was drawn: the answer stands, unkept.
      ctx.log(`a render was not kept: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { stored, cached: false, png: drawn.png };

    /** Among the revision's reports, when drawn as watchers see it. */
    async function keepServiceReport(body: Omit<RenderReport, "at" | "source">): Promise<void> {
      if (scenario !== found.revision.scenario || !sameState(examples, found.revision.examples)) return;
      const recent = Math.min(REPORT_REVISIONS, ctx.settings.historyKeep);
      await insertReport(ctx.db, deps.dialect, {
        draftId: readId,
        revision,
        report: JSON.stringify({ at: ctx.now(), ...body }),
        source: SERVICE,
        failing: body.errors.length > 0,
        now: ctx.now(),
        cutoff: cutoff(),
        recent,
        perRevision: REPORTS_PER_REVISION,
        perSource: REPORTS_PER_SOURCE,
      });
    }
  }
}
