import type { ReactNode } from "react";
import { describeFailure } from "./fetch-json";
import styles from "./landing.module.css";

// The three states every data section can be in besides "here is the data". Each says what to do.

export function Loading({ children }: { children: ReactNode }) {
  return (
    <div className={`${styles.state} ${styles.loading}`} role="status" data-testid="state-loading">
      <p>{children}</p>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className={styles.state} data-testid="state-empty">
      {children}
    </div>
  );
}

export function Failure({ error, what, onRetry, retrying }: { error: unknown; what: string; onRetry: () => void; retrying: boolean }) {
  const text = describeFailure(error, what);
  return (
    <div className={`${styles.state} ${styles.failure}`} role="alert" data-testid="state-error">
      <p>{text.problem}</p>
      <p>{text.action}</p>
      {text.next === "retry" ? (
        // Not disabled while retrying: a disabled button drops keyboard focus to the page.
        <button type="button" onClick={onRetry} aria-busy={retrying}>
          {retrying ? "Trying again…" : "Try again"}
        </button>
      ) : text.next === "sign-in" ? (
        <p>
          <a href="/signin?next=/">Sign in again</a>
        </p>
      ) : null}
    </div>
  );
}
