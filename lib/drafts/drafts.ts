import "server-only";
import { z } from "zod";
import { randomToken, sha256Hex, constantTimeEqual } from "@/lib/auth/tokens";
import { ApiError } from "@/lib/contract/errors";
import { DRAFT_HTML_MAX_BYTES, type DraftEvent, type DraftInput, type DraftUpdate, type DraftView } from "@/lib/contract/playground";
import { isBlankDocument } from "@/lib/check";
import { htmlTitle, TITLE_SEARCH_CHARS } from "@/lib/saved/slug";
import { dataMode as dataModeSchema, type DraftWarning } from "@/lib/contract/resources";
import type { Db } from "@/lib/db";
import { defaultScenario, endpointForPath, isScenario, isVariant } from "@/lib/demo-api/data";
import { UNKNOWN_ANALYSIS, analyse, decodeAnalysis, encodeAnalysis, type DraftAnalysis, type DraftReads } from "./analysis";
import type { DraftNote, Fanout } from "@/lib/live/fanout";
import type { Hub } from "@/lib/live/hub";
import { draftFrame } from "@/lib/live/sse";
import { Coalesced, Periodic, ReadAnswers, SharedWork } from "./draft-work";
import * as store from "./store";

// Drafts: create, update, read, expire. A draft is reached two ways, by two independent random
// values: the read id (128 bits, in watch and event URLs, read-only) and the write token
// (256 bits, only in postUrl, stored as its SHA-256). Neither can be derived from the other.

/** The playground's settings that drafts read (lib/playground/settings.ts gives them a value each). */
export interface DraftSettings {
  /** A draft not updated for this many days is deleted (DRAFT_IDLE_DAYS). */
  draftIdleDays: number;
  /** Revisions kept per draft, the current one included (DRAFT_HISTORY_KEEP). */
  historyKeep: number;
  /** Bytes of JSON after which a page of revisions stops (it always holds at least one). */
  revisionsPageBytes: number;
  /** Render reports per client address per minute. */
  reportsPerMinute: number;
  /** Server-side renders per client address, and per draft, per minute. */
  rendersPerMinute: number;
  rendersPerDraftPerMinute: number;
}

export interface DraftContext {
  db: Db;
  hub: Hub;
  fanout: Fanout;
  settings: DraftSettings;
  now: () => number;
  log: (line: string) => void;
  /** Seconds from a revision being written to its frame reaching every watcher here that lacked it. */
  observeFanout?: (seconds: number) => void;
  /** Recent read answers (`GET /draft/<id>`) as UTF-8 JSON. */
  readAnswers: ReadAnswers;
  /** Late checks in progress (revisions stored before checks were kept), by `id:revision`. */
  lateChecks: SharedWork<DraftAnalysis>;
  /** Drafts being re-read for watchers; at most one entry per watched draft (bounded by the hub's stream caps). */
  refreshes: Coalesced;
  /** The idle sweep's schedule. */
  sweeps: Periodic;
}

