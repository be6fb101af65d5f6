"use client";

import { useEffect, useRef, useState } from "react";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import type { DraftView } from "@/lib/contract/playground";
import { draftEventShape, draftViewShape } from "@/lib/contract/draft-shapes";
import { parseOrNull } from "@/lib/contract/json-shape";

type Load = { kind: "loading" } | { kind: "not-found" } | { kind: "failed" } | { kind: "ready"; view: DraftView };

export type Connection =
  | { kind: "connecting" }
  | { kind: "live" }
  | { kind: "reconnecting"; since: number }
  | { kind: "stale"; since: number }
  // Rendered once, with no stream (?static=1).
  | { kind: "static" };

/** How long "reconnecting" is shown before it reads "not updating since …". */
const RECONNECTING_GRACE_MS = 20_000;
/** After the browser gives up on the stream, tries again this often at first, then less often. */
const RETRY_MIN_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/** A busy server asks a reader to come back (429 with Retry-After): at most this long, this often. */
const BUSY_WAIT_MAX_S = 10;
const BUSY_TRIES = 6;

async function fetchDraft(id: string, tries = BUSY_TRIES): Promise<Load> {
  try {
    const res = await fetch(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}`, { cache: "no-store", credentials: "omit" });
    if (res.status === 429 && tries > 1) {
      const wait = Math.min(BUSY_WAIT_MAX_S, Math.max(1, Number(res.headers.get("retry-after")) || 1));
      await new Promise((r) => setTimeout(r, wait * 1000));
      return fetchDraft(id, tries - 1);
    }
    if (res.status === 404) return { kind: "not-found" };
    if (!res.ok) return { kind: "failed" };
    const view = parseOrNull(draftViewShape, await res.json());
    return view ? { kind: "ready", view } : { kind: "failed" };
  } catch {
    return { kind: "failed" };
  }
}

/** The draft as first read, then as its stream brings revisions, and how that stream is doing. */
export function useDraftStream(id: string, staticRender: boolean) {
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  const [connection, setConnection] = useState<Connection>(staticRender ? { kind: "static" } : { kind: "connecting" });
  const revision = useRef(0);

  useEffect(() => {
    let cancelled = false;
    void fetchDraft(id).then((l) => {
      if (cancelled) return;
      if (l.kind === "ready") revision.current = l.view.revision;
      setLoad(l);
    });
    return () => {
      cancelled = true;
    };
  }, [id]);

  const ready = load.kind === "ready";

  useEffect(() => {
    if (!ready || staticRender) return;
    let es: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    let retryMs = RETRY_MIN_MS;
    let lastContact = Date.now();
    let closed = false;

    const refreshReads = async (rev: number) => {
      // The event carries what renders; the agreed reads come with the next GET of the draft.
      const l = await fetchDraft(id);
      if (closed || l.kind !== "ready" || l.view.revision !== rev) return;
      setLoad((cur) =>
        cur.kind === "ready" && cur.view.revision === rev
          ? { kind: "ready", view: { ...cur.view, reads: l.view.reads, updatedAt: l.view.updatedAt } }
          : cur,
      );
    };

    const connect = () => {
      es = new EventSource(`${PLAYGROUND_BASE}/draft/${encodeURIComponent(id)}/events`);
      es.onopen = () => {
        lastContact = Date.now();
        retryMs = RETRY_MIN_MS;
        clearTimeout(grace);
        setConnection({ kind: "live" });
      };
      es.addEventListener("draft", (event) => {
        lastContact = Date.now();
        let data: unknown;
        try {
          data = JSON.parse((event as MessageEvent<string>).data);
        } catch {
          return;
        }
        const ev = parseOrNull(draftEventShape, data);
        if (!ev || ev.revision === revision.current) return;
        revision.current = ev.revision;
        setLoad((cur) =>
          cur.kind === "ready"
            ? { kind: "ready", view: { ...cur.view, revision: ev.revision, html: ev.html, scenario: ev.scenario, examples: ev.examples, dash: ev.dash, updatedAt: Date.now() } }
            : cur,
        );
        void refreshReads(ev.revision);
      });
      es.onerror = () => {
        if (!es) return;
        if (es.readyState === EventSource.CLOSED) {
          // The browser gave up (the server answered with an error): try again ourselves.
          es.close();
          setConnection({ kind: "stale", since: lastContact });
          retry = setTimeout(connect, retryMs);
          retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
          return;
        }
        const since = lastContact;
        setConnection((cur) => (cur.kind === "stale" ? cur : { kind: "reconnecting", since }));
        clearTimeout(grace);
        grace = setTimeout(() => setConnection((cur) => (cur.kind === "reconnecting" ? { kind: "stale", since: cur.since } : cur)), RECONNECTING_GRACE_MS);
      };
    };
    connect();

    return () => {
      closed = true;
      clearTimeout(retry);
      clearTimeout(grace);
      es?.close();
    };
  }, [id, ready, staticRender]);

  return { load, connection };
}
