"use client";

import { useEffect, useState } from "react";
import { useInteractive } from "@/components/interactive";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import type { DraftReads } from "@/lib/check/reads";
import { ConsentGate, type GateAuthor } from "./ConsentGate";
import { DashboardFrame, type RenderReportBody, type RequestLogEntry } from "./DashboardFrame";
import styles from "./ConsentGate.module.css";

// A dashboard on the viewer's live data, behind their consent when someone else wrote it.
//
// - `ask` false (the viewer's own code, an author they trust, or nobody signed in whose data
//   could be read): the frame runs at once.
// - Otherwise the gate is shown and no frame exists until the viewer chooses. "Run with my
//   data" agrees to the paths the gate listed; a later revision that reads nothing more keeps
//   running, one that reads more asks again. "Show with demo data" runs it on the playground's
//   demo API, with no cookie and nothing of the viewer's.
//
// Someone else's code reads only the paths of its manifest, trusted or not: the broker refuses
// the rest, and the refusals show in the request log.

export interface ConsentedFrameProps {
  html: string;
  title: string;
  author: GateAuthor;
  reads: DraftReads;
  ask: boolean;
  /** The viewer wrote this code: no manifest applies. */
  own: boolean;
  /** "Always trust <handle>"; resolves to an error message, or null once trusted. */
  onTrust?: () => Promise<string | null>;
  demo?: { scenario?: string; examples?: Record<string, string> };
  onRequest?: (entry: RequestLogEntry) => void;
  onDataChange?: (data: "live" | "demo" | "waiting") => void;
  /** Passed to the frame: each settled render, with the key it was started with. */
  onReport?: (report: RenderReportBody, renderKey: string | number | undefined) => void;
  renderKey?: string | number;
  /** Passed to the frame (default true). */
  standby?: boolean;
  /** Passed to the frame: it takes its content's height and the page scrolls. */
  fit?: boolean;
}

type Choice = { kind: "undecided" } | { kind: "run"; agreed: readonly string[] } | { kind: "demo" };

export function ConsentedFrame(props: ConsentedFrameProps) {
  const { html, title, author, reads, ask, own, onTrust, demo, onRequest, onDataChange, onReport, renderKey, standby, fit } = props;
  const reporting = { onReport, renderKey, standby, fit };
  const [choice, setChoice] = useState<Choice>({ kind: "undecided" });
  const [trusting, setTrusting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // In server markup a choice would do nothing: the gate's buttons wait for hydration.
  const interactive = useInteractive();

  const covered = choice.kind === "run" && reads.paths.every((p) => choice.agreed.includes(p));
  // Nothing to read means nothing of the viewer's can reach it: no question to ask.
  const gated = ask && reads.paths.length > 0 && choice.kind !== "demo" && !covered;
  const data: "live" | "demo" | "waiting" = gated ? "waiting" : choice.kind === "demo" ? "demo" : "live";
  useEffect(() => {
    onDataChange?.(data);
  }, [data, onDataChange]);

  if (gated) {
    return (
      <ConsentGate
        author={author}
        reads={reads}
        changed={choice.kind === "run"}
        disabled={trusting || !interactive}
        message={message}
        onRun={() => setChoice({ kind: "run", agreed: [...new Set([...(choice.kind === "run" ? choice.agreed : []), ...reads.paths])] })}
        onDecline={() => setChoice({ kind: "demo" })}
        onTrust={
          onTrust
            ? async () => {
                setTrusting(true);
                setMessage(null);
                const failed = await onTrust();
                setTrusting(false);
                if (failed) setMessage(failed);
                else setChoice({ kind: "run", agreed: reads.paths });
              }
            : undefined
        }
      />
    );
  }

  if (data === "demo") {
    return (
      <>
        <p className={styles.note} data-testid="consent-declined">
          Shown with demo data: nothing of yours is read.{" "}
          <button type="button" onClick={() => setChoice({ kind: "undecided" })}>
            Ask me again
          </button>
        </p>
        <DashboardFrame
          html={html}
          apiBase={PLAYGROUND_API_BASE}
          mode="demo"
          scenario={demo?.scenario}
          examples={demo?.examples}
          onRequest={onRequest}
          title={title}
          {...reporting}
        />
      </>
    );
  }

  return (
    <DashboardFrame html={html} apiBase="/api" mode="live" allowedPaths={own ? undefined : reads.paths} onRequest={onRequest} title={title} {...reporting} />
  );
}
