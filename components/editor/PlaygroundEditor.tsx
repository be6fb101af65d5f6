"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { z } from "zod";
import { DashboardFrame, type DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE, draftCreated, draftUpdated } from "@/lib/contract/playground";
import type { DraftWarning } from "@/lib/contract/resources";
import { PLAYGROUND_HANDOFF_KEY } from "@/components/saved/handoff";
import { SaveToSpace, type Saver } from "@/components/saved/SaveToSpace";
import { htmlTitle } from "@/lib/saved/slug";
import { CodeEditor } from "./CodeEditor";
import { StateMatrix } from "./StateMatrix";
import { preloadCheck, useDraftCheck } from "./useDraftCheck";
import { useLeaveGuard } from "./useLeaveGuard";
import { useInteractive } from "@/components/interactive";
import styles from "./editor.module.css";

const PREVIEW_DEBOUNCE_MS = 400;
// Several frames restart at once in the matrix: wait for a longer pause in typing.
const MATRIX_DEBOUNCE_MS = 1_000;
const PUSH_DEBOUNCE_MS = 800;
const NOTICE_ID_MAX = 80;

const scenariosSchema = z.object({
  default: z.string(),
  scenarios: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.array(z.object({ path: z.string(), variants: z.array(z.string()), default: z.string() })),
});
type Scenarios = z.infer<typeof scenariosSchema>;

export interface EditorExample {
  id: string;
  label: string;
  /** One sentence for the gallery. */
  description: string;
  html: string;
  /** The static check's findings for `html`, computed where the page was made. */
  warnings?: readonly DraftWarning[];
}

export interface PlaygroundEditorProps {
  examples: readonly EditorExample[];
  /** The example asked for in the address (`?example=<id>`); an unknown id starts on the first with a notice. */
  requestedExample?: string;
  /** `?open=saved`: start from the dashboard a saved dashboard's page handed over, as a new draft. */
  openHandoff?: boolean;
  /** The signed-in person, who may save the source into their space from here. */
  saver?: Saver | null;
}

type View = "single" | "matrix";

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

/** What a saved dashboard's page hands over through this tab's session storage. */
const handoffSchema = z.object({ html: z.string().min(1), dash: z.string().optional() });


