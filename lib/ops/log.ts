import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// Logs for the reader they reach. A collector (stdout not a terminal, or LOG_FORMAT=json) gets
// one JSON object per line, read as is; a person at a terminal gets one short coloured line per
// request and readable lines for the rest. Callers hand over named fields, never a URL or a
// header: draft ids, write tokens and query strings are capabilities, so the request log
// carries the route template only.
//
// Every line written while a request is being answered carries its request id (the one sent
// back as x-request-id): the request edge (requests.ts) enters the request's scope before the
// framework sees the request, and the scope follows every await from there.

export type LogValue = string | number | boolean | null;
export type LogFields = Record<string, LogValue | undefined>;
export type LogLevel = "debug" | "info" | "warn" | "error";
type LogFormat = "json" | "pretty";

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** One log line before it is written: its time, level and message, then the caller's fields. */
export type LogRecord = { time: string; level: LogLevel; msg: string } & Record<string, LogValue>;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Marks the rest of the current execution, and everything it awaits or schedules, as answering
 * `requestId`. Called once per request by the request edge, before the framework runs.
 */
export function enterRequestScope(requestId: string): void {
  requestScope.enterWith({ requestId });
}

/**
 * Runs `fn` as no request's: for what is built once on the first request that needs it and then
 * outlives it (storage, the playground's hub and listener, the renderer), whose timers and
 * listeners would otherwise carry that first request's id on their lines for good.
 */
export function outsideRequestScope<T>(fn: () => T): T {
  return requestScope.exit(fn);
}

/** The request being answered here, if any. */
function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

export function jsonLine(record: LogRecord): string {
  return JSON.stringify(record);
}

const COLOURS = { reset: "\x1b[0m", dim: "\x1b[2m", red: "\x1b[31m", yellow: "\x1b[33m", green: "\x1b[32m", cyan: "\x1b[36m", magenta: "\x1b[35m" } as const;
const LEVEL_COLOUR: Record<LogLevel, keyof typeof COLOURS> = { debug: "magenta", info: "cyan", warn: "yellow", error: "red" };

function statusColour(status: number): keyof typeof COLOURS {
  if (status >= 500) return "red";
  if (status >= 400) return "yellow";
  return "green";
}

function printable(v: LogValue): string {
  if (typeof v !== "string") return String(v);
  return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
}

/**
 * The line a person reads: the time of day, then for a request its method, route, status,
 * duration and id; for anything else its level, message and fields. A stack goes on the lines
 * below, as Node prints it.
 */
export function prettyLine(record: LogRecord, colour: boolean): string {
  const paint = (c: keyof typeof COLOURS, s: string) => (colour ? `${COLOURS[c]}${s}${COLOURS.reset}` : s);
  const { time, level, msg, requestId, stack, ...rest } = record;
  const clock = paint("dim", time.slice(11, 23));
  const id = typeof requestId === "string" ? ` ${paint("dim", requestId)}` : "";
  if (msg === "request" && typeof rest.method === "string" && typeof rest.route === "string" && typeof rest.status === "number") {
    const { method, route, status, durationMs, aborted } = rest;
    const took = typeof durationMs === "number" ? ` ${durationMs}ms` : "";
    return `${clock} ${method} ${route} ${paint(statusColour(status), String(status))}${took}${aborted ? paint("yellow", " aborted") : ""}${id}`;
  }
  const fields = Object.entries(rest)
    .map(([k, v]) => ` ${paint("dim", `${k}=`)}${printable(v)}`)
    .join("");
  const head = `${clock} ${paint(LEVEL_COLOUR[level], level.toUpperCase().padEnd(5))} ${msg}${fields}${id}`;
  return typeof stack === "string" ? `${head}\n${paint("dim", stack.replace(/^/gm, "    "))}` : head;
}

interface LoggerOptions {
  format: LogFormat;
  /** Lines below it are not written. */
  level: LogLevel;
  /** ANSI colours in the pretty format. */
  colour?: boolean;
  write?: (line: string) => void;
  now?: () => Date;
}

// A reader that goes away (a closed pipe: EPIPE) ends the log, not the server: without a listener
// the stream's error would be thrown, and a handler that logged it would write to it again.
let stdoutGone = false;
let watchingStdout = false;
function writeStdout(line: string): void {
  if (!watchingStdout) {
    watchingStdout = true;
    process.stdout.on("error", () => {
      stdoutGone = true;
    });
  }
  if (!stdoutGone) process.stdout.write(`${line}\n`);
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? writeStdout;
  const now = options.now ?? (() => new Date());
  const floor = RANK[options.level];
  const emit = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    if (RANK[level] < floor) return;
    const record = { time: now().toISOString(), level, msg } as LogRecord;
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) record[k] = v;
    const requestId = currentRequestId();
    if (requestId !== undefined && record.requestId === undefined) record.requestId = requestId;
    write(options.format === "json" ? jsonLine(record) : prettyLine(record, options.colour ?? false));
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}
