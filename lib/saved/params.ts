import "server-only";
import { ApiError } from "@/lib/contract/errors";
import { RENDER_VIEWPORTS, type RenderViewport } from "@/lib/contract/renders";
import { parseDashboardParams, type DashboardParams } from "@/lib/frame/params";

/** A path segment as the person typed it; a malformed escape is kept as given (and finds nothing). */
export function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `?revision=N` when it is a positive integer, else undefined (the latest). */
export function revisionParam(raw: string | string[] | undefined | null): number | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : undefined;
}

/** A drawing's query, as /drawn, /drawn.png and a draft's /drawn read it. */
interface DrawingQuery {
  viewport: RenderViewport;
  revision: number | undefined;
  /** The page's `?p.*` values, bounded as the page bounds them: the drawing reads them as DASHBOARD_PARAMS. */
  params: DashboardParams;
}

export function drawingQuery(search: URLSearchParams): DrawingQuery {
  const viewport = search.get("viewport") ?? "desktop";
  if (!Object.hasOwn(RENDER_VIEWPORTS, viewport)) throw new ApiError("invalid_request", `viewport: one of ${Object.keys(RENDER_VIEWPORTS).join(", ")}.`);
  return { viewport: viewport as RenderViewport, revision: revisionParam(search.get("revision")), params: parseDashboardParams(search).params };
}