/** The playground editor: source on one side, its live preview on the other, and sharing. */
export function PlaygroundEditor({ examples: starters, requestedExample, openHandoff, saver }: PlaygroundEditorProps) {
  const requested = requestedExample === undefined ? undefined : starters.find((e) => e.id === requestedExample);
  const [starter, setStarter] = useState(requested ?? starters[0]);
  // Bumped on every load, so loading the same example again starts the source over.
  const [loads, setLoads] = useState(0);
  const [unknownExample, setUnknownExample] = useState(requestedExample !== undefined && !requested ? requestedExample : null);
  const [view, setView] = useState<View>("single");
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
  const [savedHtml, setSavedHtml] = useState<string | null>(null);
  const interactive = useInteractive();

  const previewHtml = useDebounced(html, PREVIEW_DEBOUNCE_MS);
  const matrixHtml = useDebounced(html, MATRIX_DEBOUNCE_MS);
  const knownFindings = useMemo(
    () => new Map(starters.flatMap((e) => (e.warnings ? [[e.html, e.warnings] as const] : []))),
    [starters],
  );
  const check = useDraftCheck(previewHtml, knownFindings);
  const warnings = check.kind === "done" ? check.warnings : [];

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

  // "Open in playground" on a saved dashboard: its HTML becomes the source and a new draft at once.
  const handedOver = useRef(false);
  useEffect(() => {
    if (!openHandoff || handedOver.current) return;
    handedOver.current = true;
    void (async () => {
      const raw = sessionStorage.getItem(PLAYGROUND_HANDOFF_KEY);
      sessionStorage.removeItem(PLAYGROUND_HANDOFF_KEY);
      let parsed: z.infer<typeof handoffSchema> | null = null;
      try {
        parsed = raw ? handoffSchema.parse(JSON.parse(raw)) : null;
      } catch {
        parsed = null;
      }
      if (!parsed) {
        setStatus("Nothing was handed over to open; the editor starts from the example.");
        return;
      }
      const label = parsed.dash ?? htmlTitle(parsed.html) ?? "saved dashboard";
      setStarter({ id: "handoff", label, description: "", html: parsed.html });
      setLoads((n) => n + 1);
      setHtml(parsed.html);
      await onShareRef.current(parsed.html, parsed.dash);
    })();
  }, [openHandoff]);

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

  const onShare = async (source = html, dash?: string) => {
    setShare({ kind: "creating" });
    setStatus("Sharing…");
    const body = JSON.stringify({ html: source, dataMode: mode, ...(dash ? { dash } : {}), ...(live || !scenario ? {} : { scenario, examples }) });
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
      pushed.current = JSON.stringify({ html: source, scenario, examples });
      setRevision(created.revision);
      setShare({ kind: "shared", postUrl: created.postUrl, watchUrl: created.watchUrl });
      setStatus(`Shared: revision ${created.revision}. Each edit now goes to watchers.`);
    } catch {
      setShare({ kind: "failed", message: "the playground did not answer" });
      setStatus("Sharing failed: the playground did not answer.");
    }
  };

  const onShareRef = useRef(onShare);
  useEffect(() => {
    onShareRef.current = onShare;
  });

  const onCopy = async (watchUrl: string) => {
    try {
      await navigator.clipboard.writeText(watchUrl);
      setCopied(true);
      setStatus("Watch link copied.");
    } catch {
      setStatus("Copying was refused; select the link and copy it.");
    }
  };

  const shared = share.kind === "shared";
  const edited = starter !== undefined && html !== starter.html;
  // Edits live only in this tab until they are shared (then every edit is pushed) or saved.
  useLeaveGuard(edited && !shared && html !== savedHtml ? "Leave the playground? Your edits are not shared or saved, and will be lost." : null);

  const onStarter = (id: string) => {
    const next = starters.find((e) => e.id === id);
    if (!next) return;
    const lose = shared ? "Your edits will be lost, and watchers will see the example as the next revision." : "Your edits will be lost.";
    if (edited && !window.confirm(`Load the “${next.label}” example? ${lose}`)) return;
    setStarter(next);
    setLoads((n) => n + 1);
    setHtml(next.html);
    setUnknownExample(null);
    setStatus(`Loaded the ${next.label} example.`);
    // The address names the example, so a reload or a copied link opens the same one.
    window.history.replaceState(null, "", `?example=${encodeURIComponent(next.id)}`);
  };

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

      {unknownExample !== null ? (
        <p className={styles.notice} role="status" data-testid="example-notice">
          There is no example called “{unknownExample.slice(0, NOTICE_ID_MAX)}”; the editor starts from {starter?.label ?? "an empty document"} instead.
        </p>
      ) : null}

      {starters.length > 1 ? (
        <section aria-labelledby="gallery-title" className={styles.gallery}>
          <h2 id="gallery-title">Examples</h2>
          <ul>
            {starters.map((e) => {
              const current = e.id === starter?.id;
              return (
                <li key={e.id} className={current ? styles.currentExample : undefined}>
                  <button
                    type="button"
                    onClick={() => onStarter(e.id)}
                    disabled={!interactive}
                    aria-describedby={`example-${e.id}-description`}
                    aria-current={current ? "true" : undefined}
                    data-testid={`example-${e.id}`}
                  >
                    {e.label}
                    {current ? <span className={styles.loaded}> (loaded)</span> : null}
                  </button>
                  <p id={`example-${e.id}-description`} className="muted">
                    {e.description}
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      <form className={styles.controls} onSubmit={(e) => e.preventDefault()} aria-label="Preview settings">
        <fieldset className={styles.view}>
          <legend>Preview</legend>
          <label>
            <input type="radio" name="preview-view" value="single" checked={view === "single"} onChange={() => setView("single")} /> Single
          </label>
          <label>
            <input type="radio" name="preview-view" value="matrix" checked={view === "matrix"} onChange={() => setView("matrix")} /> State matrix
          </label>
        </fieldset>
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
          <button type="button" className="primary" onClick={() => void onShare()} disabled={!interactive || share.kind === "creating"}>
            Share
          </button>
        )}
        {share.kind === "failed" ? <span className="error-text">{share.message}</span> : null}
        {saver ? (
          <SaveToSpace
            handle={saver.handle}
            csrf={saver.csrf}
            suggested={starter?.id === "handoff" ? starter.label : htmlTitle(html)}
            html={() => html}
            note={revision ? `From the playground editor, draft revision ${revision}` : "From the playground editor"}
            onSaved={setSavedHtml}
          />
        ) : null}
        <p className={styles.status} role="status" aria-live="polite" data-testid="editor-status">
          {status}
        </p>
      </div>

      <div className={view === "matrix" ? `${styles.panes} ${styles.stacked}` : styles.panes}>
        <div className={styles.source} onFocus={() => void preloadCheck().catch(() => {})}>
          <CodeEditor
            initialValue={starter?.html ?? ""}
            key={`${starter?.id ?? ""}-${loads}`}
            onChange={setHtml}
            warnings={warnings}
            checkedValue={check.kind === "done" ? check.checked : ""}
            label="Dashboard HTML"
          />
          <section aria-labelledby="warnings-title" className={styles.warnings} aria-busy={check.kind === "loading"}>
            <h2 id="warnings-title">
              Check{" "}
              <span className="muted">
                ({counts.error} errors, {counts.warning} warnings, {counts.info} notes)
              </span>
            </h2>
            {check.kind === "loading" ? (
              <p className="muted">Checking…</p>
            ) : check.kind === "failed" ? (
              <p className="error-text">The check could not be loaded; reload the page to try again.</p>
            ) : warnings.length === 0 ? (
              <p className="muted" data-testid="no-warnings">
                No findings.
              </p>
            ) : (
              // Scrolls when long, so it takes focus to be scrollable from the keyboard.
              <ul data-testid="warnings" tabIndex={0} aria-labelledby="warnings-title">
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
        {view === "single" ? (
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
        ) : null}
      </div>
      {view === "matrix" ? <StateMatrix html={matrixHtml} /> : null}
    </section>
  );
}