/** The draft functions' dependencies, with their bookkeeping fresh. */
export function draftContext(deps: Pick<DraftContext, "db" | "hub" | "fanout" | "settings" | "now" | "log" | "observeFanout">): DraftContext {
  const failed = (what: string) => (err: unknown) => deps.log(`${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  return {
    ...deps,
    readAnswers: new ReadAnswers(READ_ANSWERS_MAX, READ_ANSWERS_MAX_BYTES),
    lateChecks: new SharedWork(MAX_LATE_CHECKS),
    refreshes: new Coalesced((_id, err) => failed("draft refresh")(err)),
    sweeps: new Periodic(SWEEP_EVERY_MS, deps.now, failed("draft sweep")),
  };
}

/**
 * A watched draft is read again by every watcher after each update, so its JSON answer (up to
 * 12 MiB for 2 MiB of control characters) is kept once serialised: a repeated read then costs a
 * one-row query for the current revision and the sending of bytes. Bounded in entries and bytes;
 * an answer over a quarter of the byte budget is not kept.
 */
const READ_ANSWERS_MAX = 64;
const READ_ANSWERS_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Concurrent first reads of one old revision share its late check, so a burst of reads costs one
 * check. Entries live only while their result is being stored; past this many at once (a burst
 * over many old drafts), a read checks on its own rather than growing the map.
 */
const MAX_LATE_CHECKS = 64;

const DAY_MS = 86_400_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 500;
const MAX_EXAMPLES = 200;

/** The same answer for an unknown read id and an unknown write token, so neither can be probed. */
export function noSuchDraft(settings: Pick<DraftSettings, "draftIdleDays">): ApiError {
  return new ApiError(
    "no_such_draft",
    `No draft answers to that id or token. Drafts are deleted after ${settings.draftIdleDays} days without an update.`,
  );
}

function cutoff(ctx: DraftContext): number {
  return ctx.now() - ctx.settings.draftIdleDays * DAY_MS;
}

interface CreatedDraft {
  id: string;
  writeToken: string;
  revision: number;
  warnings: DraftWarning[];
}

interface UpdatedDraft {
  id: string;
  revision: number;
  warnings: DraftWarning[];
}

/** Refuses content the playground cannot serve: too large, unknown scenario or variant. */
/** Refuses html no revision may hold; `blank` also refuses a document with nothing to show. */
function validateHtml(html: string, blank: "refuse" | "allow"): void {
  const bytes = Buffer.byteLength(html, "utf8");
  if (bytes > DRAFT_HTML_MAX_BYTES) {
    throw new ApiError("draft_too_large", `html is ${bytes} bytes; the limit is ${DRAFT_HTML_MAX_BYTES} bytes (2 MiB).`);
  }
  // Storage keeps text as UTF-8, and PostgreSQL cannot hold NUL at all: refusing both keeps a
  // draft byte-identical from the author to every watcher, on either engine.
  if (html.includes("\u0000")) throw new ApiError("invalid_draft", "html: contains NUL (U+0000), which HTML does not allow.");
  if (!html.isWellFormed()) throw new ApiError("invalid_draft", "html: contains an unpaired UTF-16 surrogate; send valid Unicode.");
  // A blank revision would replace what every watcher sees with nothing.
  if (blank === "refuse" && isBlankDocument(html)) {
    throw new ApiError("invalid_draft", "html: the document is empty (nothing but whitespace and comments), so nothing was published; send the dashboard's HTML.");
  }
}

function validateContent(input: { html?: string; scenario?: string | null; examples?: Record<string, string> | null }): void {
  if (input.html !== undefined) validateHtml(input.html, "refuse");
  validateDemoState(input);
}

/** Refuses a demo state the demo API cannot serve: an unknown scenario, path or variant. */
export function validateDemoState(input: { scenario?: string | null; examples?: Record<string, string> | null }): void {
  if (input.scenario != null && !isScenario(input.scenario)) {
    throw new ApiError("unknown_scenario", `No scenario "${clip(input.scenario)}"; GET /dashboards/playground/scenarios lists them.`);
  }
  const examples = Object.entries(input.examples ?? {});
  if (examples.length > MAX_EXAMPLES) throw new ApiError("invalid_draft", `examples: at most ${MAX_EXAMPLES} entries.`);
  for (const [path, variant] of examples) {
    if (!endpointForPath(path)) {
      throw new ApiError(
        "unknown_example",
        `examples["${clip(path)}"]: no API path "${clip(path)}" takes demo variants; use a path of the API reference (e.g. "/cx/book"), as GET /dashboards/playground/scenarios lists them.`,
      );
    }
    if (!isVariant(path, variant)) {
      throw new ApiError(
        "unknown_example",
        `examples["${clip(path)}"]: no variant "${clip(variant)}" for that path; GET /dashboards/playground/scenarios lists every path and its variants.`,
      );
    }
  }
}

function clip(s: string): string {
  const one = s.replace(/[\u0000-\u001f\u007f]/g, "?");
  return one.length > 80 ? `${one.slice(0, 80)}…` : one;
}

/** The static check of one revision's html; a failing check is logged and counts as no findings. */
function analysisFor(ctx: DraftContext, html: string): DraftAnalysis {
  try {
    return analyse(html);
  } catch (err) {
    ctx.log(`static check failed: ${err instanceof Error ? err.message : String(err)}`);
    return UNKNOWN_ANALYSIS;
  }
}

/** What the check finds in a draft body, with nothing stored or published (a blank document is a finding here). */
export function checkDraftInput(ctx: DraftContext, input: DraftInput): DraftAnalysis {
  validateHtml(input.html, "allow");
  validateContent({ scenario: input.scenario, examples: input.examples });
  return analysisFor(ctx, input.html);
}

export async function createDraft(ctx: DraftContext, input: DraftInput): Promise<CreatedDraft> {
  validateContent(input);
  maybeSweep(ctx);
  const id = randomToken(16);
  const writeToken = randomToken(32);
  // Checked once, here, and stored with the revision: reads serve the stored result.
  const analysis = analysisFor(ctx, input.html);
  await store.insertDraft(
    ctx.db,
    {
      id,
      writeHash: sha256Hex(writeToken),
      html: input.html,
      dataMode: input.dataMode ?? "demo",
      scenario: input.scenario ?? defaultScenario,
      examples: JSON.stringify(input.examples ?? {}),
      dash: input.dash ?? null,
      checkJson: encodeAnalysis(analysis),
      now: ctx.now(),
    },
    async () => {},
  );
  return { id, writeToken, revision: 1, warnings: analysis.warnings };
}

/**
 * An accepted update becomes the next revision and reaches every watcher at once: this
 * instance's directly, other instances' through the fan-out. Fields left out keep their values.
 */
export async function updateDraft(ctx: DraftContext, writeToken: string, input: DraftUpdate): Promise<UpdatedDraft> {
  if (input.html === undefined && input.scenario === undefined && input.examples === undefined && input.dash === undefined) {
    throw new ApiError("invalid_draft", "Nothing to update: send at least one of html, scenario, examples and dash (null clears scenario, examples or dash).");
  }
  validateContent(input);
  const writeHash = sha256Hex(writeToken);
  // The check runs before the revision is written, so the revision is never stored without it;
  // a revision that keeps its HTML keeps the check result stored with it.
  const analysis = input.html === undefined ? null : analysisFor(ctx, input.html);
  const outcome = await store.updateDraftRow(ctx.db, {
    writeHash,
    dataMode: input.dataMode,
    change: {
      html: input.html,
      checkJson: analysis ? encodeAnalysis(analysis) : undefined,
      // null returns a field to where a new draft starts.
      scenario: input.scenario === null ? defaultScenario : input.scenario,
      examples: input.examples === undefined ? undefined : JSON.stringify(input.examples ?? {}),
      dash: input.dash,
      baseRevision: input.baseRevision,
      now: ctx.now(),
    },
    cutoff: cutoff(ctx),
    historyKeep: ctx.settings.historyKeep,
    afterWrite: (trx, id, revision) => ctx.fanout.inTransaction(trx, id, revision),
  });
  switch (outcome.kind) {
    case "missing":
      throw noSuchDraft(ctx.settings);
    case "data_mode_fixed":
      throw new ApiError("data_mode_fixed", `This draft's dataMode is ${outcome.dataMode}; create a new draft for another one.`);
    case "conflict":
      // The number as a header too, so a client need not read it out of the words.
      throw new ApiError("revision_conflict", `The current revision is ${outcome.revision}: read it, apply your change to it, and send it with baseRevision ${outcome.revision}.`, {
        "x-current-revision": String(outcome.revision),
      });
  }
  const row = outcome.row;
  // The row was found by the hash of the token; comparing it again costs nothing and keeps the
  // check independent of how the database compares strings.
  if (!constantTimeEqual(row.write_hash, writeHash)) throw noSuchDraft(ctx.settings);
  publishRow(ctx, row);
  const warnings = analysis?.warnings ?? (decodeAnalysis(await store.findCheck(ctx.db, row.id, row.revision)) ?? analysisFor(ctx, row.html)).warnings;
  return { id: row.id, revision: row.revision, warnings };
}

