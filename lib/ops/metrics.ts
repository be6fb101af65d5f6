import "server-only";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

// The process's Prometheus metrics, one registry per app. Labels are bounded sets: route
// templates (never addresses), methods, status codes, limit names and sync outcomes.

export interface Metrics {
  readonly registry: Registry;
  request(method: string, route: string, status: number, seconds: number): void;
  /** Open event streams, read when scraped. */
  streamsFrom(read: () => number): void;
  /** Of those, the ones written straight to their sockets. */
  socketStreamsFrom(read: () => number): void;
  /** Statements sent to storage since it opened, read when scraped. */
  statementsFrom(read: () => number): void;
  /** Requests whose answers have not ended, read when scraped. */
  inFlightFrom(read: () => number): void;
  /** An update reached every watcher here that lacked it: seconds since the revision was written. */
  fanout(seconds: number): void;
  /** A sync run of a portal instance; `skipped` when another run (here or on another instance) held its lease. */
  syncRun(instance: string, outcome: "ok" | "failed" | "skipped", seconds: number): void;
  refused(limit: string): void;
  /** Adds prom-client's process metrics (CPU, memory, event loop, GC); once, by the production server. */
  collectProcessMetrics(): void;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process metrics watch garbage collection with an observer of their own: only the server
  // process's app starts them, not every app a test builds.
  let processMetrics = false;
  const requests = new Counter({ name: "http_requests_total", help: "Requests answered, by method, route template and status.", labelNames: ["method", "route", "status"], registers: [registry] });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method, route template and status (an event stream counts its whole life).",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let readStreams: () => number = () => 0;
  let readSocketStreams: () => number = () => 0;
  let readInFlight: () => number = () => 0;
  let readStatements: () => number = () => 0;
  new Counter({
    name: "db_statements_total",
    help: "Statements sent to storage by this instance since it opened it (on SQLite, statements run).",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(readStatements());
    },
  });
  new Gauge({
    name: "http_requests_in_flight",
    help: "Requests whose answers have not ended (open event streams included), this scrape among them.",
    registers: [registry],
    collect() {
      this.set(readInFlight());
    },
  });
  new Gauge({
    name: "playground_event_streams_open",
    help: "Draft event streams open on this instance.",
    registers: [registry],
    collect() {
      this.set(readStreams());
    },
  });
  new Gauge({
    name: "playground_event_streams_on_socket",
    // A stream left to the framework's pipe costs several times the memory: after a framework
    // upgrade, this falling below the open streams is the sign the hand-over no longer happens.
    help: "Of the open draft event streams, those written straight to their sockets rather than through the framework's response pipe.",
    registers: [registry],
    collect() {
      this.set(readSocketStreams());
    },
  });
  const fanoutDelay = new Histogram({
    name: "playground_fanout_delay_seconds",
    help: "From a revision being written to its frame being handed to every watcher on this instance that lacked it.",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const syncRuns = new Counter({ name: "crm_sync_runs_total", help: "CRM sync runs, by portal instance and outcome (ok, failed, or skipped while another run held the lease).", labelNames: ["instance", "outcome"], registers: [registry] });
  const syncErrors = new Counter({ name: "crm_sync_errors_total", help: "CRM sync runs that failed, by portal instance.", labelNames: ["instance"], registers: [registry] });
  const syncDuration = new Histogram({
    name: "crm_sync_duration_seconds",
    help: "How long a CRM sync run took, by portal instance.",
    labelNames: ["instance"],
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const refusals = new Counter({ name: "rate_limit_refusals_total", help: "Requests refused by a rate limit or stream cap, by limit.", labelNames: ["limit"], registers: [registry] });

  return {
    registry,
    request(method, route, status, seconds) {
      const labels = { method: METHODS.has(method) ? method : "OTHER", route, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    streamsFrom(read) {
      readStreams = read;
    },
    socketStreamsFrom(read) {
      readSocketStreams = read;
    },
    inFlightFrom(read) {
      readInFlight = read;
    },
    statementsFrom(read) {
      readStatements = read;
    },
    fanout: (seconds) => fanoutDelay.observe(Math.max(0, seconds)),
    syncRun(instance, outcome, seconds) {
      syncRuns.inc({ instance, outcome });
      if (outcome === "failed") syncErrors.inc({ instance });
      // A skipped run did no work; its time would only pull the histogram towards zero.
      if (outcome !== "skipped") syncDuration.observe({ instance }, seconds);
    },
    refused: (limit) => refusals.inc({ limit }),
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry });
    },
  };
}
