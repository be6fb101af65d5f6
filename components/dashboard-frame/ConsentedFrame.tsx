"use client";

import { useEffect, useState } from "react";
import { useInteractive } from "@/components/interactive";
import { decideLive, startingAgreement, type Agreement, type CodeAuthor } from "@/lib/consent/live";
import type { DraftReads } from "@/lib/check/reads";
import { ConsentGate } from "./ConsentGate";
import { DashboardFrame, type DashboardFrameProps } from "./DashboardFrame";
import styles from "./ConsentGate.module.css";

// A dashboard on the viewer's live data: every page that shows one renders this, never a live
// DashboardFrame of its own. What may run, and on which paths, is decided in lib/consent/live.ts;
// this component shows the question that decision asks and holds the viewer's answer.
//
// - Until the viewer chooses, no frame runs on their data: the gate stands in its place.
// - "Run with my data" agrees to the paths shown; later code that names nothing more keeps
//   running, code that names more asks again (in place of the frame, or with `reask="inline"`
//   beside it, the frame meanwhile held to what was agreed).
// - "Show with demo data" runs it on the playground's demo API, with no cookie and nothing of the
//   viewer's; a page may take that choice itself (`onDecline`).

/** What the page passes on to the frame itself. */
type FramePassThrough = Omit<DashboardFrameProps, "html" | "data" | "title">;

interface ConsentedFrameProps {
  html: string;
  title: string;
  author: CodeAuthor;
  /** The API paths the code names; null while they are being read off it (nothing runs meanwhile). */
  reads: DraftReads | null;
  /** Nobody signed in has no data of theirs to protect. */
  signedIn: boolean;
  /** "Always trust <handle>"; resolves to an error message, or null once trusted. */
  onTrust?: () => Promise<string | null>;
  /** The scenario and variants "Show with demo data" uses. */
  demo?: { scenario?: string; examples?: Record<string, string> };
  /** Takes "Show with demo data" to the page (the editor switches its data to demo). */
  onDecline?: () => void;
  /** How code that names more than was agreed is asked about: in place of the frame (default) or beside it. */
  reask?: "gate" | "inline";
  onDataChange?: (data: "live" | "demo" | "waiting") => void;
  frame?: FramePassThrough;
}

export function ConsentedFrame(props: ConsentedFrameProps) {
  const { html, title, author, reads, signedIn, onTrust, demo, onDecline, reask = "gate", onDataChange, frame } = props;
  const [agreement, setAgreement] = useState<Agreement | null>(null);
  const [declined, setDeclined] = useState(false);
  // The gate had focus (it takes it when shown); whatever replaces it takes it on.
  const [answered, setAnswered] = useState(false);
  // In server markup a choice would do nothing: the gate's buttons wait for hydration.
  const interactive = useInteractive();

  const decision = reads === null ? null : decideLive({ signedIn, author, reads, agreement });
  // Code that ran without a question (an author the viewer trusts, their own dashboard opened in
  // the editor) keeps to the paths it named then: later code that names more asks.
  // Taken during render (React renders again at once), so no frame ever runs without it.
  const starting = agreement === null && decision !== null ? startingAgreement(decision) : null;
  if (starting) setAgreement(starting);

  const data: "live" | "demo" | "waiting" = declined ? "demo" : decision?.kind === "run" || (decision?.kind === "ask" && reask === "inline" && decision.running) ? "live" : "waiting";
  useEffect(() => {
    onDataChange?.(data);
  }, [data, onDataChange]);

  const decline = () => {
    setAnswered(true);
    if (onDecline) onDecline();
    else setDeclined(true);
  };

  if (declined) {
    return (
      <>
        <p className={styles.note} data-testid="consent-declined">
          Shown with demo data: nothing of yours is read.{" "}
          <button type="button" onClick={() => setDeclined(false)}>
            Ask me again
          </button>
        </p>
        <DashboardFrame html={html} data={{ mode: "demo", scenario: demo?.scenario, examples: demo?.examples }} title={title} takeFocus={answered} {...frame} />
      </>
    );
  }

  if (decision === null) {
    return (
      <p className={styles.waiting} role="status" data-testid="consent-reading">
        Reading which of your data this code asks for…
      </p>
    );
  }

  if (decision.kind === "run") return <DashboardFrame html={html} data={{ mode: "live", grant: decision.grant }} title={title} takeFocus={answered} {...frame} />;

  const gate = (
    <ConsentGate
      question={decision.question}
      inline={reask === "inline" && decision.running !== null}
      disabled={!interactive}
      onAgree={(a) => {
        // Asked beside a running frame, the question never had focus to hand on.
        if (!(reask === "inline" && decision.running)) setAnswered(true);
        setAgreement(a);
      }}
      onDecline={decline}
      onTrust={onTrust}
    />
  );
  if (reask === "inline" && decision.running) {
    return (
      <>
        {gate}
        <DashboardFrame html={html} data={{ mode: "live", grant: decision.running }} title={title} {...frame} />
      </>
    );
  }
  return gate;
}
