import { config } from "@/lib/config";
import type { ConnectionCheck } from "@/lib/contract/resources";
import { UpstreamError } from "./http";
import { upstreamFor, type AccessDeps } from "./access";
import { ApiError } from "@/lib/contract/errors";
import type { ConnectorDef } from "./types";

// The connection check: runs a connector's read-only probe as the calling person. `ok` is true
// exactly when the probe succeeded; every other outcome says why in `status` and `summary`.

export async function checkConnection(deps: AccessDeps, def: ConnectorDef, userId: number): Promise<ConnectionCheck> {
  const started = performance.now();
  const base = { slug: def.slug, title: def.title, probe: def.probeDescription };
  const elapsed = () => Math.round(performance.now() - started);
  const up = config().upstreams[def.slug];
  if (up.mode === "off") {
    return { ...base, status: "not-configured", ok: false, summary: `${def.product} is not configured in this deployment.`, details: [], durationMs: elapsed() };
  }
  let upstream;
  try {
    upstream = await upstreamFor(deps, def, userId);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ...base, status: "not-connected", ok: false, summary: err.hint ?? `Connect ${def.product} at /connections.`, details: [], durationMs: elapsed() };
  }
  try {
    const result = await def.probe(upstream);
    return { ...base, status: "ok", ok: true, summary: result.summary, details: result.details, durationMs: elapsed() };
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const summary =
      err.kind === "unauthorized"
        ? `${def.product} refused the stored credential; reconnect at /connections.`
        : err.kind === "timeout"
          ? `${def.product} did not answer in time.`
          : `${def.product} answered with an error (${err.status ?? err.kind}).`;
    return { ...base, status: "failed", ok: false, summary, details: [{ label: "Failure", value: err.kind }], durationMs: elapsed() };
  }
}
