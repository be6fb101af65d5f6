import "server-only";
import { open, type FileHandle } from "node:fs/promises";
import { z } from "zod";
import type { Db } from "@/lib/db";

// Product usage (weekly active persons per school) and health scores arrive as files from
// systems outside the CRM portal. A file is checked whole before anything is written, so a bad
// line never leaves half a load behind; the load itself is one transaction. A file is read a
// line at a time, and no line is held past the cap, so a file of any shape is checked in little
// memory.

/**
 * The longest line an import reads. A row of usage or health is a few dozen bytes; a line a
 * thousand times that is not one, and reading it whole is what would cost the memory.
 */
const IMPORT_LINE_MAX_BYTES = 64 * 1024;
const TOO_LONG = `is longer than ${IMPORT_LINE_MAX_BYTES / 1024} KiB, the most an import reads in one line (a row is a few dozen bytes: is this the file you meant?)`;

interface UsageRow {
  productSchoolId: string;
  /** YYYY-MM-DD, the first day of the week. */
  weekStart: string;
  activePersons: number;
}

interface HealthRow {
  companyId: string;
  date: string;
  /** 0 to 100, or null when the score could not be computed. */
  score: number | null;
}

type ImportFormat = "csv" | "ndjson";

interface LineIssue {
  line: number;
  message: string;
}

/** A file that cannot be loaded, with every bad line named (1-based, as an editor counts). */
export class ImportError extends Error {
  constructor(readonly issues: LineIssue[]) {
    const shown = issues.slice(0, 20).map((i) => `line ${i.line}: ${i.message}`);
    if (issues.length > shown.length) shown.push(`… and ${issues.length - shown.length} more`);
    super(shown.join("\n"));
    this.name = "ImportError";
  }
}

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const calendarDate = z.string().refine(isCalendarDate, "expected a calendar date as YYYY-MM-DD");
// Characters that do not show, or that change how the text around them shows: an id holding one
// looks like another id (or reorders what is printed after it) wherever it is displayed.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

function invisibleKind(c: string): string {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(c)) return "a control character";
  if (/[\u200b-\u200d\u2060\ufeff]/.test(c)) return "a zero-width character";
  return "a bidirectional control";
}

/** Why an id may not be used as it is, or null. Checked before trimming, which would hide some. */
function invisibleIn(v: string): string | null {
  const found = INVISIBLE.exec(v);
  if (!found) return null;
  const c = found[0];
  const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  return `holds ${code}, ${invisibleKind(c)}, at character ${[...v.slice(0, found.index)].length + 1}; an id may not hold control, bidirectional or zero-width characters`;
}

const id = z
  .string()
  .superRefine((v, ctx) => {
    const why = invisibleIn(v);
    if (why) ctx.addIssue({ code: "custom", message: why });
  })
  .trim()
  .min(1, "must not be empty")
  .max(200, "is longer than 200 characters");

const usageRowSchema = z.object({
  productSchoolId: id,
  weekStart: calendarDate,
  activePersons: z.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must not be negative"),
});

const healthRowSchema = z.object({
  companyId: id,
  date: calendarDate,
  score: z.number({ error: "must be a number from 0 to 100, or empty" }).min(0, "must be from 0 to 100").max(100, "must be from 0 to 100").nullable(),
});

/** Column names accepted in a CSV header, mapped to the field each fills. */
const usageColumns: Record<string, keyof UsageRow> = {
  productschoolid: "productSchoolId",
  product_school_id: "productSchoolId",
  weekstart: "weekStart",
  week_start: "weekStart",
  activepersons: "activePersons",
  active_persons: "activePersons",
};
const healthColumns: Record<string, keyof HealthRow> = {
  companyid: "companyId",
  company_id: "companyId",
  date: "date",
  score: "score",
};