/** The live draft behind a read id, or undefined (unknown, deleted or expired). */
export async function findDraft(ctx: DraftContext, readId: string): Promise<store.DraftRow | undefined> {
  return store.findByReadId(ctx.db, readId, cutoff(ctx));
}

/** The live draft with its current revision's stored check result; the check does not run. */
async function findChecked(ctx: DraftContext, readId: string): Promise<{ row: store.DraftRow; analysis: DraftAnalysis }> {
  const found = await store.findWithCheck(ctx.db, readId, cutoff(ctx));
  if (!found) throw noSuchDraft(ctx.settings);
  const { check_json: checkJson, ...row } = found;
  return { row, analysis: decodeAnalysis(checkJson) ?? (await lateAnalysis(ctx, row)) };
}

/**
 * A revision stored before check results were kept: checked once, on its first read, and the
 * result stored, so later reads find it.
 */
async function lateAnalysis(ctx: DraftContext, row: store.DraftRow): Promise<DraftAnalysis> {
  const key = `${row.id}:${row.revision}`;
  const running = ctx.lateChecks.inFlight(key);
  if (running) return running;
  // The row may have been read just before another read stored the result: look again first.
  const stored = decodeAnalysis(await store.findCheck(ctx.db, row.id, row.revision));
  if (stored) return stored;
  return ctx.lateChecks.share(key, async () => {
    const analysis = analysisFor(ctx, row.html);
    await store
      .storeCheck(ctx.db, row.id, row.revision, encodeAnalysis(analysis))
      .catch((err: unknown) => ctx.log(`storing a late check failed: ${err instanceof Error ? err.message : String(err)}`));
    return analysis;
  });
}

