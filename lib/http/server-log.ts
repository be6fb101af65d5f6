import "server-only";
import diagnostics from "node:diagnostics_channel";

// How code below the operations layer (the route edge, connectors, sign-in, the playground)
// writes a log line: through a named channel that the composition root's logger listens on
// once the production server's operations start (lib/ops/log-sink.ts). A channel rather than
// a module-level logger because the framework compiles the instrumentation hook and each route
// bundle apart, each with its own copy of a module, while a channel's name is one per process;
// the logger on the other end adds the request id of whatever request is being answered.
// Without a listener (tests that build the app without a server, scripts) lines go to the
// console, as they did before.

export type ServerLogLevel = "debug" | "info" | "warn" | "error";
export type ServerLogFields = Record<string, string | number | boolean | null | undefined>;

export interface ServerLogMessage {
  level: ServerLogLevel;
  msg: string;
  fields: ServerLogFields;
}

/** Sent back on every answer, and put on the request for the route handler (lib/ops/requests.ts). */
export const REQUEST_ID_HEADER = "x-request-id";

export const SERVER_LOG_CHANNEL = "dashboards.log";
const channel = diagnostics.channel(SERVER_LOG_CHANNEL);

export function serverLog(level: ServerLogLevel, msg: string, fields: ServerLogFields = {}): void {
  if (channel.hasSubscribers) {
    channel.publish({ level, msg, fields } satisfies ServerLogMessage);
    return;
  }
  const { component, stack, ...rest } = fields;
  const extra = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}=${String(v)}`)
    .join("");
  console[level](`${component ? `[${component}] ` : ""}${msg}${extra}${stack ? `\n${String(stack)}` : ""}`);
}

/** An error's stack (or message), as a field. */
export function stackOf(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
