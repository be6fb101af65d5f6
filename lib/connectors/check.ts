import "server-only";
import { ApiError } from "@/lib/contract/errors";
import type { ConnectionCheck } from "@/lib/contract/resources";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import type { Credentials } from "./credentials";
import { UpstreamError, type UpstreamOptions } from "./http";
import type { ConnectorDef, ProbeResult } from "./types";

// The connection check: runs a connector's read-only probe. `ok` is true exactly when the probe
// succeeded; every other outcome says why in `status` and `summary`.

interface CheckSubject {
  slug: string;
  title: string;
  product: string;
  probeDescription: string;
}

/**
 * Where the probe may read from (with `run`, a read that renews a refused credential once), or
 * why it cannot.
 */
type CheckAccess =
  | { upstream: UpstreamOptions; run?: <T>(load: (up: UpstreamOptions) => Promise<T>) => Promise<T> }
  | { status: "not-configured" | "not-connected"; summary: string };

export async function runCheck(
  subject: CheckSubject,
  access: () => Promise<CheckAccess>,
  probe: (up: UpstreamOptions) => Promise<ProbeResult>,
  refusedSummary: string,
): Promise<ConnectionCheck> {
  const started = performance.now();
  const base = { slug: subject.slug, title: subject.title, probe: subject.probeDescription };
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // Renewing a credential may ask the vendor, so finding access can fail like the probe.
    const found = await access();
    if (!("upstream" in found)) return { ...base, status: found.status, ok: false, summary: found.summary, details: [], durationMs: elapsed() };
    const result = await (found.run ? found.run(probe) : probe(found.upstream));
    return { ...base, status: "ok", ok: true, summary: result.summary, details: result.details, durationMs: elapsed() };
  } catch (err) {
    // The credential was refused and could not be renewed: the person reconnects.
    if (err instanceof ApiError) return { ...base, status: "not-connected", ok: false, summary: err.hint ?? err.message, details: [], durationMs: elapsed() };
    if (!(err instanceof UpstreamError)) throw err;
    const summary =
      err.kind === "unauthorized"
        ? refusedSummary
        : err.kind === "timeout"
          ? `${subject.product} did not answer in time.`
          : `${subject.product} answered with an error (${err.status ?? err.kind}).`;
    return { ...base, status: "failed", ok: false, summary, details: [{ label: "Failure", value: err.kind }], durationMs: elapsed() };
  }
}

/** A connector's check, as the calling person (or, for calls, through the shared credential). */
interface CheckDeps {
  db: Db;
  credentials: Credentials;
  config: Pick<Config, "upstreams">;
}

export function checkConnection(deps: CheckDeps, def: ConnectorDef, userId: number): Promise<ConnectionCheck> {
  return runCheck(
    def,
    async () => {
      if (deps.config.upstreams[def.slug].mode === "off") return { status: "not-configured", summary: `${def.product} is not configured in this deployment.` };
      try {
        return await deps.credentials.open(deps.db, def, userId);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return { status: "not-connected", summary: err.hint ?? `Connect ${def.product} at /connections.` };
      }
    },
    (up) => def.probe(up),
    `${def.product} refused the stored credential; reconnect at /connections.`,
  );
}