/** Splits one CSV line (RFC 4180 quoting, no line breaks inside fields); null when a quote is left open. */
export function splitCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === ",") {
      out.push(field);
      field = "";
    } else field += ch;
  }
  if (quoted) return null;
  out.push(field);
  return out;
}

/** A CSV cell as a JSON-like value: blank is null, a plain number is a number, else the text. */
function cellValue(cell: string): string | number | null {
  const t = cell.trim();
  if (t === "") return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return t;
}

/** One line of a file: its text, or what keeps it from being read (too long, not UTF-8). */
type FileLine = { n: number; text: string } | { n: number; text: null; problem: string };

const NOT_UTF8 = "is not UTF-8 text (save the file as UTF-8)";

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const where = issue.path.join(".");
  const key = issue.path[0];
  const absent = issue.path.length === 1 && typeof value === "object" && value !== null && !Array.isArray(value) && !(String(key) in value);
  if (issue.code === "invalid_type" && absent) return `${where} is missing`;
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** What one kind of file holds, and how its lines are read. */
interface FileKind<T> {
  /** One row, as it must be. */
  schema: z.ZodType<T>;
  /** Column names accepted in a CSV header, mapped to the field each fills. */
  columns: Record<string, string>;
  /** Fields a CSV cell fills as text even when it looks like a number (ids and dates). */
  textFields: ReadonlySet<string>;
  /** Of those, the ids: passed on untrimmed, so the id check sees what trimming would hide. */
  idFields: ReadonlySet<string>;
  /** The key no two rows may share. */
  keyOf: (row: T) => string;
  /** The key's fields, as a repeated line names them. */
  keyName: string;
}

/**
 * Reads a file line by line: each line is parsed and checked as it comes, so only the rows
 * (never the text) are kept. `line` answers false once nothing more can be read from the file
 * (a CSV header that is not right).
 */
class FileParser<T> {
  private readonly out: T[] = [];
  private readonly issues: LineIssue[] = [];
  private readonly firstLineOf = new Map<string, number>();
  private header: { cells: number; fields: Array<string | null> } | null = null;

  constructor(
    private readonly format: ImportFormat,
    private readonly kind: FileKind<T>,
  ) {}

  line(l: FileLine): boolean {
    const { n, text } = l;
    if (text === null) {
      const { problem } = l as { problem: string };
      if (this.format === "csv" && !this.header) {
        this.issues.push({ line: n, message: `the header ${problem}` });
        return false;
      }
      this.issues.push({ line: n, message: problem });
      return true;
    }
    if (text.trim() === "") return true;
    if (this.format === "ndjson") {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.issues.push({ line: n, message: "not a JSON object" });
        return true;
      }
      this.row(n, value);
      return true;
    }
    if (!this.header) return this.readHeader(n, text);
    const cells = splitCsvLine(text);
    if (!cells) {
      this.issues.push({ line: n, message: "unterminated quote" });
      return true;
    }
    if (cells.length !== this.header.cells) {
      this.issues.push({ line: n, message: `has ${cells.length} fields, the header has ${this.header.cells}` });
      return true;
    }
    const value: Record<string, unknown> = {};
    cells.forEach((c, j) => {
      const f = this.header!.fields[j];
      // Ids and dates stay text even when they look like numbers.
      if (f) value[f] = this.kind.idFields.has(f) ? c : this.kind.textFields.has(f) ? c.trim() : cellValue(c);
    });
    this.row(n, value);
    return true;
  }

  private readHeader(n: number, text: string): boolean {
    const header = splitCsvLine(text);
    if (!header) {
      this.issues.push({ line: n, message: "unterminated quote in the header" });
      return false;
    }
    const fields = header.map((h) => this.kind.columns[h.trim().toLowerCase()] ?? null);
    const missing = [...new Set(Object.values(this.kind.columns))].filter((f) => !fields.includes(f));
    if (missing.length) {
      this.issues.push({ line: n, message: `the header lacks column(s) ${missing.join(", ")}` });
      return false;
    }
    this.header = { cells: header.length, fields };
    return true;
  }

  private row(line: number, value: unknown): void {
    const parsed = this.kind.schema.safeParse(value);
    if (!parsed.success) {
      this.issues.push({ line, message: parsed.error.issues.map((i) => describeIssue(i, value)).join("; ") });
      return;
    }
    const key = this.kind.keyOf(parsed.data);
    const earlier = this.firstLineOf.get(key);
    if (earlier !== undefined) {
      this.issues.push({ line, message: `repeats line ${earlier} (same ${this.kind.keyName})` });
      return;
    }
    this.firstLineOf.set(key, line);
    this.out.push(parsed.data);
  }

  result(): T[] {
    if (this.issues.length) throw new ImportError(this.issues.sort((a, b) => a.line - b.line));
    if (this.out.length === 0) throw new ImportError([{ line: 1, message: "the file holds no rows" }]);
    return this.out;
  }
}

