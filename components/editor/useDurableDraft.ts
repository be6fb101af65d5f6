"use client";

import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_BASE } from "@/lib/contract/playground";
import type { EditorExample } from "./editor-example";
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
} from "./local-drafts";
import type { DraftSharing } from "./useDraftSharing";
import type { EditorSource } from "./useEditorSource";
import { useHandoff } from "./useHandoff";
import type { PreviewData, PreviewSettings } from "./usePreviewData";

const KEEP_DEBOUNCE_MS = 500;

/** A draft opened at its own address, as the server read it. */
export interface OpenedDraft {
  id: string;
  revision: number;
  mode: DataMode;
  scenario: string;
  examples: Record<string, string>;
  dash: string | null;
  /** The latest revision, as the editor starts from it. */
  starter: EditorExample;
}

export interface DurableDraftInput {
  opened: OpenedDraft | undefined;
  /** `?open=saved`: take what a saved dashboard's page handed over. */
  openHandoff: boolean | undefined;
  source: EditorSource;
  data: PreviewData;
  sharing: DraftSharing;
  announce: (status: string) => void;
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

/**
 * Drafts that outlive the tab: each has its own address (the read id only), the write capability
 * stays in this browser's storage, and edits not yet shared or saved are kept there too and
 * brought back on the next visit.
 */
export function useDurableDraft({ opened, openHandoff, source, data, sharing, announce }: DurableDraftInput): DurableDraft {
  const [restoredFrom, setRestoredFrom] = useState<number | null>(null);
  const [lastWriteOk, setLastWriteOk] = useState(true);
  const [forking, setForking] = useState(false);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const storageOk = useSyncExternalStore(noSubscription, probeStorage, () => false);
  // The draft this editor writes: the one shared or forked here, or the one its address names.
  const { share, sharedAs } = sharing;
  const currentId = sharedAs?.id ?? opened?.id ?? null;
  const openedId = opened?.id;
  const mayWrite = useSyncExternalStore(
    noSubscription,
    () => (openedId ? readCapability(openedId) : false),
    () => false,
  );
  const access: Access = !opened || share.kind === "shared" || mayWrite ? "write" : hydrated ? "read" : "checking";
  const scope: EditsScope = currentId ? { kind: "draft", id: currentId } : { kind: "playground" };
  const scopeKey = currentId ?? "";

  // What the editor opened on, for Discard.
  const start = useRef<{ starter: EditorExample | undefined; settings: PreviewSettings }>({
    starter: source.starter,
    settings: { mode: data.mode, scenario: data.scenario, examples: data.examples },
  });

  const live = useRef({ source, data, sharing, announce });
  useEffect(() => {
    live.current = { source, data, sharing, announce };
  });

  // The first visit: take up the draft when this browser may write it, then bring back kept edits.
  useEffect(() => {
    const store = browserStore();
    const { source: s, data: d, sharing: sh, announce: say } = live.current;
    let writable = true;
    if (opened) {
      const capability = store ? readWriteCapability(store, opened.id) : null;
      writable = capability !== null;
      if (capability) sh.resume({ id: opened.id, revision: opened.revision, ...capability });
    }
    if (!store || !writable || openHandoff) return;
    const where: EditsScope = opened ? { kind: "draft", id: opened.id } : { kind: "playground" };
    const decision = restoreDecision(readKeptEdits(store, where), { html: start.current.starter?.html ?? "" }, Date.now());
    if (decision.kind === "drop") writeKeptEdits(store, where, null);
    if (decision.kind !== "restore") return;
    const edits = decision.edits;
    // On a draft's address the edits sit on its latest revision, whatever they started from.
    s.restore(opened && start.current.starter ? start.current.starter : { ...edits.base, description: "" }, edits.html);
    // A draft's data mode is fixed at creation; the plain editor's is whatever it was.
    d.restore({ mode: opened ? d.mode : edits.dataMode, scenario: edits.scenario, examples: edits.examples });
    if (!opened) sh.setDash(edits.dash);
    say("Restored your unsaved edits.");
    // The time is shown in the notice; state set from storage, which the server cannot see.
    queueMicrotask(() => setRestoredFrom(edits.keptAt));
    // Once, on the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // "Open in playground" on a saved dashboard: its HTML, slug and data mode, not shared until asked.
  useHandoff(openHandoff, (handoff) => {
    const { source: s, data: d, sharing: sh, announce: say } = live.current;
    if (!handoff) {
      say("Nothing was handed over to open; the editor starts from the example.");
      return;
    }
    s.load({ id: HANDOFF_ID, label: handoff.label, description: "", html: handoff.html });
    d.restore({ mode: handoff.dataMode });
    sh.setDash(handoff.dash ?? null);
    // What was handed over is kept in this browser from now on, so a reload must not look for it again.
    window.history.replaceState(null, "", PLAYGROUND_BASE);
    say(`Opened ${handoff.label} from your space. Saving adds a revision to it; nothing is shared until you share.`);
  });

  // A new draft of this browser's own (shared, or forked): its address, and its capability kept.
  const addressed = useRef(opened?.id ?? null);
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
  }, [share, sharedAs]);

  // Edits are kept a moment after each change, and at once when the page goes away.
  const { html, starter } = source;
  const { mode, scenario, examples } = data;
  const { dash } = sharing;
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (access !== "write" || !starter) return;
    const store = browserStore();
    if (!store) return;
    const where: EditsScope = scopeKey ? { kind: "draft", id: scopeKey } : { kind: "playground" };
    const write = () => {
      pending.current = null;
      const edits: KeptEdits | null = worthKeeping(html, starter)
        ? { v: 1, html, base: { id: starter.id, label: starter.label, html: starter.html }, dash, dataMode: mode, scenario, examples, keptAt: Date.now() }
        : null;
      setLastWriteOk(writeKeptEdits(store, where, edits));
    };
    pending.current = write;
    const timer = setTimeout(write, KEEP_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [access, scopeKey, html, starter, dash, mode, scenario, examples]);

  // A reload, a closed tab, or another page of the site: the latest edits are kept first.
  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, []);

  const discardRestored = () => {
    const { source: s, data: d, sharing: sh, announce: say } = live.current;
    const was = start.current;
    if (was.starter) s.load(was.starter);
    d.restore(was.settings);
    if (!opened) sh.setDash(null);
    const store = browserStore();
    if (store) writeKeptEdits(store, scope, null);
    setRestoredFrom(null);
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

  return { access, fork, forking, restoredFrom, discardRestored, kept: storageOk && lastWriteOk };
}
