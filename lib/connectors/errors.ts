import "server-only";
import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import type { ConnectorSlug } from "@/lib/config";
import { UpstreamError } from "./http";
import { serverLog } from "@/lib/http/server-log";

// Upstream failures, in the API's words. A vendor that no longer accepts the stored token means
// the viewer must reconnect; anything else is the upstream's failure (502), never a partial list.
// The CRM portal is read with the organisation's own token, so a refusal there is the
// deployment's problem, not the viewer's: it answers 502 like any other upstream failure.

type Upstream = ConnectorSlug | "crmportal";

const refused: Record<Upstream, { code: ErrorCode; hint: string }> = {
  tracker: { code: "tracker_not_connected", hint: "The stored connection was refused; reconnect at /connections." },
  coderepo: { code: "coderepo_not_connected", hint: "The stored connection was refused; reconnect at /connections." },
  support: { code: "support_not_connected", hint: "The stored connection was refused; reconnect at /connections." },
  calls: { code: "calls_donor_not_connected", hint: "The shared call-recording credential was refused; an admin reconnects it at /connections." },
  crmportal: { code: "crmportal_upstream_error", hint: "The CRM portal refused this deployment's token; an operator sets CRMPORTAL_TOKEN." },
};

const productOf: Record<Upstream, string> = { tracker: "The issue tracker", coderepo: "Code hosting", calls: "Call recording", support: "Customer messaging", crmportal: "The CRM portal" };

const upstreamCode: Record<Upstream, ErrorCode> = {
  tracker: "tracker_upstream_error",
  coderepo: "coderepo_upstream_error",
  calls: "calls_upstream_error",
  support: "support_upstream_error",
  crmportal: "crmportal_upstream_error",
};

/** Longest wait the API suggests after an upstream rate limit when the vendor named none. */
const RATE_LIMIT_RETRY_DEFAULT_S = 30;

export function toApiError(slug: Upstream, err: unknown): unknown {
  if (!(err instanceof UpstreamError)) return err;
  // Operators need to see upstream trouble; the message names method, path and status only.
  serverLog("warn", `upstream ${err.kind}: ${err.message}`, { component: slug });
  if (err.kind === "unauthorized") return new ApiError(refused[slug].code, refused[slug].hint);
  if (err.kind === "rate_limited") {
    // Not the upstream failing: it asked for time. Say how long, in the vendor's own figure.
    const seconds = err.retryAfterMs === undefined ? RATE_LIMIT_RETRY_DEFAULT_S : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    return new ApiError("upstream_rate_limited", `${productOf[slug]} is rate-limiting this deployment's requests; try again in ${seconds} s.`, { "retry-after": String(seconds) });
  }
  const why =
    err.kind === "timeout" ? "did not answer in time" : err.kind === "bad_response" ? "answered something unexpected" : "failed";
  return new ApiError(upstreamCode[slug], `The upstream ${why}; try again shortly.`);
}
