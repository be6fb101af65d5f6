"use client";

import Link from "next/link";
import { Fragment } from "react";
import useSWR from "swr";
import { connectionCheck, errorEnvelope, type ConnectionCheck } from "@/lib/contract/resources";
import styles from "./connections.module.css";

// The live probe result for one connector, fetched by the browser after the page has rendered
// so that a slow vendor never holds up the list.

class CheckRequestError extends Error {}

async function fetchCheck(url: string): Promise<ConnectionCheck> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" }, cache: "no-store" });
  } catch {
    throw new CheckRequestError("The check could not be reached. Check your network and try again.");
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new CheckRequestError(`The check answered ${res.status} without a JSON body.`);
  }
  if (!res.ok) {
    const envelope = errorEnvelope.safeParse(body);
    const code = envelope.success ? envelope.data.error : `HTTP ${res.status}`;
    const hint = envelope.success && envelope.data.hint ? ` ${envelope.data.hint}` : "";
    throw new CheckRequestError(`The check failed (${code}).${hint}`);
  }
  const parsed = connectionCheck.safeParse(body);
  if (!parsed.success) throw new CheckRequestError("The check answered in an unexpected shape.");
  return parsed.data;
}

type State = "loading" | "ok" | "not-connected" | "not-configured" | "failed" | "error";

const badgeText: Record<State, string> = {
  loading: "Checking…",
  ok: "OK",
  "not-connected": "Not connected",
  "not-configured": "Not configured",
  failed: "Failed",
  error: "Check unavailable",
};

const badgeClass: Record<State, string | undefined> = {
  loading: styles.badgeLoading,
  ok: styles.badgeOk,
  "not-connected": styles.badgeNeutral,
  "not-configured": styles.badgeNeutral,
  failed: styles.badgeFailed,
  error: styles.badgeFailed,
};

// The API's hints end by sending people to "/connections" ("Connect Linear at /connections.").
// A page shows that last step as a link, or on /connections itself, where the button is right
// there, as the step alone.
/** The API's hint when the person has not opted in (calls_not_opted_in and the check's summary). */
const OPT_IN_STEP = /\bOpt in\b/;

const CONNECTIONS_STEP = /^([\s\S]*?)((?:Connect|Reconnect|reconnect|Opt in|An admin)\b[^.;]*?) at \/connections\.$/;

function Summary({ text, onConnectionsPage }: { text: string; onConnectionsPage: boolean }) {
  const m = CONNECTIONS_STEP.exec(text);
  if (!m) return <>{text}</>;
  const [, before = "", step = ""] = m;
  return (
    <>
      {before}
      {onConnectionsPage ? `${step}.` : <Link href="/connections">{step}</Link>}
    </>
  );
}

/**
 * `compact` leaves out the probe's details and timing, for lists that link to /connections;
 * `onConnectionsPage` says the page itself is /connections, so its hints link nowhere.
 */
export function StatusBadge({ slug, title, compact = false, onConnectionsPage = false }: { slug: string; title: string; compact?: boolean; onConnectionsPage?: boolean }) {
  const { data, error, isValidating, mutate } = useSWR<ConnectionCheck, Error>(
    `/api/connections/${encodeURIComponent(slug)}/check`,
    fetchCheck,
    // A check is a live vendor call: run it when the page opens or on request, not on every focus.
    { revalidateOnFocus: false, revalidateOnReconnect: false, shouldRetryOnError: false },
  );

  const state: State = error ? "error" : data ? (data.ok ? "ok" : data.status) : "loading";
  const errorMessage = error instanceof CheckRequestError ? error.message : error ? "The check failed unexpectedly." : "";
  // Nothing was called when there is nothing to call with: no timing to show, nothing to check again.
  const probed = state !== "not-connected" && state !== "not-configured";
  // A credential the person has not opted into is not a missing connection; the pill says which.
  const badge = state === "not-connected" && data && OPT_IN_STEP.test(data.summary) ? "Not opted in" : badgeText[state];

  return (
    <div className={styles.status}>
      <div aria-live="polite" data-testid="live-status" data-state={state}>
        <p className={styles.badgeLine}>
          <span className={styles.srOnly}>Live status of {title}: </span>
          <span className={`${styles.badge} ${badgeClass[state] ?? ""}`} data-testid="live-badge">
            {badge}
          </span>
          {state === "error" ? (
            <span data-testid="live-summary">{errorMessage}</span>
          ) : data ? (
            <span data-testid="live-summary">
              <Summary text={data.summary} onConnectionsPage={onConnectionsPage} />
            </span>
          ) : null}
        </p>
        {!compact && data && !error && data.details.length > 0 ? (
          <dl className={styles.details}>
            {data.details.map((d, i) => (
              <Fragment key={`${d.label}-${i}`}>
                <dt>{d.label}</dt>
                <dd>{d.value}</dd>
              </Fragment>
            ))}
          </dl>
        ) : null}
        {!compact && data && !error && probed ? (
          <p className={`${styles.meta} muted`}>
            Checked in <span data-testid="live-duration">{Math.round(data.durationMs)}</span> ms · {data.probe}
          </p>
        ) : null}
      </div>
      {(data && probed) || error ? (
        <p className={styles.meta}>
          <button type="button" onClick={() => void mutate()} disabled={isValidating}>
            {isValidating ? "Checking…" : "Check again"}
            <span className={styles.srOnly}> {title}</span>
          </button>
        </p>
      ) : null}
    </div>
  );
}
