import "server-only";
import type { Config, ConnectorSlug } from "@/lib/config";
import { ApiError, type ErrorCode } from "@/lib/contract/errors";
import type { Sealer } from "@/lib/crypto/secrets";
import { locksRows, type Db } from "@/lib/db";
import { UpstreamError, type UpstreamOptions } from "./http";
import { credentialKey, hasCallsOptIn, markReconnect, readCredential, storeRenewal, type CredentialOwner, type StoredToken } from "./store";
import { requestTokens, TokenRefused } from "./token-endpoint";
import type { ConnectorDef } from "./types";
import { serverLog } from "@/lib/http/server-log";

// Who may read an outside system, with which credential, and keeping that credential alive.
//
// A credential whose vendor expires tokens is renewed a little before its expiry (a tenth of its
// lifetime, at most five minutes), and once more when the vendor refuses it, after which the read
// is tried once again. Renewal is single-flight: requests in this process that need the same
// credential wait for one renewal, and on PostgreSQL the renewal holds the credential's row
// (SELECT … FOR UPDATE) while it talks to the vendor, so instances sharing the database use a
// rotating refresh token exactly once between them; whoever waited finds the renewed pair and
// uses it. When renewal is impossible (the vendor refuses the refresh token, or refuses a token
// that has none), the credential is marked with the reason and nothing asks the vendor again
// until the person connects anew. Where a vendor names the customer's API in its token answer
// (Gong), the credential carries that base: reads go there, and a renewal may move it.

const notConfigured: Record<ConnectorSlug, ErrorCode> = {
  tracker: "tracker_not_configured",
  coderepo: "coderepo_not_configured",
  calls: "calls_not_configured",
  support: "support_not_configured",
};
const notConnectedCode: Record<ConnectorSlug, ErrorCode> = {
  tracker: "tracker_not_connected",
  coderepo: "coderepo_not_connected",
  support: "support_not_connected",
  calls: "calls_donor_not_connected",
};

const AHEAD_MAX_MS = 5 * 60_000;

interface CredentialsOptions {
  /** Where each connector's product is, and how long to wait for it. */
  config: Pick<Config, "upstreams" | "connectorTimeoutMs">;
  sealer: () => Sealer;
  now?: () => number;
}

/** A credential ready for use: where to read, and how to read so that a refusal renews it once. */
export interface Access {
  upstream: UpstreamOptions;
  /** Runs `load`; after a refusal, renews the credential and runs it once more. */
  run<T>(load: (upstream: UpstreamOptions) => Promise<T>): Promise<T>;
}

export interface Credentials {
  /** The viewer's credential for a connector (for calls, the shared one), renewed when due. Throws the ApiError the viewer should see. */
  open(db: Db, def: ConnectorDef, userId: number): Promise<Access>;
  /** Renewals this process has asked a vendor for. */
  readonly renewals: number;
}

type Settled = { ok: true; token: StoredToken } | { ok: false; reason: string | null };

/** The error a viewer sees for a credential that is missing, or marked for reconnecting with `reason`. */
function notConnected(def: ConnectorDef, owner: CredentialOwner, reason: string | null): ApiError {
  const who = owner.kind === "donor" ? "An admin reconnects the shared call-recording credential at /connections." : `Reconnect ${def.product} at /connections.`;
  if (reason) return new ApiError(notConnectedCode[def.slug], `${reason} ${who}`);
  return new ApiError(notConnectedCode[def.slug], owner.kind === "donor" ? "An admin connects the shared call-recording credential at /connections." : `Connect ${def.product} at /connections.`);
}

/**
 * Due for renewal: it expires within a tenth of its lifetime (at most five minutes) and can be
 * renewed. A credential whose vendor names the customer's API base in its token answer, stored
 * without one and never renewed since (connected before bases were kept, or minted without
 * one), is renewed once to learn where its API is.
 */
function due(def: ConnectorDef, t: StoredToken, now: number): boolean {
  if (!t.refreshToken) return false;
  if (def.apiBaseField && t.apiBaseUrl === null && t.refreshedAt === null) return true;
  if (t.expiresAt === null) return false;
  const lifetime = t.expiresAt - (t.refreshedAt ?? t.connectedAt);
  return t.expiresAt - now <= Math.min(AHEAD_MAX_MS, Math.max(0, lifetime) / 10);
}

/**
 * Renewing a credential, single-flight: renewOrThrow() answers the renewed credential or throws
 * the error the viewer sees; refuse() marks one for reconnecting.
 */
