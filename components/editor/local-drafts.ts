import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import { anything, finiteNumber, literal, nonEmptyString, nullable, object, oneOf, optional, parseOrNull, recordOf, string, type Parsed } from "@/lib/contract/json-shape";

// What the editor keeps in the browser between visits: the write capability of each draft this
// browser created, and the edits not yet shared or saved. Plain functions over a Storage-like
// object, so the decisions are tested without a browser.

/** The part of `Storage` used here; every call may throw (storage disabled, quota). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Where edits are kept: the plain editor, or one draft's own address. */
export type EditsScope = { kind: "playground" } | { kind: "draft"; id: string };

const PREFIX = "dashboards:";

/** Key of a draft's write capability; the read id is public, so it may name the key. */
export function writeKey(readId: string): string {
  return `${PREFIX}draft-write:${readId}`;
}

export function editsKey(scope: EditsScope): string {
  return scope.kind === "playground" ? `${PREFIX}unsaved:playground` : `${PREFIX}unsaved:draft:${scope.id}`;
}

/** The address of a draft in the editor: the read id only, never the write token. */
export function draftAddress(readId: string): string {
  return `${PLAYGROUND_BASE}/d/${encodeURIComponent(readId)}`;
}

export const READ_ID_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

const writeCapabilityFields = { postUrl: nonEmptyString, watchUrl: nonEmptyString };
const writeCapability = object(writeCapabilityFields);
type WriteCapability = Parsed<typeof writeCapabilityFields>;

/**
 * The same-origin path a push goes to. A stored capability is used only when its post URL is a
 * write path of this playground: a tampered entry must not turn pushes into requests elsewhere.
 * The origin is not compared, since the server may name a public origin the page does not use.
 */
export function postPathOf(postUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(postUrl, "http://placeholder.invalid");
  } catch {
    return null;
  }
  return /^\/dashboards\/playground\/draft\/[A-Za-z0-9_-]{16,128}$/.test(url.pathname) ? url.pathname : null;
}

function parseJson(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export function readWriteCapability(store: KeyValueStore, readId: string): WriteCapability | null {
  let raw: string | null;
  try {
    raw = store.getItem(writeKey(readId));
  } catch {
    return null;
  }
  const parsed = parseOrNull(writeCapability, parseJson(raw));
  return parsed && postPathOf(parsed.postUrl) ? parsed : null;
}

/** Keeps a capability; false when the browser refused to store it. */
export function keepWriteCapability(store: KeyValueStore, readId: string, capability: WriteCapability): boolean {
  try {
    store.setItem(writeKey(readId), JSON.stringify(capability));
    return true;
  } catch {
    return false;
  }
}

const keptEditsFields = {
  v: literal(1),
  html: string,
  /** The document the edits started from, so they still count as edits once restored. */
  base: object({ id: string, label: string, html: string }),
  /** The saved dashboard the edits belong to, so Save goes back to it. */
  dash: nullable(string),
  dataMode: oneOf("demo", "live"),
  scenario: string,
  examples: recordOf(string),
  keptAt: finiteNumber,
  /** The editor's undo history over `html` (CodeMirror's state JSON, its `doc` equal to `html`), so undo works after a reload. */
  history: optional(anything),
};
const keptEdits = object(keptEditsFields);
export type KeptEdits = Parsed<typeof keptEditsFields>;

/** An undo history larger than this (as JSON) is not kept: the edits matter more than their history. */
export const KEPT_HISTORY_MAX_CHARS = 1_000_000;

/** The history to keep beside `html`: only one that is of that very text and within its bound. */
export function historyToKeep(history: unknown, html: string): unknown {
  if (history === null || typeof history !== "object" || (history as { doc?: unknown }).doc !== html) return undefined;
  try {
    return JSON.stringify(history).length <= KEPT_HISTORY_MAX_CHARS ? history : undefined;
  } catch {
    return undefined;
  }
}

/** Edits older than this are dropped rather than restored: the draft they sat on has long expired. */
export const KEPT_EDITS_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export function readKeptEdits(store: KeyValueStore, scope: EditsScope): KeptEdits | null {
  let raw: string | null;
  try {
    raw = store.getItem(editsKey(scope));
  } catch {
    return null;
  }
  return parseOrNull(keptEdits, parseJson(raw));
}

/** Keeps the edits (or forgets them when `edits` is null); false when the browser refused. */
export function writeKeptEdits(store: KeyValueStore, scope: EditsScope, edits: KeptEdits | null): boolean {
  try {
    if (edits === null) store.removeItem(editsKey(scope));
    else store.setItem(editsKey(scope), JSON.stringify(edits));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether anything is worth keeping: a source that differs from what it started from, or a
 * dashboard handed over from a saved one (which no address can bring back).
 */
export function worthKeeping(html: string, base: { id: string; html: string }): boolean {
  return html !== base.html || base.id === HANDOFF_ID;
}

export const HANDOFF_ID = "handoff";

type RestoreDecision = { kind: "none" } | { kind: "drop" } | { kind: "restore"; edits: KeptEdits };

/**
 * What to do with kept edits when the editor opens on `start` (the example the address asks
 * for, or a draft's latest revision): nothing kept, kept but nothing to bring back (identical,
 * or too old: forget them), or restore them.
 */
export function restoreDecision(kept: KeptEdits | null, start: { html: string }, now: number): RestoreDecision {
  if (!kept) return { kind: "none" };
  if (now - kept.keptAt > KEPT_EDITS_MAX_AGE_MS || kept.keptAt > now + 60_000) return { kind: "drop" };
  if (kept.html === start.html) return { kind: "drop" };
  return { kind: "restore", edits: kept };
}
