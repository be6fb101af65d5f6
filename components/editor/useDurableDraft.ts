"use client";

import { useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import type { DraftView } from "@/lib/contract/playground";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import { draftViewShape } from "@/lib/contract/draft-shapes";
import { parseOrNull } from "@/lib/contract/json-shape";
import { htmlTitle } from "@/lib/saved/slug";
import type { EditorExample } from "./editor-example";
import { errorText } from "./error-text";
import {
  HANDOFF_ID,
  draftAddress,
  keepWriteCapability,
  readKeptEdits,
  readWriteCapability,
  restoreDecision,
  worthKeeping,
  writeKeptEdits,
  type EditsScope,
  type KeptEdits,
  type KeyValueStore,
  historyToKeep,
} from "./local-drafts";
import type { DraftSharing } from "./useDraftSharing";
import type { EditorSource } from "./useEditorSource";
import { useHandoff } from "./useHandoff";
import type { PreviewData, PreviewSettings } from "./usePreviewData";

const KEEP_DEBOUNCE_MS = 500;

/** What the editor shows on a draft's address until the draft has been read. */
export function draftLoading(id: string): EditorExample {
  return { id: `draft-${id}`, label: "draft", description: "", html: "" };
}

/** A busy server asks a reader to come back (429 with Retry-After): at most this long, this often. */
const BUSY_WAIT_MAX_S = 10;
const BUSY_TRIES = 6;

type Read = { kind: "ready"; view: DraftView } | { kind: "failed"; message: string };

/** The draft's latest revision through its public read route, which limits readers as for watchers. */
async function readLatest(id: string, tries = BUSY_TRIES): Promise<Read> {
  try {
    const res = await fetch(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`, { cache: "no-store", credentials: "omit" });
    if (res.status === 429 && tries > 1) {
      const wait = Math.min(BUSY_WAIT_MAX_S, Math.max(1, Number(res.headers.get("retry-after")) || 1));
      await new Promise((r) => setTimeout(r, wait * 1000));
      return readLatest(id, tries - 1);
    }
    if (res.status === 404) return { kind: "failed", message: "this draft no longer exists" };
    if (!res.ok) return { kind: "failed", message: await errorText(res) };
    const view = parseOrNull(draftViewShape, await res.json());
    return view ? { kind: "ready", view } : { kind: "failed", message: "the playground answered something unexpected" };
  } catch {
    return { kind: "failed", message: "the playground did not answer" };
  }
}

interface DurableDraftInput {
  /** The read id of the draft whose address the editor was opened on. */
  draftId: string | undefined;
  /** `?open=saved`: take what a saved dashboard's page handed over. */
  openHandoff: boolean | undefined;
  source: EditorSource;
  data: PreviewData;
  sharing: DraftSharing;
  announce: (status: string) => void;
  /** The editor's state JSON with its undo history, kept beside the edits. */
  historyOf?: () => unknown;
  /** The viewer's own saved dashboard was handed over: saving goes on adding revisions to it. */
  onOwnHandoff?: (from: { starter: EditorExample; slug: string; revision: number; html: string }) => void;
}

/** Whether this browser may write the draft at this address. */
export type Access = "checking" | "write" | "read";

export interface DurableDraft {
  access: Access;
  /** A draft opened read-only: creates a draft of this browser's own from what is shown. */
  fork: () => Promise<void>;
  forking: boolean;
  /** When edits kept in this browser were brought back, when they had been kept. */
  restoredFrom: number | null;
  /** Goes back to what the editor opened on, and forgets the kept edits. */
  discardRestored: () => void;
  /** Whether the edits are kept in this browser, so leaving the page loses nothing. */
  kept: boolean;
  /** The watch page of the draft at this address, to follow it live where it cannot be written. */
  watchPath: string | null;
}

function browserStore(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const noSubscription = () => () => {};

function readCapability(readId: string): boolean {
  const store = browserStore();
  return store !== null && readWriteCapability(store, readId) !== null;
}

// Whether this browser keeps what is written to its storage (not when disabled or full), probed once.
let storageWorks: boolean | null = null;
function probeStorage(): boolean {
  if (storageWorks === null) {
    const store = browserStore();
    const probe = "dashboards:probe";
    storageWorks = store !== null && keepProbe(store, probe);
  }
  return storageWorks;
}
function keepProbe(store: KeyValueStore, key: string): boolean {
  try {
    store.setItem(key, "1");
    store.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

type LiveRef = RefObject<{ source: EditorSource; data: PreviewData; sharing: DraftSharing; announce: (status: string) => void }>;
type StartRef = RefObject<{ starter: EditorExample | undefined; settings: PreviewSettings }>;

// Brings back the edits kept for `where` when they differ from what the editor opened on.
function restoreKept(live: LiveRef, start: StartRef, store: KeyValueStore, where: EditsScope, onDraft: boolean): { edits: KeptEdits; starter: EditorExample } | null {
  const { source: s, data: d, sharing: sh, announce: say } = live.current;
  const decision = restoreDecision(readKeptEdits(store, where), { html: start.current.starter?.html ?? "" }, Date.now());
  if (decision.kind === "drop") writeKeptEdits(store, where, null);
  if (decision.kind !== "restore") return null;
  const edits = decision.edits;
  // On a draft's address the edits sit on its latest revision, whatever they started from.
  const base: EditorExample =
    onDraft && start.current.starter
      ? start.current.starter
      : { ...edits.base, description: "", source: { from: `edits kept in this browser, started from “${edits.base.label}”`, own: false } };
  s.restore(base, edits.html, edits.history);
  // A draft's data mode is fixed at creation; the plain editor's is whatever it was.
  d.restore({ mode: onDraft ? start.current.settings.mode : edits.dataMode, scenario: edits.scenario, examples: edits.examples });
  if (!onDraft) sh.setDash(edits.dash);
  say("Restored your unsaved edits.");
  return { edits, starter: base };
}

/** What the editor opens on for a draft's latest revision. */
function draftStarter(view: DraftView): EditorExample {
  return {
    id: `draft-${view.id}`,
    label: view.dash ?? htmlTitle(view.html) ?? "draft",
    description: "",
    html: view.html,
    warnings: view.warnings,
    // Whoever holds the write link writes a draft, this browser or not: never the viewer's own code.
    source: { from: "a playground draft, written by whoever holds its write link (an agent, or anyone it was shared with)", own: false },
  };
}

/** "Open in playground" on a saved dashboard: its HTML, slug and data mode, not shared until asked. */
function useHandoffOpen(openHandoff: boolean | undefined, live: LiveRef, onOwnHandoff: DurableDraftInput["onOwnHandoff"]): void {
  useHandoff(openHandoff, (handoff) => {
    const { source: s, data: d, sharing: sh, announce: say } = live.current;
    if (!handoff) {
      say("Nothing was handed over to open; the editor starts from the example.");
      return;
    }
    const starter: EditorExample = { id: HANDOFF_ID, label: handoff.label, description: "", html: handoff.html, source: handoff.source };
    s.load(starter);
    d.restore({ mode: handoff.dataMode });
    sh.setDash(handoff.dash ?? null);
    if (handoff.source.own && handoff.dash && handoff.revision) onOwnHandoff?.({ starter, slug: handoff.dash, revision: handoff.revision, html: handoff.html });
    // What was handed over is kept in this browser from now on, so a reload must not look for it again.
    window.history.replaceState(null, "", PLAYGROUND_BASE);
    say(
      handoff.source.own
        ? `Opened ${handoff.label} from your space. Saving adds a revision to it; nothing is shared until you share.`
        : `Opened ${handoff.label} on demo data: it is not yours, so it reads your data only if you choose My live data and agree. Saving puts a copy in your space.`,
    );
  });
}

/** A new draft of this browser's own (shared, or forked): its address, and its capability kept. */
function useDraftAddress(draftId: string | undefined, { share, sharedAs }: Pick<DraftSharing, "share" | "sharedAs">, live: LiveRef): void {
  const addressed = useRef(draftId ?? null);
  useEffect(() => {
    if (share.kind !== "shared" || !sharedAs || sharedAs.id === addressed.current) return;
    const before = addressed.current;
    addressed.current = sharedAs.id;
    const store = browserStore();
    const stored = store ? keepWriteCapability(store, sharedAs.id, { postUrl: share.postUrl, watchUrl: share.watchUrl }) : false;
    // The edits now live in the draft; the plain editor's copy would come back on its next visit.
    if (store && !before) writeKeptEdits(store, { kind: "playground" }, null);
    window.history.replaceState(null, "", draftAddress(sharedAs.id));
    if (!stored) live.current.announce("This browser would not keep the draft's write link: it can be edited only until this page is closed.");
    // `live` is a ref: the same object for the editor's life, so it never runs the effect again.
  }, [share, sharedAs, live]);
}

/** Edits are kept a moment after each change, and at once when the page goes away; whether the last write held. */
function useKeptEdits(access: Access, scopeKey: string, source: EditorSource, data: PreviewData, sharing: DraftSharing, latestHistoryOf: RefObject<(() => unknown) | undefined>): boolean {
  const { html, starter } = source;
  const { mode, scenario, examples } = data;
  const { dash } = sharing;
  const [lastWriteOk, setLastWriteOk] = useState(true);
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (access !== "write" || !starter) return;
    const store = browserStore();
    if (!store) return;
    const where: EditsScope = scopeKey ? { kind: "draft", id: scopeKey } : { kind: "playground" };
    const write = () => {
      pending.current = null;
      const history = historyToKeep(latestHistoryOf.current?.(), html);
      const edits: KeptEdits | null = worthKeeping(html, starter)
        ? { v: 1, html, base: { id: starter.id, label: starter.label, html: starter.html }, dash, dataMode: mode, scenario, examples, keptAt: Date.now(), ...(history === undefined ? {} : { history }) }
        : null;
      setLastWriteOk(writeKeptEdits(store, where, edits));
    };
    pending.current = write;
    const timer = setTimeout(write, KEEP_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [access, scopeKey, html, starter, dash, mode, scenario, examples, latestHistoryOf]);

  // A reload, a closed tab, or another page of the site: the latest edits are kept first.
  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, []);
  return lastWriteOk;
}

/**
 * Drafts that outlive the tab: each has its own address (the read id only), the write capability
 * stays in this browser's storage, and edits not yet shared or saved are kept there too and
 * brought back on the next visit.
 */
export function useDurableDraft({ draftId, openHandoff, source, data, sharing, announce, historyOf, onOwnHandoff }: DurableDraftInput): DurableDraft {
  // The edits brought back, on what, and at which revision: the notice holds while they are still
  // unsaved edits on that document (not once pushed as a revision, shared, or replaced).
  const [restored, setRestored] = useState<{ keptAt: number; starter: EditorExample; revision: number | null } | null>(null);
  const [forking, setForking] = useState(false);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const storageOk = useSyncExternalStore(noSubscription, probeStorage, () => false);
  // The draft this editor writes: the one shared or forked here, or the one its address names.
  const { share, sharedAs } = sharing;
  const currentId = sharedAs?.id ?? draftId ?? null;
  // Read once it has been read: until then the editor holds nothing to write or to fork.
  const [loaded, setLoaded] = useState(false);
  const mayWrite = useSyncExternalStore(
    noSubscription,
    () => (draftId ? readCapability(draftId) : false),
    () => false,
  );
  const access: Access = !draftId || share.kind === "shared" ? "write" : loaded && hydrated && !mayWrite ? "read" : "checking";
  const scope: EditsScope = currentId ? { kind: "draft", id: currentId } : { kind: "playground" };
  const scopeKey = currentId ?? "";

  // What the editor opened on, for Discard.
  const start = useRef<{ starter: EditorExample | undefined; settings: PreviewSettings }>({
    starter: source.starter,
    settings: { mode: data.mode, scenario: data.scenario, examples: data.examples },
  });

  const live = useRef({ source, data, sharing, announce });
  const latestHistoryOf = useRef(historyOf);
  useEffect(() => {
    latestHistoryOf.current = historyOf;
  });
  useEffect(() => {
    live.current = { source, data, sharing, announce };
  });

  // The first visit. On a draft's address: read its latest revision, take it up when this browser
  // may write it, then bring back edits kept for it. In the plain editor: bring back kept edits.
  useEffect(() => {
    const store = browserStore();
    if (!draftId) {
      if (!store || openHandoff) return;
      const back = restoreKept(live, start, store, { kind: "playground" }, false);
      // The notice's time comes from storage, which the server cannot see: set after hydration.
      if (back) queueMicrotask(() => setRestored({ keptAt: back.edits.keptAt, starter: back.starter, revision: null }));
      return;
    }
    let cancelled = false;
    live.current.announce("Reading the draft…");
    void (async () => {
      const read = await readLatest(draftId);
      if (cancelled) return;
      const { source: s, data: d, sharing: sh, announce: say } = live.current;
      if (read.kind === "failed") {
        say(`The draft could not be read: ${read.message}. Reload the page to try again.`);
        return;
      }
      const view = read.view;
      const starter = draftStarter(view);
      start.current = { starter, settings: { mode: view.dataMode, scenario: view.scenario, examples: view.examples } };
      s.load(starter);
      d.restore(start.current.settings);
      sh.setDash(view.dash);
      const capability = store ? readWriteCapability(store, view.id) : null;
      if (capability) sh.resume({ id: view.id, revision: view.revision, ...capability, draft: { html: view.html, scenario: view.scenario, examples: view.examples } });
      setLoaded(true);
      say(capability ? `Opened your draft at revision ${view.revision}; each edit goes to watchers.` : `Opened the draft at revision ${view.revision}, read-only.`);
      const back = store && capability ? restoreKept(live, start, store, { kind: "draft", id: view.id }, true) : null;
      if (back) setRestored({ keptAt: back.edits.keptAt, starter: back.starter, revision: view.revision });
    })();
    return () => {
      cancelled = true;
    };
    // Once, on the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useHandoffOpen(openHandoff, live, onOwnHandoff);

  useDraftAddress(draftId, sharing, live);

  const lastWriteOk = useKeptEdits(access, scopeKey, source, data, sharing, latestHistoryOf);

  const discardRestored = () => {
    const { source: s, data: d, sharing: sh, announce: say } = live.current;
    const was = start.current;
    if (was.starter) s.load(was.starter);
    d.restore(was.settings);
    if (!draftId) sh.setDash(null);
    const store = browserStore();
    if (store) writeKeptEdits(store, scope, null);
    setRestored(null);
    say("Discarded your unsaved edits.");
  };

  const fork = async () => {
    setForking(true);
    try {
      await sharing.shareDraft(source.html, sharing.dash ?? undefined);
    } finally {
      setForking(false);
    }
  };

  const restoredFrom = restored && restored.starter === source.starter && restored.revision === sharing.revision ? restored.keptAt : null;
  const watchPath = draftId ? `${PLAYGROUND_BASE}/watch/${encodeURIComponent(draftId)}` : null;
  return { access, fork, forking, restoredFrom, discardRestored, kept: storageOk && lastWriteOk, watchPath };
}
