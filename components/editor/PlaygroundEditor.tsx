"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { DashboardFrame, type DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE, draftCreated, draftUpdated } from "@/lib/contract/playground";
import type { DraftWarning } from "@/lib/contract/resources";
import { checkDraft } from "@/lib/playground/check";
import { CodeEditor } from "./CodeEditor";
import styles from "./editor.module.css";

const PREVIEW_DEBOUNCE_MS = 400;
const PUSH_DEBOUNCE_MS = 800;

const scenariosSchema = z.object({
  default: z.string(),
  scenarios: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.array(z.object({ path: z.string(), variants: z.array(z.string()), default: z.string() })),
});
type Scenarios = z.infer<typeof scenariosSchema>;

export interface EditorExample {
  id: string;
  label: string;
  html: string;
}

/** What the draft is: everything pushed to watchers. */
interface DraftState {
  html: string;
  scenario: string;
  examples: Record<string, string>;
}

type Share =
  | { kind: "idle" }
  | { kind: "creating" }
  | { kind: "failed"; message: string }
  // postUrl carries the write token: it lives in this state only, never in the URL or a log.
  | { kind: "shared"; postUrl: string; watchUrl: string };

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { error?: unknown; hint?: unknown };
  const error = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
  return typeof body.hint === "string" ? `${error}: ${body.hint}` : error;
}

