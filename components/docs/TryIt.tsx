"use client";

import { useId, useState, type FormEvent } from "react";
import styles from "./docs.module.css";

// "Try it": runs a request against the playground's demo API (public, canned data, no sign-in)
// and shows the answer. The request stays under the demo API's base, whatever is typed.

const DISPLAY_MAX = 40_000;

interface Result {
  status: number;
  text: string;
  bytes: number;
}

export function TryIt({ apiBase, request, label, scenarios }: { apiBase: string; request: string; label: string; scenarios: readonly string[] }) {
  const id = useId();
  const [path, setPath] = useState(request);
  const [scenario, setScenario] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [problem, setProblem] = useState("");

  async function run(event: FormEvent) {
    event.preventDefault();
    setProblem("");
    const url = new URL(`${apiBase}${path.startsWith("/") ? path : `/${path}`}`, window.location.origin);
    if (url.origin !== window.location.origin || !url.pathname.startsWith(`${apiBase}/`)) {
      setProblem("Enter an API path such as /me.");
      return;
    }
    if (scenario) url.searchParams.set("scenario", scenario);
    setBusy(true);
    try {
      const res = await fetch(url, { headers: { accept: "application/json" } });
      const raw = await res.text();
      let text = raw;
      try {
        text = JSON.stringify(JSON.parse(raw), null, 2);
      } catch {
        // Not JSON: shown as it came.
      }
      setResult({ status: res.status, text, bytes: raw.length });
    } catch {
      setProblem("The request did not complete.");
    } finally {
      setBusy(false);
    }
  }

  const shown = result && result.text.length > DISPLAY_MAX ? `${result.text.slice(0, DISPLAY_MAX)}\n…` : result?.text;
  return (
    <div className={styles.tryIt}>
      <form onSubmit={run} className={styles.tryForm} aria-label={`Try ${label}`}>
        <label htmlFor={`${id}-path`}>Request</label>
        <input id={`${id}-path`} className={styles.tryPath} value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} autoComplete="off" />
        <label htmlFor={`${id}-scenario`}>Demo scenario</label>
        <select id={`${id}-scenario`} value={scenario} onChange={(e) => setScenario(e.target.value)}>
          <option value="">default</option>
          {scenarios.filter((s) => s !== "default").map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="submit" className="primary" disabled={busy}>
          Try it
        </button>
      </form>
      <p role="status" className={styles.tryStatus} data-testid="try-it-status">
        {busy ? "Running…" : problem || (result ? `${result.status} · ${result.bytes.toLocaleString("en")} bytes from the demo API` : "")}
      </p>
      {shown !== undefined ? (
        <pre className={styles.code} data-testid="try-it-result">
          <code>{shown}</code>
        </pre>
      ) : null}
    </div>
  );
}
