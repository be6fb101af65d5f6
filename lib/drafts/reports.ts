import "server-only";
import { ApiError } from "@/lib/contract/errors";
import type { z } from "zod";
import {
  REPORTS_PER_REVISION,
  REPORTS_PER_SOURCE,
  REPORT_REVISIONS,
  renderReport,
  type renderReportInput,
  type renderReportsQuery,
  type RenderReport,
  type RenderReportAccepted,
  type RenderReports,
  type ReportSource,
  type ReportSources,
} from "@/lib/contract/reports";
import { sha256Hex } from "@/lib/auth/tokens";
import type { Dialect } from "@/lib/db/migrate";
import { noSuchDraft, type DraftContext } from "./drafts";
import { findByWriteHash, findReportTarget, insertReport, listReports } from "./report-store";

// Render reports of demo drafts: POST /draft/<read_id>/reports takes what a browser saw when it
// rendered a revision, GET answers them to the agent (lib/contract/reports.ts has the shapes).
//
// Demo mode only, and the server holds to that whatever a client does: a live draft renders each
// viewer's own data, and a report from it would carry that data back to whoever holds the draft,
// so a report for a live draft is refused and none is ever stored or answered. A demo render sees
// only canned data, plus what any web page may learn of the browser showing it.
//
// The read id is enough to send one, as it is enough to watch: a report says what some browser
// said, no more, and so each says where it came from, as the server saw it: `author` when sent
// with the write link (POST /draft/<write_token>/reports: the agent, or the editor that shared
// the draft), else `watcher`, one per client address (a keyed digest of it). Forgeries cannot
// displace findings: a source keeps at most REPORTS_PER_SOURCE reports of a revision, and when a
// revision holds REPORTS_PER_REVISION, a report with errors outlasts any clean one. The answer
// counts the distinct sources and what each says, so an agent sees how many agree.
//
// Bounded three ways: the contract's limits per report, those counts for the latest
// REPORT_REVISIONS revisions (older ones are pruned, and the revision history's own pruning
// cascades), and PLAYGROUND_REPORTS_PER_MIN per client address (spent before either operation
// runs: lib/playground/stages.ts).

export interface Reports {
  /** POST /draft/<read_id>/reports: a report `address` sent, once the stages took it. */
  post(readId: string, input: z.output<typeof renderReportInput>, address: string): Promise<RenderReportAccepted>;
  /** GET /draft/<read_id>/reports */
  list(readId: string, query: z.output<typeof renderReportsQuery>): Promise<RenderReports>;
}

interface ReportsDeps {
  ctx: DraftContext;
  /** A keyed digest: the same address always stands for the same source, and the address is not told. */
  mac: (value: string, purpose: string) => string;
  dialect: Dialect;
}

/** The shape of a read id, as the playground's stages check it: anything else cannot be one and answers 404 at once. */
const READ_ID_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;
const DAY_MS = 86_400_000;

const liveRefused = () =>
  new ApiError(
    "reports_demo_only",
    "This draft renders each viewer's own live data, so nothing of a render goes back to its author; create the draft with dataMode demo to get render reports.",
  );

const AUTHOR: ReportSource = { kind: "author", id: "a-author" };

/**
 * Each source once: failing when any of its kept reports found errors (a revision does not change,
 * so an error it saw once is an error), else clean when one settled, else unsettled.
 */
function summarise(reports: readonly RenderReport[]): ReportSources {
  const rank = { unsettled: 0, clean: 1, failing: 2 } as const;
  const seen = new Map<string, { kind: ReportSource["kind"]; verdict: keyof typeof rank }>();
  for (const r of reports) {
    const verdict = r.errors.length > 0 ? "failing" : r.settled ? "clean" : "unsettled";
    const known = seen.get(r.source.id);
    if (!known || rank[verdict] > rank[known.verdict]) seen.set(r.source.id, { kind: r.source.kind, verdict });
  }
  const count = (v: string) => [...seen.values()].filter((s) => s.verdict === v).length;
  const of = (kind: ReportSource["kind"]) => [...seen.values()].find((s) => s.kind === kind)?.verdict ?? "none";
  return { total: seen.size, failing: count("failing"), clean: count("clean"), unsettled: count("unsettled"), author: of("author"), service: of("service") };
}

export function createReports({ ctx, mac, dialect }: ReportsDeps): Reports {
  const cutoff = () => ctx.now() - ctx.settings.draftIdleDays * DAY_MS;
  // A revision pruned from the history has no row for a report to belong to.
  const recent = () => Math.min(REPORT_REVISIONS, ctx.settings.historyKeep);

  return {
    async post(readId, input, address) {
      if (!READ_ID_SHAPE.test(readId)) throw noSuchDraft(ctx.settings);
      // The write link's token in place of the read id: the author's own report.
      const authorOf = await findByWriteHash(ctx.db, sha256Hex(readId), cutoff());
      const draftId = authorOf ?? readId;
      const source: ReportSource = authorOf ? AUTHOR : { kind: "watcher", id: `w-${mac(address, "report-source").slice(0, 16)}` };
      const { revision, ...fields } = input;
      const stored: Omit<RenderReport, "source"> = { at: ctx.now(), ...fields };
      const outcome = await insertReport(ctx.db, dialect, {
        draftId,
        revision,
        report: JSON.stringify(stored),
        source,
        failing: stored.errors.length > 0,
        now: stored.at,
        cutoff: cutoff(),
        recent: recent(),
        perRevision: REPORTS_PER_REVISION,
        perSource: REPORTS_PER_SOURCE,
      });
      switch (outcome.kind) {
        case "missing":
          throw noSuchDraft(ctx.settings);
        case "live":
          throw liveRefused();
        case "not_recent":
          throw new ApiError(
            "revision_not_recent",
            `revision: reports are taken for revisions ${outcome.oldest} to ${outcome.current} of this draft (its latest ${recent()}); this one names ${revision}.`,
          );
      }
      return { revision, at: stored.at, source };
    },

    async list(readId, query) {
      if (!READ_ID_SHAPE.test(readId)) throw noSuchDraft(ctx.settings);
      const draft = await findReportTarget(ctx.db, readId, cutoff());
      if (!draft) throw noSuchDraft(ctx.settings);
      if (draft.data_mode !== "demo") throw liveRefused();
      const revision = query.revision ?? draft.revision;
      const reports: RenderReport[] = [];
      for (const row of await listReports(ctx.db, readId, revision, REPORTS_PER_REVISION)) {
        const text = parseJson(row.report);
        const parsed = renderReport.safeParse(typeof text === "object" && text !== null ? { ...text, source: { kind: row.source_kind, id: row.source_id } } : text);
        if (parsed.success) reports.push(parsed.data);
        else ctx.log("a stored render report no longer parses; it is left out");
      }
      return { revision, currentRevision: draft.revision, reports, sources: summarise(reports) };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
