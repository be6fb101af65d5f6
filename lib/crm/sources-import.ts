import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db";

// Product usage (weekly active persons per school) and health scores arrive as files from
// systems outside the CRM portal. A file is checked whole before anything is written, so a bad
// line never leaves half a load behind; the load itself is one transaction.

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
const id = z.string().trim().min(1, "must not be empty").max(200, "is longer than 200 characters");

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

interface RawLine {
  line: number;
  value: unknown;
}

function rawLines(text: string, format: ImportFormat, columns: Record<string, string>, textFields: ReadonlySet<string>): { rows: RawLine[]; issues: LineIssue[] } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const rows: RawLine[] = [];
  const issues: LineIssue[] = [];

  if (format === "ndjson") {
    lines.forEach((l, i) => {
      if (l.trim() === "") return;
      try {
        rows.push({ line: i + 1, value: JSON.parse(l) });
      } catch {
        issues.push({ line: i + 1, message: "not a JSON object" });
      }
    });
    return { rows, issues };
  }

  const headerAt = lines.findIndex((l) => l.trim() !== "");
  if (headerAt < 0) return { rows, issues };
  const header = splitCsvLine(lines[headerAt] ?? "");
  if (!header) return { rows, issues: [{ line: headerAt + 1, message: "unterminated quote in the header" }] };
  const fields = header.map((h) => columns[h.trim().toLowerCase()] ?? null);
  const wanted = [...new Set(Object.values(columns))];
  const missing = wanted.filter((f) => !fields.includes(f));
  if (missing.length) {
    return { rows, issues: [{ line: headerAt + 1, message: `the header lacks column(s) ${missing.join(", ")}` }] };
  }
  for (let i = headerAt + 1; i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (l.trim() === "") continue;
    const cells = splitCsvLine(l);
    if (!cells) {
      issues.push({ line: i + 1, message: "unterminated quote" });
      continue;
    }
    if (cells.length !== header.length) {
      issues.push({ line: i + 1, message: `has ${cells.length} fields, the header has ${header.length}` });
      continue;
    }
    const value: Record<string, unknown> = {};
    cells.forEach((c, j) => {
      const f = fields[j];
      // Ids and dates stay text even when they look like numbers.
      if (f) value[f] = textFields.has(f) ? c.trim() : cellValue(c);
    });
    rows.push({ line: i + 1, value });
  }
  return { rows, issues };
}

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
  /** The key no two rows may share. */
  keyOf: (row: T) => string;
  /** The key's fields, as a repeated line names them. */
  keyName: string;
}

function parseRows<T>(text: string, format: ImportFormat, kind: FileKind<T>): T[] {
  const { schema, keyOf, keyName } = kind;
  const { rows, issues } = rawLines(text, format, kind.columns, kind.textFields);
  const out: T[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { line, value } of rows) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      issues.push({ line, message: parsed.error.issues.map((i) => describeIssue(i, value)).join("; ") });
      continue;
    }
    const key = keyOf(parsed.data);
    const earlier = firstLineOf.get(key);
    if (earlier !== undefined) {
      issues.push({ line, message: `repeats line ${earlier} (same ${keyName})` });
      continue;
    }
    firstLineOf.set(key, line);
    out.push(parsed.data);
  }
  if (issues.length) throw new ImportError(issues.sort((a, b) => a.line - b.line));
  if (out.length === 0) throw new ImportError([{ line: 1, message: "the file holds no rows" }]);
  return out;
}

const usageFile: FileKind<UsageRow> = {
  schema: usageRowSchema,
  columns: usageColumns,
  textFields: new Set(["productSchoolId", "weekStart"]),
  keyOf: (r) => `${r.productSchoolId}\u0000${r.weekStart}`,
  keyName: "productSchoolId and weekStart",
};

const healthFile: FileKind<HealthRow> = {
  schema: healthRowSchema,
  columns: healthColumns,
  textFields: new Set(["companyId", "date"]),
  keyOf: (r) => `${r.companyId}\u0000${r.date}`,
  keyName: "companyId and date",
};

export function parseUsageFile(text: string, format: ImportFormat): UsageRow[] {
  return parseRows(text, format, usageFile);
}

export function parseHealthFile(text: string, format: ImportFormat): HealthRow[] {
  return parseRows(text, format, healthFile);
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