function parseText<T>(text: string, format: ImportFormat, kind: FileKind<T>): T[] {
  const parser = new FileParser(format, kind);
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!;
    const tooLong = t.length > IMPORT_LINE_MAX_BYTES / 3 && Buffer.byteLength(t) > IMPORT_LINE_MAX_BYTES;
    if (!parser.line(tooLong ? { n: i + 1, text: null, problem: TOO_LONG } : { n: i + 1, text: t })) break;
  }
  return parser.result();
}

/**
 * A file's lines, read in pieces: a line is gathered only up to the cap, and past it the rest of
 * the line is skipped unread. Lines that are not UTF-8 come back as text the checks refuse.
 */
async function* fileLines(fh: FileHandle): AsyncGenerator<FileLine> {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const chunk = Buffer.allocUnsafe(64 * 1024);
  // One byte past the cap is kept, for the "\r" of a CRLF line.
  const keep = IMPORT_LINE_MAX_BYTES + 1;
  let parts: Buffer[] = [];
  let size = 0;
  let over = false;
  let n = 0;
  const take = (): FileLine => {
    n++;
    let bytes = Buffer.concat(parts, size);
    const long = over;
    parts = [];
    size = 0;
    over = false;
    if (n === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    if (bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (long || bytes.length > IMPORT_LINE_MAX_BYTES) return { n, text: null, problem: TOO_LONG };
    try {
      return { n, text: utf8.decode(bytes) };
    } catch {
      return { n, text: null, problem: NOT_UTF8 };
    }
  };
  for (let at = 0; ; ) {
    const { bytesRead } = await fh.read(chunk, 0, chunk.length, at);
    if (bytesRead === 0) break;
    at += bytesRead;
    for (let start = 0; start < bytesRead; ) {
      const found = chunk.indexOf(0x0a, start);
      const stop = found < 0 || found >= bytesRead ? bytesRead : found;
      if (!over && size + (stop - start) > keep) {
        over = true;
        parts = [];
        size = 0;
      }
      if (!over && stop > start) {
        parts.push(Buffer.from(chunk.subarray(start, stop)));
        size += stop - start;
      }
      if (stop === bytesRead) break;
      yield take();
      start = stop + 1;
    }
  }
  if (size > 0 || over) yield take();
}

async function parseFile<T>(file: string, format: ImportFormat, kind: FileKind<T>): Promise<T[]> {
  const fh = await open(file, "r");
  try {
    const parser = new FileParser(format, kind);
    for await (const line of fileLines(fh)) if (!parser.line(line)) break;
    return parser.result();
  } finally {
    await fh.close();
  }
}

const usageFile: FileKind<UsageRow> = {
  schema: usageRowSchema,
  columns: usageColumns,
  textFields: new Set(["productSchoolId", "weekStart"]),
  idFields: new Set(["productSchoolId"]),
  keyOf: (r) => `${r.productSchoolId}\u0000${r.weekStart}`,
  keyName: "productSchoolId and weekStart",
};

const healthFile: FileKind<HealthRow> = {
  schema: healthRowSchema,
  columns: healthColumns,
  textFields: new Set(["companyId", "date"]),
  idFields: new Set(["companyId"]),
  keyOf: (r) => `${r.companyId}\u0000${r.date}`,
  keyName: "companyId and date",
};

export function parseUsageFile(text: string, format: ImportFormat): UsageRow[] {
  return parseText(text, format, usageFile);
}

export function parseHealthFile(text: string, format: ImportFormat): HealthRow[] {
  return parseText(text, format, healthFile);
}

/** A usage file read from disk a line at a time, checked like `parseUsageFile`. */
export function readUsageFile(file: string, format: ImportFormat): Promise<UsageRow[]> {
  return parseFile(file, format, usageFile);
}

/** A health file read from disk a line at a time, checked like `parseHealthFile`. */
export function readHealthFile(file: string, format: ImportFormat): Promise<HealthRow[]> {
  return parseFile(file, format, healthFile);
}

/** The format a file's name implies, or null. */
export function formatOfFile(name: string): ImportFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) return "ndjson";
  return null;
}

