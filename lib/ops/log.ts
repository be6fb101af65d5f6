import "server-only";

// Structured logs: one JSON object per line on stdout, which every log collector reads as is.
// Callers hand over named fields, never a URL or a header: draft ids, write tokens and query
// strings are capabilities, so the request log carries the route template only.

export type LogValue = string | number | boolean | null;
export type LogFields = Record<string, LogValue | undefined>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const emit = (level: "info" | "warn" | "error", msg: string, fields: LogFields = {}) => {
    const line: Record<string, LogValue> = { time: new Date().toISOString(), level, msg };
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) line[k] = v;
    write(JSON.stringify(line));
  };
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}
