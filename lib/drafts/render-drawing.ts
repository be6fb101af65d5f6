import "server-only";
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/contract/errors";
import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import { RENDER_VIEWPORTS, renderPageResult, type RenderViewport } from "@/lib/contract/renders";
import { REPORTS_PER_REVISION, REPORTS_PER_SOURCE, REPORT_REVISIONS, REPORT_MESSAGE_MAX, type RenderReport, type ReportSource } from "@/lib/contract/reports";
import type { Dialect } from "@/lib/db/migrate";
import { limiterFor } from "@/lib/limits/shared";
import { RenderIdle, RenderTimeout, RendererBusy, type Renderer } from "@/lib/renderer";
import type { DraftContext, RevisionOfDraft } from "./drafts";
import { insertReport } from "./report-store";
import { findRender, storeRender, type StoredRender } from "./render-store";

// One render of a demo draft's revision in one state, drawn (renders.ts answers from it): its key
// and the render page's address, the bounds it is drawn under (the allowances per address and per
// draft, the renderer's own), the report of a render that never finished, and the drawing kept.

const DAY_MS = 86_400_000;
export const SERVICE: ReportSource = { kind: "service", id: "s-renderer" };

/** A revision's render in one state: stored, and whether it had been before; its PNG when just drawn. */
interface Drawn {
  stored: StoredRender;
  cached: boolean;
  png?: Buffer;
}

type Params = Record<string, string>;
export const NO_PARAMS: Params = {};

const sortedRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** What distinguishes one render of a revision from another: the viewport, the demo state and the page parameters. */
export function renderKey(viewport: RenderViewport, scenario: string, examples: Record<string, string>, params: Params = NO_PARAMS): string {
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

interface DrawingDeps {
  ctx: DraftContext;
  dialect: Dialect;
  renderer: () => Renderer | null;
  refused?: (limit: string) => void;
}

/** drawnRender(), with the allowances and the drawings in flight it shares among its callers. */
export function createRenderDrawing(deps: DrawingDeps) {
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

  return drawnRender;

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
