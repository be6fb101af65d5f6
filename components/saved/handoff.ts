/** Session-storage key under which a page hands a dashboard's HTML to the playground editor. */
export const PLAYGROUND_HANDOFF_KEY = "dashboards:open-in-playground";

/** Where the editor takes a handed-over dashboard up. */
export const PLAYGROUND_HANDOFF_PATH = "/dashboards/playground?open=saved";

/** What a saved dashboard's page hands over. */
interface HandedOver {
  html: string;
  /** Its slug: Save in the editor adds a revision to the viewer's dashboard of that name. */
  slug: string;
  /** Whose space it is in, for the consent question. */
  owner: { handle: string; name: string };
  /** The revision handed over: the editor says whether its source is still that one. */
  revision: number;
  /** The viewer's own dashboard: it may go on on their live data without asking. */
  own: boolean;
  /** The data it was shown on. Someone else's dashboard opens on demo data whatever this says. */
  dataMode: "demo" | "live";
}

/**
 * Hands a saved dashboard to the editor through this tab's session storage, so nothing about it
 * enters a URL. Only our own pages write there: dashboards run in opaque-origin frames.
 */
export function handOver(storage: Pick<Storage, "setItem">, dashboard: HandedOver): void {
  storage.setItem(
    PLAYGROUND_HANDOFF_KEY,
    JSON.stringify({ html: dashboard.html, dash: dashboard.slug, revision: dashboard.revision, owner: dashboard.owner, own: dashboard.own, dataMode: dashboard.dataMode }),
  );
}
