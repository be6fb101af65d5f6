// A snapshot's terms, apart from the actions that make one (lib/saved/actions.ts): the reference
// states them too.

/** Who may open a snapshot: its owner alone, anyone signed in, or anyone holding its address. */
export const SNAPSHOT_VISIBILITIES = ["private", "signed_in", "link"] as const;
export const SNAPSHOT_DAYS_DEFAULT = 7;
export const SNAPSHOT_DAYS_MAX = 90;
