import fs from "node:fs";
import path from "node:path";

// The route a request path belongs to, as the build names it (`/dashboards/playground/draft/[token]`):
// the label requests are counted and logged under. A template never carries a path value, so a
// draft id or a write token in the address stays out of logs and metrics, and the number of
// labels stays the number of routes whatever addresses clients invent.

interface ManifestRoute {
  page: string;
  regex: string;
}

interface RoutesManifest {
  staticRoutes?: ManifestRoute[];
  dynamicRoutes?: ManifestRoute[];
}

/** Paths no route answers share one label. */
export const UNMATCHED = "(unmatched)";
const STATIC_FILES = "/_next/static";

export type RouteTemplate = (pathname: string) => string;

export function routeTemplates(manifest: RoutesManifest): RouteTemplate {
  const exact = new Map<string, string>();
  for (const r of manifest.staticRoutes ?? []) exact.set(r.page, r.page);
  const dynamic = (manifest.dynamicRoutes ?? []).map((r) => ({ page: r.page, re: new RegExp(r.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return STATIC_FILES;
    const bare = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    const hit = exact.get(bare);
    if (hit) return hit;
    for (const d of dynamic) if (d.re.test(pathname)) return d.page;
    return UNMATCHED;
  };
}

/** The production build's route table (`.next/routes-manifest.json`); every path is unmatched without a build. */
export function buildRouteTemplates(root = process.cwd()): RouteTemplate {
  try {
    const text = fs.readFileSync(path.join(root, ".next", "routes-manifest.json"), "utf8");
    return routeTemplates(JSON.parse(text) as RoutesManifest);
  } catch {
    return routeTemplates({});
  }
}
