/** Session-storage key under which a page hands a dashboard's HTML to the playground editor. */
export const PLAYGROUND_HANDOFF_KEY = "dashboards:open-in-playground";
