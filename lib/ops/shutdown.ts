import "server-only";
import type { Logger } from "./log";
import type { RequestEdge } from "./requests";

// SIGTERM (a deploy, a scale-down, `docker stop`): stop accepting, ask event-stream watchers to
// reconnect (elsewhere, through the proxy), let requests in flight finish within the grace time,
// close storage, exit 0. A stream ends with a retry hint, so its browser comes back in about a
// second, to another instance, and resumes with Last-Event-ID.

export interface ShutdownDeps {
  edge: Pick<RequestEdge, "inFlight" | "idle" | "stopAccepting" | "destroyConnections">;
  graceMs: number;
  log: Logger;
  /** Ends every open event stream with a reconnect hint; answers how many there were. */
  endStreams(): Promise<number>;
  /** Stops background work and closes storage. */
  close(): Promise<void>;
  exit?: (code: number) => void;
}

export function shutdownOnSignal(deps: ShutdownDeps, signals: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"]): () => Promise<void> {
  let running: Promise<void> | null = null;
  const run = () => (running ??= shutdown(deps));
  for (const s of signals) process.on(s, () => void run());
  return run;
}

async function shutdown(deps: ShutdownDeps): Promise<void> {
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  const t0 = performance.now();
  deps.log.info("shutdown", { phase: "start", inFlight: deps.edge.inFlight(), graceMs: deps.graceMs });
  deps.edge.stopAccepting();
  let streams = 0;
  try {
    streams = await deps.endStreams();
  } catch (err) {
    deps.log.error("shutdown", { phase: "streams", error: err instanceof Error ? err.message : String(err) });
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = await Promise.race([
    deps.edge.idle().then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), deps.graceMs))),
  ]);
  clearTimeout(timer);
  if (expired) {
    deps.log.warn("shutdown", { phase: "grace expired", inFlight: deps.edge.inFlight() });
    deps.edge.destroyConnections();
  }
  try {
    await deps.close();
  } catch (err) {
    deps.log.error("shutdown", { phase: "close", error: err instanceof Error ? err.message : String(err) });
  }
  deps.log.info("shutdown", { phase: "done", streams, durationMs: Math.round(performance.now() - t0) });
  exit(0);
}
