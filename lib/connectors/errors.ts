import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import type { ConnectorSlug } from "@/lib/config";
import { UpstreamError } from "./http";

// Upstream failures, in the API's words. A vendor that no longer accepts the stored token means
// the viewer must reconnect; anything else is the upstream's failure (502), never a partial list.

const notConnected: Record<ConnectorSlug, ErrorCode> = {
  tracker: "tracker_not_connected",
  coderepo: "coderepo_not_connected",
  calls: "calls_donor_not_connected",
  support: "support_not_connected",
};

const upstreamCode: Record<ConnectorSlug, ErrorCode> = {
  tracker: "tracker_upstream_error",
  coderepo: "coderepo_upstream_error",
  calls: "calls_upstream_error",
  support: "support_upstream_error",
};

export function toApiError(slug: ConnectorSlug, err: unknown): unknown {
  if (!(err instanceof UpstreamError)) return err;
  // Operators need to see upstream trouble; the message names method, path and status only.
  console.warn(`[${slug}] upstream ${err.kind}: ${err.message}`);
  if (err.kind === "unauthorized") {
    return new ApiError(
      notConnected[slug],
      slug === "calls" ? "The shared call-recording credential was refused; an admin reconnects it at /connections." : "The stored connection was refused; reconnect at /connections.",
    );
  }
  const why =
    err.kind === "timeout" ? "did not answer in time" : err.kind === "rate_limited" ? "is rate-limiting requests" : err.kind === "bad_response" ? "answered something unexpected" : "failed";
  return new ApiError(upstreamCode[slug], `The upstream ${why}; try again shortly.`);
}
