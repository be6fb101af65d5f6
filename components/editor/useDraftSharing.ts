"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import { errorText } from "./error-text";

const PUSH_DEBOUNCE_MS = 800;

/** What the draft is: everything pushed to watchers. */
interface DraftState {
  html: string;
  scenario: string;
  examples: Record<string, string>;
}

export type Share =
  | { kind: "idle" }
  | { kind: "creating" }
  | { kind: "failed"; message: string }
  // postUrl carries the write token: it lives in this state only, never in the URL or a log.
  | { kind: "shared"; postUrl: string; watchUrl: string };

interface DraftSharingInput extends DraftState {
  mode: DataMode;
  /** The name a person would save the draft under, at first; sent with the draft when it is shared. */
  dash?: string | null;
  /** Says how sharing, pushing and copying went, in the editor's status line. */
  announce: (status: string) => void;
}

/** The revision watchers have, and what it is, so a render of the same can report on it. */
export interface SharedRevision {
  /** The draft's read id. */
  id: string;
  revision: number;
  live: boolean;
  draft: DraftState;
}

export interface DraftSharing {
  share: Share;
  /** The draft's revision watchers have, once shared. */
  revision: number | null;
  sharedAs: SharedRevision | null;
  /** Whether the watch link has been copied. */
  copied: boolean;
  /** Creates a draft of `source` (the current source unless given); from then on each edit is pushed to it. */
  shareDraft: (source?: string, dash?: string) => Promise<void>;
  copyWatchLink: (watchUrl: string) => Promise<void>;
  /** The name a person would save the draft under (a saved dashboard's slug), if there is one. */
  dash: string | null;
  setDash: (dash: string | null) => void;
  /** Takes up a draft this browser created earlier, at `revision`, as it is in the editor now. */
  resume: (draft: ResumedDraft) => void;
}

/** A draft created earlier, with the write capability kept for it. */
export interface ResumedDraft {
  id: string;
  postUrl: string;
  watchUrl: string;
  revision: number;
  /** What the revision holds, which the editor now shows. */
  draft: DraftState;
}

/** Sharing the source as a draft, and pushing each later edit to its watchers. */
export function useDraftSharing({ html, scenario, examples, mode, dash: initialDash = null, announce }: DraftSharingInput): DraftSharing {
  const [share, setShare] = useState<Share>({ kind: "idle" });
  const [dash, setDash] = useState<string | null>(initialDash);
  const [revision, setRevision] = useState<number | null>(null);
  const [sharedAs, setSharedAs] = useState<SharedRevision | null>(null);
  const [copied, setCopied] = useState(false);
  const live = mode === "live";
  const draft: DraftState = useMemo(() => ({ html, scenario, examples }), [html, scenario, examples]);
  const onPushed = useCallback((pushed: number, sent: DraftState) => {
    setRevision(pushed);
    setSharedAs((cur) => (cur ? { ...cur, revision: pushed, draft: sent } : cur));
  }, []);
  const { sentAs } = usePushedEdits(share, draft, onPushed, announce);

  const shareDraft = async (source = html, name = dash ?? undefined) => {
    setShare({ kind: "creating" });
    announce("Sharing…");
    const body = JSON.stringify({ html: source, dataMode: mode, ...(name ? { dash: name } : {}), ...(live || !scenario ? {} : { scenario, examples }) });
    try {
      const res = await fetch(`${PLAYGROUND_BASE}/draft`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        cache: "no-store",
      });
      if (res.status !== 201) {
        const message = await errorText(res);
        setShare({ kind: "failed", message });
        announce(`Sharing failed: ${message}`);
        return;
      }
      const { draftCreated } = await import("@/lib/contract/playground");
      const created = draftCreated.parse(await res.json());
      sentAs({ html: source, scenario, examples });
      setRevision(created.revision);
      setSharedAs({ id: created.id, revision: created.revision, live, draft: { html: source, scenario, examples } });
      setShare({ kind: "shared", postUrl: created.postUrl, watchUrl: created.watchUrl });
      announce(`Shared: revision ${created.revision}. Each edit now goes to watchers.`);
    } catch {
      setShare({ kind: "failed", message: "the playground did not answer" });
      announce("Sharing failed: the playground did not answer.");
    }
  };

  const copyWatchLink = async (watchUrl: string) => {
    try {
      await navigator.clipboard.writeText(watchUrl);
      setCopied(true);
      announce("Watch link copied.");
    } catch {
      announce("Copying was refused; select the link and copy it.");
    }
  };

  const resume = ({ id, postUrl, watchUrl, revision: at, draft: current }: ResumedDraft) => {
    // What the editor shows is the revision it was opened on: nothing to push until it changes.
    sentAs(current);
    setRevision(at);
    setSharedAs({ id, revision: at, live, draft: current });
    setShare({ kind: "shared", postUrl, watchUrl });
  };

  return { share, revision, sharedAs, copied, shareDraft, copyWatchLink, dash, setDash, resume };
}

/**
 * Once `share` is shared, sends `draft` to it after each pause in editing: one request at a time,
 * and edits made while one was out go next, so watchers end on the latest text. `sentAs` records
 * what the draft was created with, which needs no push.
 */
function usePushedEdits(
  share: Share,
  draft: DraftState,
  onPushed: (revision: number, sent: DraftState) => void,
  announce: (status: string) => void,
): { sentAs: (draft: DraftState) => void } {
  const latestDraft = useRef(draft);
  const pushed = useRef<string | null>(null);
  const inFlight = useRef(false);
  const shareRef = useRef(share);

  useEffect(() => {
    latestDraft.current = draft;
    shareRef.current = share;
  });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const push = useCallback(
    async function pushLatest(): Promise<void> {
      const s = shareRef.current;
      if (s.kind !== "shared" || inFlight.current) return;
      const sending = latestDraft.current;
      const body = JSON.stringify(sending);
      if (body === pushed.current) return;
      inFlight.current = true;
      try {
        // Same-origin path: the token stays out of any cross-origin request and any log line.
        const res = await fetch(new URL(s.postUrl).pathname, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          cache: "no-store",
        });
        if (!res.ok) {
          announce(`The edit was not sent to watchers: ${await errorText(res)}`);
          return;
        }
        const { draftUpdated } = await import("@/lib/contract/playground");
        const updated = draftUpdated.parse(await res.json());
        pushed.current = body;
        onPushed(updated.revision, sending);
        announce(`Revision ${updated.revision} sent to watchers.`);
      } catch {
        announce("The edit was not sent to watchers: the playground did not answer.");
      } finally {
        inFlight.current = false;
      }
      // Edits made while the request was out go next, so watchers end on the latest text.
      if (JSON.stringify(latestDraft.current) !== pushed.current) {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => void pushLatest(), PUSH_DEBOUNCE_MS);
      }
    },
    [onPushed, announce],
  );

  useEffect(() => {
    if (share.kind !== "shared") return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void push(), PUSH_DEBOUNCE_MS);
  }, [draft, share.kind, push]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const sentAs = (sent: DraftState) => {
    pushed.current = JSON.stringify(sent);
  };
  return { sentAs };
}
