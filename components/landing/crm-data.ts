import type { CrmSource, CrmSummary } from "@/lib/contract/resources";
import { byKnownOrder, LIFECYCLE_ORDER, PIPELINE_ORDER, stageLabel } from "@/lib/crm/stages";

// Pure shaping of the CRM summary and sources answers into what the charts and the freshness
// table draw. The server already orders stages; ordering again here keeps the charts in funnel
// order whatever answers (a demo variant, an older server).

export interface StageCount {
  stage: string;
  label: string;
  count: number;
}

export interface PipelineStage extends StageCount {
  /** Null when the instance is non-monetary or the server left the amount out. */
  amount: number | null;
}

interface CrmCharts {
  /** Null when the summary has no pipeline at all (a non-monetary instance). */
  pipeline: PipelineStage[] | null;
  lifecycle: StageCount[];
  totals: CrmSummary["totals"];
}

export function crmCharts(summary: CrmSummary): CrmCharts {
  const pipeline = summary.pipeline
    ? [...summary.pipeline]
        .sort(byKnownOrder(PIPELINE_ORDER))
        .map((p) => ({ stage: p.stage, label: stageLabel(p.stage), count: p.count, amount: p.amount ?? null }))
    : null;
  const lifecycle = [...(summary.lifecycle ?? [])]
    .sort(byKnownOrder(LIFECYCLE_ORDER))
    .map((l) => ({ stage: l.stage, label: stageLabel(l.stage), count: l.count }));
  return { pipeline, lifecycle, totals: summary.totals };
}

/** Amounts are drawn only when every stage has one; a partial set would mislead. */
export function hasAmounts(pipeline: readonly PipelineStage[]): boolean {
  return pipeline.length > 0 && pipeline.every((p) => p.amount !== null);
}

const integer = new Intl.NumberFormat("en-GB");
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const compactMoney = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });

export const formatCount = (n: number) => integer.format(n);
export const formatMoney = (n: number) => money.format(n);
export const formatMoneyShort = (n: number) => compactMoney.format(n);

/** A one-sentence reading of a bar chart for its accessible name: the total and the largest bar. */
export function describeBars(what: string, rows: readonly { label: string; value: number }[], format: (n: number) => string): string {
  if (rows.length === 0) return `${what}: no data.`;
  const total = rows.reduce((sum, r) => sum + r.value, 0);
  const top = rows.reduce((best, r) => (r.value > best.value ? r : best));
  return `${what}, ${rows.length} stages, ${format(total)} in all; the largest is ${top.label} with ${format(top.value)}.`;
}

// ── Sources ──────────────────────────────────────────────────────────────────────────────

/** One row of the freshness table: one object type synced by one source. */
export interface FreshnessRow {
  id: string;
  source: string;
  status: string;
  object: string;
  rows: number;
  /** Epoch ms of the newest change synced, or null before any. */
  newestChange: number | null;
  /** Epoch ms of the source's last successful sync, or null before any. */
  lastSuccess: number | null;
}

export function freshnessRows(sources: readonly CrmSource[]): FreshnessRow[] {
  return sources.flatMap((s) =>
    s.objects.map((o) => ({
      id: `${s.connector}:${o.object}`,
      source: s.title,
      status: sourceStatusText(s),
      object: capitalise(o.object),
      rows: o.rows,
      newestChange: o.watermark,
      lastSuccess: s.lastSuccessAt,
    })),
  );
}

export function sourceStatusText(s: CrmSource): string {
  switch (s.status) {
    case "ok":
      return "Synced";
    case "never_run":
      return "Not synced yet";
    case "failed":
      return "Last sync failed";
    case "running": {
      const p = s.progress;
      if (p && p.expected) return `Syncing (${Math.min(100, Math.floor((p.done / p.expected) * 100))}%)`;
      return "Syncing";
    }
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