/** The API paths the current revision's html reads, as the check found them when it was stored. */
export async function draftReads(ctx: DraftContext, readId: string): Promise<DraftReads> {
  return (await findChecked(ctx, readId)).analysis.reads;
}

const encoder = new TextEncoder();

/** The read answer of a draft as UTF-8 JSON, from the kept answers when the revision is unchanged. */
export async function readDraftBytes(ctx: DraftContext, readId: string): Promise<Uint8Array<ArrayBuffer>> {
  const kept = ctx.readAnswers.get(readId);
  if (kept) {
    const now = await store.currentRevision(ctx.db, readId, cutoff(ctx));
    if (!now) throw noSuchDraft(ctx.settings);
    if (now.revision === kept.revision && now.updated_at === kept.updatedAt) return kept.bytes;
  }
  const view = await readDraft(ctx, readId);
  const bytes = encoder.encode(JSON.stringify(view));
  ctx.readAnswers.set(readId, { revision: view.revision, updatedAt: view.updatedAt, bytes });
  return bytes;
}

async function readDraft(ctx: DraftContext, readId: string): Promise<DraftView> {
  const { row, analysis } = await findChecked(ctx, readId);
  return {
    id: row.id,
    revision: row.revision,
    html: row.html,
    dataMode: dataModeSchema.catch("demo").parse(row.data_mode),
    scenario: row.scenario,
    examples: examplesOf(row.examples),
    dash: row.dash,
    updatedAt: row.updated_at,
    warnings: analysis.warnings,
    reads: analysis.reads,
  };
}

interface DraftRevision {
  revision: number;
  html: string;
  scenario: string;
  examples: Record<string, string>;
  dash: string | null;
  createdAt: number;
}

interface RevisionsPage {
  /** Each revision's JSON text (`DraftRevision`), newest first; at least one unless the draft has none. */
  revisions: string[];
  /** The oldest revision on the page when older ones remain, else null. */
  continueBefore: number | null;
}

/**
 * Revisions are read a few at a time: one may hold 2 MiB of html, and a page usually stops at
 * the byte budget long before `limit`, so reading the whole page's rows at once would hold up to
 * 50 × 2 MiB in memory for nothing.
 */
const REVISION_BATCH = 4;

/**
 * One page of a draft's kept revisions, newest first, older than `before` (from the newest when
 * null): at most `limit` revisions, and no more than `pageBytes` bytes of JSON, except that a
 * page always holds one revision, whatever its size. Keyset paging on the revision number, so
 * updates while paging lose nothing and repeat nothing.
 */
export async function draftHistoryPage(ctx: DraftContext, readId: string, limit: number, before: number | null): Promise<RevisionsPage> {
  const budget = ctx.settings.revisionsPageBytes;
  const revisions: string[] = [];
  let bytes = 0;
  let last = before;
  for (;;) {
    const wanted = Math.min(REVISION_BATCH, limit - revisions.length + 1);
    const rows = await store.listRevisionsBefore(ctx.db, readId, last, wanted);
    for (const r of rows) {
      if (revisions.length === limit) return { revisions, continueBefore: last };
      const item: DraftRevision = { revision: r.revision, html: r.html, scenario: r.scenario, examples: examplesOf(r.examples), dash: r.dash, createdAt: r.created_at };
      const text = JSON.stringify(item);
      const size = Buffer.byteLength(text, "utf8");
      if (revisions.length > 0 && bytes + size > budget) return { revisions, continueBefore: last };
      revisions.push(text);
      bytes += size;
      last = r.revision;
    }
    if (rows.length < wanted) return { revisions, continueBefore: null };
  }
}

/** A kept revision of a draft (the current one when `revision` is null), with what the draft is now. */
export interface RevisionOfDraft {
  currentRevision: number;
  dataMode: "demo" | "live";
  revision: DraftRevision;
}

/**
 * A kept revision, for drawing it: no such draft is 404 (`no_such_draft`); a revision not kept
 * (pruned, or not made yet) is 404 `no_such_revision`, naming the ones that are.
 */