const BATCH = 500;

/** One row per key, the last one given winning: one upsert statement must not touch a row twice. */
function lastPerKey<T>(rows: readonly T[], keyOf: (row: T) => string): T[] {
  return [...new Map(rows.map((r) => [keyOf(r), r])).values()];
}

async function recordSource(db: Db, name: "usage" | "health", now: number): Promise<number> {
  const table = name === "usage" ? "usage_weeks" : "health_scores";
  const counted = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirst();
  const rows = Number(counted?.n ?? 0);
  await db
    .insertInto("data_sources")
    .values({ name, loaded_at: now, rows })
    .onConflict((oc) => oc.column("name").doUpdateSet({ loaded_at: now, rows }))
    .execute();
  return rows;
}

/**
 * Upserts weekly usage and marks the `usage` source loaded; `data_sources.rows` is the number of
 * rows held after the load. Answers the rows loaded and held.
 */
export async function loadUsage(db: Db, rows: readonly UsageRow[], now = Date.now()): Promise<{ loaded: number; held: number }> {
  const valid = lastPerKey(
    rows.map((r) => usageRowSchema.parse(r)),
    (r) => `${r.productSchoolId}\u0000${r.weekStart}`,
  );
  return db.transaction().execute(async (trx) => {
    for (let i = 0; i < valid.length; i += BATCH) {
      await trx
        .insertInto("usage_weeks")
        .values(valid.slice(i, i + BATCH).map((r) => ({ product_school_id: r.productSchoolId, week_start: r.weekStart, active_persons: r.activePersons })))
        .onConflict((oc) => oc.columns(["product_school_id", "week_start"]).doUpdateSet((eb) => ({ active_persons: eb.ref("excluded.active_persons") })))
        .execute();
    }
    return { loaded: valid.length, held: await recordSource(trx, "usage", now) };
  });
}

/** Upserts health scores and marks the `health` source loaded, like `loadUsage`. */
export async function loadHealth(db: Db, rows: readonly HealthRow[], now = Date.now()): Promise<{ loaded: number; held: number }> {
  const valid = lastPerKey(
    rows.map((r) => healthRowSchema.parse(r)),
    (r) => `${r.companyId}\u0000${r.date}`,
  );
  return db.transaction().execute(async (trx) => {
    for (let i = 0; i < valid.length; i += BATCH) {
      await trx
        .insertInto("health_scores")
        .values(valid.slice(i, i + BATCH).map((r) => ({ company_id: r.companyId, date: r.date, score: r.score })))
        .onConflict((oc) => oc.columns(["company_id", "date"]).doUpdateSet((eb) => ({ score: eb.ref("excluded.score") })))
        .execute();
    }
    return { loaded: valid.length, held: await recordSource(trx, "health", now) };
  });
}
