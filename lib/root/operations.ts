import "server-only";
import type { Config } from "@/lib/config";
import { sinkServerLog } from "@/lib/ops/log-sink";
import type { Logger } from "@/lib/ops/log";
import type { Metrics } from "@/lib/ops/metrics";
import { installRequestEdge, type RequestEdge } from "@/lib/ops/requests";
import { buildRouteTemplates } from "@/lib/ops/route-template";
import { shutdownOnSignal } from "@/lib/ops/shutdown";

interface OperationsParts {
  config: Config;
  log: Logger;
  metrics: Metrics;
  /** Ends the open event streams on shutdown; how many there were. */
  endStreams: () => Promise<number>;
  /** Stops what the app started, after the requests in flight have ended. */
  close: () => Promise<void>;
}

/**
 * The production server's operations: every request timed, counted and logged with a request
 * id, and SIGTERM shutting down gracefully (lib/ops). The edge it installs is returned.
 */
export function startOperations(parts: OperationsParts): RequestEdge {
  const { config, log, metrics } = parts;
  metrics.collectProcessMetrics();
  sinkServerLog(log);
  const installed = installRequestEdge({ log, metrics, template: buildRouteTemplates() });
  metrics.inFlightFrom(installed.inFlight);
  shutdownOnSignal({ edge: installed, graceMs: config.shutdownGraceMs, log, endStreams: parts.endStreams, close: parts.close });
  return installed;
}