/** The playground editor: source on one side, its live preview on the other, and sharing. */
export function PlaygroundEditor({ examples: starters }: { examples: readonly EditorExample[] }) {
  const [starter, setStarter] = useState(starters[0]);
  const [html, setHtml] = useState(starter?.html ?? "");
  const [scenarios, setScenarios] = useState<Scenarios | null>(null);
  const [scenariosFailed, setScenariosFailed] = useState(false);
  const [scenario, setScenario] = useState("");
  const [variants, setVariants] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<DataMode>("demo");
  const [share, setShare] = useState<Share>({ kind: "idle" });
  const [revision, setRevision] = useState<number | null>(null);
  const [status, setStatus] = useState("");
  const [copied, setCopied] = useState(false);

  const previewHtml = useDebounced(html, PREVIEW_DEBOUNCE_MS);
  const warnings = useMemo<DraftWarning[]>(() => checkDraft(previewHtml), [previewHtml]);

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const res = await fetch(`${PLAYGROUND_BASE}/scenarios`, { cache: "no-store" });
        if (!res.ok) throw new Error(await errorText(res));
        const parsed = scenariosSchema.parse(await res.json());
        if (cancelled) return;
        setScenarios(parsed);
        setScenario((cur) => cur || parsed.default);
      } catch {
        if (!cancelled) setScenariosFailed(true);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  const examples = useMemo(() => Object.fromEntries(Object.entries(variants).filter(([, v]) => v !== "")), [variants]);
  const live = mode === "live";

  // ── Pushing edits to a shared draft ──────────────────────────────────────────────────────
  const draft: DraftState = useMemo(() => ({ html, scenario, examples }), [html, scenario, examples]);
  const latestDraft = useRef(draft);
  const pushed = useRef<string | null>(null);
  const inFlight = useRef(false);
  const shareRef = useRef(share);

  useEffect(() => {
    latestDraft.current = draft;
    shareRef.current = share;
  });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const push = useCallback(async function pushLatest(): Promise<void> {
    const s = shareRef.current;
    if (s.kind !== "shared" || inFlight.current) return;
    const body = JSON.stringify(latestDraft.current);
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
        setStatus(`The edit was not sent to watchers: ${await errorText(res)}`);
        return;
      }
      const updated = draftUpdated.parse(await res.json());
      pushed.current = body;
      setRevision(updated.revision);
      setStatus(`Revision ${updated.revision} sent to watchers.`);
    } catch {
      setStatus("The edit was not sent to watchers: the playground did not answer.");
    } finally {
      inFlight.current = false;
    }
    // Edits made while the request was out go next, so watchers end on the latest text.
    if (JSON.stringify(latestDraft.current) !== pushed.current) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void pushLatest(), PUSH_DEBOUNCE_MS);
    }
  }, []);

  useEffect(() => {
    if (share.kind !== "shared") return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void push(), PUSH_DEBOUNCE_MS);
  }, [draft, share.kind, push]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onShare = async () => {
    setShare({ kind: "creating" });
    setStatus("Sharing…");
    const body = JSON.stringify({ html, dataMode: mode, ...(live ? {} : { scenario, examples }) });
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
        setStatus(`Sharing failed: ${message}`);
        return;
      }
      const created = draftCreated.parse(await res.json());
      pushed.current = JSON.stringify({ html, scenario, examples });
      setRevision(created.revision);
      setShare({ kind: "shared", postUrl: created.postUrl, watchUrl: created.watchUrl });
      setStatus(`Shared: revision ${created.revision}. Each edit now goes to watchers.`);
    } catch {
      setShare({ kind: "failed", message: "the playground did not answer" });
      setStatus("Sharing failed: the playground did not answer.");
    }
  };

  const onCopy = async (watchUrl: string) => {
    try {
      await navigator.clipboard.writeText(watchUrl);
      setCopied(true);
      setStatus("Watch link copied.");
    } catch {
      setStatus("Copying was refused; select the link and copy it.");
    }
  };

  const onStarter = (id: string) => {
    const next = starters.find((e) => e.id === id);
    if (!next) return;
    setStarter(next);
    setHtml(next.html);
  };

  const shared = share.kind === "shared";
  const counts = { error: 0, warning: 0, info: 0 };
  for (const w of warnings) counts[w.severity]++;

  return (
    <section aria-labelledby="editor-title" className={styles.page}>
      <header className={styles.header}>
        <h1 id="editor-title">Dashboard playground</h1>
        <p className={`${styles.revision} muted`}>
          Revision <span data-testid="editor-revision">{revision ?? "not shared"}</span>
        </p>
      </header>

      <form className={styles.controls} onSubmit={(e) => e.preventDefault()} aria-label="Preview settings">
        {starters.length > 1 ? (
          <label>
            Start from{" "}
            <select value={starter?.id ?? ""} onChange={(e) => onStarter(e.target.value)} disabled={shared}>
              {starters.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Data{" "}
          <select value={mode} onChange={(e) => setMode(e.target.value as DataMode)} disabled={shared} aria-describedby={shared ? "mode-fixed" : undefined}>
            <option value="demo">Demo data</option>
            <option value="live">My live data</option>
          </select>
        </label>
        {shared ? (
          <span id="mode-fixed" className="muted">
            fixed once shared
          </span>
        ) : null}
        <label>
          Scenario{" "}
          <select value={scenario} onChange={(e) => setScenario(e.target.value)} disabled={live || !scenarios}>
            {scenarios ? (
              scenarios.scenarios.map((s) => (
                <option key={s.name} value={s.name} title={s.description}>
                  {s.name}
                </option>
              ))
            ) : (
              <option value="">{scenariosFailed ? "unavailable" : "loading…"}</option>
            )}
          </select>
        </label>
        {scenarios && !live ? (
          <details className={styles.variants}>
            <summary>Per-endpoint variants ({Object.keys(examples).length} set)</summary>
            <ul>
              {scenarios.paths.map((p) => (
                <li key={p.path}>
                  <label>
                    <code>{p.path}</code>{" "}
                    <select value={variants[p.path] ?? ""} onChange={(e) => setVariants((cur) => ({ ...cur, [p.path]: e.target.value }))}>
                      <option value="">from scenario</option>
                      {p.variants.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  </label>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {scenariosFailed ? <p className="error-text">The demo scenarios could not be loaded.</p> : null}
      </form>

      <div className={styles.share}>
        {shared ? (
          <>
            <label htmlFor="watch-link">Watch link</label>
            <input id="watch-link" className={styles.link} readOnly value={share.watchUrl} onFocus={(e) => e.currentTarget.select()} data-testid="watch-link" />
            <button type="button" onClick={() => void onCopy(share.watchUrl)}>
              {copied ? "Copied" : "Copy link"}
            </button>
          </>
        ) : (
          <button type="button" className="primary" onClick={() => void onShare()} disabled={share.kind === "creating"}>
            Share
          </button>
        )}
        {share.kind === "failed" ? <span className="error-text">{share.message}</span> : null}
        <p className={styles.status} role="status" aria-live="polite" data-testid="editor-status">
          {status}
        </p>
      </div>

      <div className={styles.panes}>
        <div className={styles.source}>
          <CodeEditor initialValue={starter?.html ?? ""} key={starter?.id} onChange={setHtml} warnings={warnings} checkedValue={previewHtml} label="Dashboard HTML" />
          <section aria-labelledby="warnings-title" className={styles.warnings}>
            <h2 id="warnings-title">
              Check{" "}
              <span className="muted">
                ({counts.error} errors, {counts.warning} warnings, {counts.info} notes)
              </span>
            </h2>
            {warnings.length === 0 ? (
              <p className="muted" data-testid="no-warnings">
                No findings.
              </p>
            ) : (
              <ul data-testid="warnings">
                {warnings.map((w, i) => (
                  <li key={`${w.rule}-${w.line}-${w.column}-${i}`} className={styles[w.severity]} data-testid="warning" data-rule={w.rule}>
                    <span className={styles.where}>
                      {w.line}:{w.column}
                    </span>{" "}
                    <strong>{w.severity}</strong> <code>{w.rule}</code> {w.message}
                    <br />
                    <span className="muted">Hint: {w.hint}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <div className={styles.preview}>
          <DashboardFrame
            html={previewHtml}
            apiBase={live ? "/api" : PLAYGROUND_API_BASE}
            mode={mode}
            scenario={live ? undefined : scenario || undefined}
            examples={live ? undefined : examples}
            title="Dashboard preview"
          />
        </div>
      </div>
    </section>
  );
}
