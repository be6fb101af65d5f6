"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import type { DataMode } from "@/components/dashboard-frame/DashboardFrame";
import { PLAYGROUND_BASE } from "@/lib/contract/playground-limits";
import { errorText } from "./error-text";
import { arrayOf, object, parseOrNull, string, type Parsed } from "@/lib/contract/json-shape";

const scenariosFields = {
  default: string,
  scenarios: arrayOf(object({ name: string, description: string })),
  paths: arrayOf(object({ path: string, variants: arrayOf(string), default: string })),
};
const scenariosShape = object(scenariosFields);
export type Scenarios = Parsed<typeof scenariosFields>;

export interface PreviewData {
  mode: DataMode;
  setMode: (mode: DataMode) => void;
  /** The person's own data rather than the demo's. */
  live: boolean;
  /** The demo scenarios and per-endpoint variants on offer, once loaded. */
  scenarios: Scenarios | null;
  scenariosFailed: boolean;
  scenario: string;
  setScenario: (scenario: string) => void;
  /** The variant chosen per endpoint path; "" is the scenario's own. */
  variants: Record<string, string>;
  setVariant: (path: string, variant: string) => void;
  /** The variants chosen, by path, as the draft and the preview take them. */
  examples: Record<string, string>;
  /** Sets mode, scenario and variants at once, as a draft or kept edits had them. */
  restore: (settings: PreviewSettings) => void;
}

/** The data a draft was made with: what a draft's page or kept edits bring back. */
export interface PreviewSettings {
  mode: DataMode;
  scenario?: string;
  examples?: Record<string, string>;
}

/** What data the preview runs against: demo or live, and the demo's scenario and variants. */
export function usePreviewData(): PreviewData {
  const [scenarios, setScenarios] = useState<Scenarios | null>(null);
  const [scenariosFailed, setScenariosFailed] = useState(false);
  const [scenario, setScenario] = useState("");
  const [variants, setVariants] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<DataMode>("demo");

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const res = await fetch(`${PLAYGROUND_BASE}/scenarios`, { cache: "no-store" });
        if (!res.ok) throw new Error(await errorText(res));
        const parsed = parseOrNull(scenariosShape, await res.json());
        if (!parsed) throw new Error("The scenario list was not in the expected shape.");
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
  const setVariant = (path: string, variant: string) => setVariants((cur) => ({ ...cur, [path]: variant }));

  const restore = useCallback((settings: PreviewSettings) => {
    setMode(settings.mode);
    if (settings.scenario) setScenario(settings.scenario);
    setVariants(settings.examples ?? {});
  }, []);

  return { mode, setMode, live: mode === "live", scenarios, scenariosFailed, scenario, setScenario, variants, setVariant, examples, restore };
}