function createRenewal(options: CredentialsOptions, now: () => number) {
  const flights = new Map<string, Promise<Settled>>();
  let renewals = 0;

  /** Renews `used` unless someone already did; answers the credential to use, or why there is none. */
  async function settle(db: Db, def: ConnectorDef, owner: CredentialOwner, used: StoredToken): Promise<Settled> {
    const current = await readCredential(db, options.sealer(), owner, locksRows(db));
    if (!current) return { ok: false, reason: null };
    if (current.reconnect) return { ok: false, reason: current.reconnect.reason };
    if (current.sealedAccess !== used.sealedAccess) return { ok: true, token: current };
    if (!current.refreshToken) return { ok: false, reason: await refuse(db, def, owner, current, `${def.product} refused the stored token; it may have been revoked.`) };
    renewals++;
    let issued;
    try {
      issued = await requestTokens(options.config, def, { grant_type: "refresh_token", refresh_token: current.refreshToken }, now());
    } catch (err) {
      if (!(err instanceof TokenRefused)) throw err;
      serverLog("warn", `${credentialKey(owner)}: renewal refused (${err.code})`, { component: "connectors" });
      const why = err.description ? `${err.code}: ${err.description.replace(/[\s.;]+$/, "")}` : err.code;
      return { ok: false, reason: await refuse(db, def, owner, current, `${def.product} refused to renew the connection (${why}).`) };
    }
    // A refresh answer may move the customer's API; one that names none leaves it where it was.
    const grant = {
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken ?? current.refreshToken,
      expiresAt: issued.expiresAt,
      apiBaseUrl: issued.apiBaseUrl ?? current.apiBaseUrl,
    };
    await storeRenewal(db, options.sealer(), owner, grant, current.sealedAccess, now());
    const renewed = await readCredential(db, options.sealer(), owner);
    return renewed && !renewed.reconnect ? { ok: true, token: renewed } : { ok: false, reason: renewed?.reconnect?.reason ?? null };
  }

  async function refuse(db: Db, def: ConnectorDef, owner: CredentialOwner, token: StoredToken, reason: string): Promise<string> {
    await markReconnect(db, owner, reason, token.sealedAccess, now());
    return reason;
  }

  /** One renewal per credential at a time in this process; on PostgreSQL, one across instances. */
  function renew(db: Db, def: ConnectorDef, owner: CredentialOwner, used: StoredToken): Promise<Settled> {
    const key = credentialKey(owner);
    let flight = flights.get(key);
    if (!flight) {
      // A refusal is stored inside the transaction and answered after it commits.
      flight = (locksRows(db) ? db.transaction().execute((trx) => settle(trx, def, owner, used)) : settle(db, def, owner, used)).finally(() => flights.delete(key));
      flights.set(key, flight);
    }
    return flight;
  }

  async function renewOrThrow(db: Db, def: ConnectorDef, owner: CredentialOwner, used: StoredToken): Promise<StoredToken> {
    const settled = await renew(db, def, owner, used);
    if (!settled.ok) throw notConnected(def, owner, settled.reason);
    return settled.token;
  }

  return {
    get renewals() {
      return renewals;
    },
    renewOrThrow,
    refuse,
  };
}

export function createCredentials(options: CredentialsOptions): Credentials {
  const now = options.now ?? Date.now;
  const renewal = createRenewal(options, now);
  const { renewOrThrow, refuse } = renewal;

  const base = (def: ConnectorDef): UpstreamOptions => {
    const up = options.config.upstreams[def.slug];
    if (up.mode === "off") throw new ApiError(notConfigured[def.slug], `No ${def.product} connection is configured in this deployment.`);
    return { baseUrl: up.apiUrl, timeoutMs: options.config.connectorTimeoutMs };
  };

  return {
    get renewals() {
      return renewal.renewals;
    },

    async open(db, def, userId) {
      const upstream = base(def);
      let owner: CredentialOwner;
      if (def.credential === "donor") {
        if (!(await hasCallsOptIn(db, userId))) throw new ApiError("calls_not_opted_in", "Opt in to call recordings at /connections.");
        owner = { kind: "donor", slug: def.slug };
      } else {
        owner = { kind: "user", userId, slug: def.slug };
      }
      let token = await readCredential(db, options.sealer(), owner);
      if (!token) throw notConnected(def, owner, null);
      if (token.reconnect) throw notConnected(def, owner, token.reconnect.reason);
      if (due(def, token, now())) {
        try {
          token = await renewOrThrow(db, def, owner, token);
        } catch (err) {
          // The vendor could not be reached: a token that has not expired yet still serves.
          if (!(err instanceof UpstreamError) || (token.expiresAt !== null && token.expiresAt <= now())) throw err;
          serverLog("warn", `${credentialKey(owner)}: early renewal failed (${err.kind}); using the current token`, { component: "connectors" });
        }
      }
      const first = token;
      // Each token is read where its vendor said its API is, else at the configured URL.
      const withToken = (t: StoredToken): UpstreamOptions => ({ ...upstream, baseUrl: t.apiBaseUrl ?? upstream.baseUrl, authorization: def.authorization(t.accessToken) });
      return {
        upstream: withToken(first),
        async run(load) {
          try {
            return await load(withToken(first));
          } catch (err) {
            if (!(err instanceof UpstreamError) || err.kind !== "unauthorized") throw err;
          }
          const renewed = await renewOrThrow(db, def, owner, first);
          try {
            return await load(withToken(renewed));
          } catch (err) {
            if (!(err instanceof UpstreamError) || err.kind !== "unauthorized") throw err;
            throw notConnected(def, owner, await refuse(db, def, owner, renewed, `${def.product} refused the renewed token.`));
          }
        },
      };
    },
  };
}
