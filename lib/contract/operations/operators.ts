import type { SiteOperationDef } from "./types";

// What operators ask of an instance: liveness, readiness and its metrics.

/** Metrics /metrics exposes beside the process's defaults (lib/ops/metrics.ts; a test keeps the two lists one). */
export const documentedMetrics = [
  ["http_requests_total", "requests answered, by method, route template and status"],
  ["http_request_duration_seconds", "request latency histogram, by method and route template"],
  ["http_requests_in_flight", "requests being answered now"],
  ["playground_event_streams_open", "open draft event streams on this instance"],
  ["playground_event_streams_on_socket", "of those, the streams written straight to their sockets; below the open count means the hand-over stopped happening"],
  ["playground_fanout_delay_seconds", "from an update's commit to its frame being handed to this instance's watchers"],
  ["crm_sync_runs_total", "CRM sync runs, by portal instance and outcome: `ok`, `failed`, or `skipped` while another run (on any instance) held the portal's lease"],
  ["crm_sync_errors_total", "CRM sync runs that failed, by portal instance"],
  ["crm_sync_duration_seconds", "CRM sync run duration histogram, by portal instance"],
  ["rate_limit_refusals_total", "requests refused by a rate limit or stream cap, by limit"],
  ["db_statements_total", "statements this instance sent to storage since it opened it (on SQLite, statements run): divided by the requests answered, what a request costs the database"],
] as const;

export const operatorOperations = [
  {
    id: "operations.healthz",
    method: "GET",
    path: "/healthz",
    summary: "Liveness: the process is up and answering",
    section: "operations",
    description: ["Checks nothing else, so a proxy or orchestrator restarts an instance only when it has stopped answering, not when storage is briefly away (that is `/readyz`)."],
    errors: ["method_not_allowed"],
  },
  {
    id: "operations.readyz",
    method: "GET",
    path: "/readyz",
    summary: "Readiness: whether this instance should be sent traffic",
    section: "operations",
    description: [
      "200 once storage answers, every migration this build knows is applied, and, on PostgreSQL, the listener that carries other instances' draft updates is connected. Otherwise 503 `not_ready` with `Retry-After: 5` and a hint naming which of the three is missing. During a graceful shutdown (SIGTERM) the instance stops accepting connections, so a proxy moves on.",
    ],
    errors: ["not_ready", "method_not_allowed"],
  },
  {
    id: "operations.metrics",
    method: "GET",
    path: "/metrics",
    summary: "This instance's Prometheus metrics",
    section: "operations",
    description: [
      "The Prometheus text format, one instance's figures: scrape every instance, not the proxy. Beside Node's process metrics (CPU, memory, event-loop lag, garbage collection):",
      { kind: "list", items: documentedMetrics.map(([name, help]) => `\`${name}\`: ${help}`) },
      "Route labels are templates (`/api/crm/:instance/companies`), never a path value, a draft id or a token.",
    ],
    errors: ["unauthorized", "not_found", "method_not_allowed"],
  },
] as const satisfies readonly SiteOperationDef[];
