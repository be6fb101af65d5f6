"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { useInteractive } from "@/components/interactive";
import {
  DASHBOARD_PARAMS_MAX,
  paramValueProblem,
  parseDashboardParams,
  withDashboardParams,
  type DashboardParams,
} from "@/lib/frame/params";
import styles from "./viewer.module.css";

interface ParamBarProps {
  /** The names the dashboard's code reads (the check's finding), in the order it reads them. */
  reads: readonly string[];
  /** The parameters the dashboard is given now. */
  params: DashboardParams;
  /** Called with the new parameters once the address says them. */
  onApply: (next: DashboardParams) => void;
}

/**
 * The page parameters a dashboard reads, as inputs: applying writes them into the address as
 * `p.<name>=<value>` (the page's other parameters kept) and hands them to the dashboard, so a
 * window changed here is a link to the same window. Nothing shows for a dashboard that reads no
 * parameters and an address that gives none.
 */
export function ParamBar({ reads, params, onApply }: ParamBarProps) {
  const interactive = useInteractive();
  const id = useId();
  // The address's names at the start stay for the page's life: emptying one leaves its input (and
  // focus) where it was, to fill again.
  const [given] = useState(() => Object.keys(params));
  const names = [...new Set([...reads, ...given, ...Object.keys(params)])];
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...params }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const inputs = useRef(new Map<string, HTMLInputElement>());
  if (names.length === 0) return null;

  const valueOf = (name: string) => values[name] ?? params[name] ?? "";

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = names.map((name) => [name, valueOf(name)] as const);
    const problems: Record<string, string> = {};
    for (const [name, value] of typed) {
      const problem = value === "" ? null : paramValueProblem(value);
      if (problem) problems[name] = problem;
    }
    const set = typed.filter(([, value]) => value !== "");
    const tooMany = set.length > DASHBOARD_PARAMS_MAX ? `At most ${DASHBOARD_PARAMS_MAX} parameters can be given; empty ${set.length - DASHBOARD_PARAMS_MAX} of them.` : null;
    setErrors(problems);
    setFormError(tooMany);
    const firstBad = names.find((name) => problems[name]);
    if (firstBad || tooMany) {
      setStatus("Not applied: the dashboard keeps its parameters.");
      if (firstBad) inputs.current.get(firstBad)?.focus();
      return;
    }
    // Through the same parser as the page's first request: the dashboard gets exactly what a
    // reload of the new address would give it.
    const href = withDashboardParams(window.location.href, Object.fromEntries(set));
    const next = { ...parseDashboardParams(new URL(href, window.location.origin).searchParams).params };
    window.history.replaceState(window.history.state, "", href);
    setValues({ ...next });
    onApply(next);
    setStatus(set.length === 0 ? "Applied: the dashboard is given no parameters." : `Applied: ${set.map(([name, value]) => `${name} = ${value}`).join(", ")}.`);
  };

  return (
    <form className={styles.params} aria-labelledby={`${id}-title`} onSubmit={apply} noValidate data-testid="param-bar">
      <h2 id={`${id}-title`} className={styles.paramsTitle}>
        Parameters
      </h2>
      {names.map((name) => {
        const error = errors[name];
        const inputId = `${id}-${name}`;
        return (
          <div key={name} className={styles.param}>
            <label htmlFor={inputId}>
              <code>{name}</code>
            </label>
            <input
              id={inputId}
              ref={(el) => {
                if (el) inputs.current.set(name, el);
                else inputs.current.delete(name);
              }}
              name={`p.${name}`}
              type="text"
              value={valueOf(name)}
              placeholder="not set"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(e) => setValues((cur) => ({ ...cur, [name]: e.target.value }))}
              data-testid={`param-${name}`}
            />
            {error ? (
              <span id={`${inputId}-error`} className="error-text" data-testid={`param-${name}-error`}>
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
      <button type="submit" disabled={!interactive} data-testid="param-apply">
        Apply
      </button>
      {formError ? (
        <p className={`${styles.paramsError} error-text`} role="alert" data-testid="param-bar-error">
          {formError}
        </p>
      ) : null}
      <p className={`${styles.paramsStatus} muted`} role="status" aria-live="polite" data-testid="param-bar-status">
        {status}
      </p>
    </form>
  );
}
