/** Session-storage key under which a page hands a dashboard's HTML to the playground editor. */
export const PLAYGROUND_HANDOFF_KEY = "dashboards:open-in-playground";

/** Where the editor takes a handed-over dashboard up. */
export const PLAYGROUND_HANDOFF_PATH = "/dashboards/playground?open=saved";

/**
 * Hands a saved dashboard to the editor through this tab's session storage, so nothing about it
 * enters a URL: its HTML, its slug (Save in the editor adds a revision to it) and the data it was
 * shown on.
 */
export function handOver(storage: Pick<Storage, "setItem">, dashboard: { html: string; slug: string; dataMode: "demo" | "live" }): void {
  storage.setItem(PLAYGROUND_HANDOFF_KEY, JSON.stringify({ html: dashboard.html, dash: dashboard.slug, dataMode: dashboard.dataMode }));
}