export async function revisionOfDraft(ctx: DraftContext, readId: string, revision: number | null): Promise<RevisionOfDraft> {
  const found = await store.findRevision(ctx.db, readId, revision, cutoff(ctx));
  if (!found) throw noSuchDraft(ctx.settings);
  const dataMode = dataModeSchema.catch("demo").parse(found.data_mode);
  if (!found.row) {
    const oldest = Math.max(1, found.current - ctx.settings.historyKeep + 1);
    throw new ApiError("no_such_revision", `revision: this draft keeps revisions ${oldest} to ${found.current}; ${revision} is not among them.`);
  }
  const r = found.row;
  return { currentRevision: found.current, dataMode, revision: { revision: r.revision, html: r.html, scenario: r.scenario, examples: examplesOf(r.examples), dash: r.dash, createdAt: r.created_at } };
}

/** A kept revision of a live-data draft and what its code reads, for the safe view (lib/saved/drawings.ts). */
interface DrawableRevision {
  revision: number;
  html: string;
  dash: string | null;
  reads: DraftReads;
}

/**
 * A revision of a live-data draft to draw on a viewer's own data: 404 as `revisionOfDraft`
 * answers, and a demo draft refused (409 `draw_live_only`): its watchers see demo data, which
 * needs no safe view. The reads are the revision's stored check, else checked now.
 */
export async function drawableRevision(ctx: DraftContext, readId: string, revision: number | null): Promise<DrawableRevision> {
  const found = await revisionOfDraft(ctx, readId, revision);
  if (found.dataMode !== "live") {
    throw new ApiError("draw_live_only", "This draft shows demo data to everyone who watches it: nothing of yours is read, so there is nothing to draw on your data. Open its watch link.");
  }
  const r = found.revision;
  const analysis = decodeAnalysis(await store.findCheck(ctx.db, readId, r.revision)) ?? analysisFor(ctx, r.html);
  return { revision: r.revision, html: r.html, dash: r.dash, reads: analysis.reads };
}

/** Whether a live draft answers to this read id (the html is not read). */
export async function draftExists(ctx: DraftContext, readId: string): Promise<boolean> {
  return store.isLive(ctx.db, readId, cutoff(ctx));
}

/** How a live draft is named to people (its dash, else its document's <title>), or undefined when there is none. */
export async function draftNaming(ctx: DraftContext, readId: string): Promise<{ name: string | null } | undefined> {
  const row = await store.findNaming(ctx.db, readId, cutoff(ctx), TITLE_SEARCH_CHARS);
  return row ? { name: row.dash ?? htmlTitle(row.head) ?? null } : undefined;
}

const examplesShape = z.record(z.string(), z.string());

function examplesOf(text: string): Record<string, string> {
  try {
    const parsed = examplesShape.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function eventOf(row: store.DraftRow): DraftEvent {
  return { revision: row.revision, scenario: row.scenario, examples: examplesOf(row.examples), dash: row.dash, html: row.html };
}

/** Deletes drafts idle past the limit and ends their streams, here and on other instances. */
export async function sweepIdle(ctx: DraftContext): Promise<string[]> {
  ctx.sweeps.ran();
  const gone: string[] = [];
  for (;;) {
    const ids = await store.deleteIdle(ctx.db, cutoff(ctx), SWEEP_BATCH);
    for (const id of ids) ctx.hub.endDraft(id);
    await ctx.fanout.announceGone(ids);
    gone.push(...ids);
    if (ids.length < SWEEP_BATCH) return gone;
  }
}

/** At most once a minute, in the background; failures are logged, never surfaced to a request. */
export function maybeSweep(ctx: DraftContext): void {
  ctx.sweeps.maybeRun(() => sweepIdle(ctx));
}

/**
 * A notice from the fan-out: if anyone here watches the draft and may not have that revision,
 * read the row and hand it over; a draft that is gone ends its streams. Reads for one draft are
 * coalesced, so a burst of notices costs at most two reads.
 */
export function refreshWatchers(ctx: DraftContext, note: DraftNote): void {
  if (!ctx.hub.followed(note.id)) return;
  if (note.revision > 0 && note.revision <= ctx.hub.knownRevision(note.id)) return;
  ctx.refreshes.request(note.id, async () => {
    const row = await findDraft(ctx, note.id);
    if (!row) ctx.hub.endDraft(note.id);
    else publishRow(ctx, row);
  });
}

function publishRow(ctx: DraftContext, row: store.DraftRow): void {
  const delivered = ctx.hub.publish(row.id, row.revision, () => draftFrame(eventOf(row)));
  if (delivered > 0) ctx.observeFanout?.((ctx.now() - row.updated_at) / 1000);
}

/** After the fan-out missed notices: bring every watched draft up to date. */
export function refreshAll(ctx: DraftContext): void {
  for (const id of ctx.hub.watchedDrafts()) refreshWatchers(ctx, { id, revision: 0 });
}
