import "server-only";
import diagnostics from "node:diagnostics_channel";
import { SERVER_LOG_CHANNEL, type ServerLogMessage } from "@/lib/http/server-log";
import type { Logger } from "./log";

/** Lines written through lib/http/server-log.ts go to `log` from now on. */
export function sinkServerLog(log: Logger): void {
  diagnostics.subscribe(SERVER_LOG_CHANNEL, (message) => {
    const { level, msg, fields } = message as ServerLogMessage;
    log[level](msg, fields);
  });
}
