import "server-only";
import { lookup } from "node:dns/promises";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { OAuthError, parseRegistration, type RegisteredClient } from "./oauth";

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the way MCP hosts
// identify themselves from the 2025-11-25 revision on): a client's `client_id` is an https URL,
// and the JSON document at that URL is its metadata. Nothing is registered ahead of time.
//
// Fetching a URL a stranger names is a server-side request forgery waiting to happen, so the
// fetch is held tight: https only, no redirects, the name resolved once and the connection made to
// that address (so a second answer cannot point elsewhere), no loopback, private, link-local or
// otherwise special address unless the operator allows them (OAUTH_CLIENT_METADATA_PRIVATE, for
// closed networks and tests), at most 5 KB within 5 s, and each document kept as long as its
// Cache-Control says (within bounds) so a flood of authorize requests fetches it once.

const METADATA_LIMITS = { bytes: 5 * 1024, timeoutMs: 5_000, urlChars: 512 } as const;
/** How long a document is kept: its max-age, within these bounds; 5 minutes when it says nothing. */
const KEEP_MS = { min: 60_000, max: 24 * 3600_000, fallback: 5 * 60_000 };
/** Documents kept at once; the least recently used goes first. */
const KEPT_MAX = 500;

/** Why `clientId` cannot be a metadata document's URL, or null when it can be. */
export function metadataUrlProblem(clientId: string): string | null {
  if (clientId.length > METADATA_LIMITS.urlChars) return `a client_id URL is at most ${METADATA_LIMITS.urlChars} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return "the client_id is not a URL";
  }
  if (url.protocol !== "https:") return "a client_id URL must use https";
  if (url.username !== "" || url.password !== "") return "a client_id URL may not carry credentials";
  if (url.hash !== "" || clientId.includes("#")) return "a client_id URL may not have a fragment";
  if (url.pathname === "/" || url.pathname === "") return "a client_id URL must have a path (the document's own)";
  if (/\/\.\.?(\/|$)/.test(clientId.slice(url.origin.length))) return "a client_id URL may not have . or .. segments";
  // What was sent must be what the parser read: no case folding, default port or encoding in between.
  if (url.href !== clientId) return "the client_id URL must be written in its plain form";
  return null;
}

/** Whether `clientId` names a metadata document rather than a client registered here. */
export const isMetadataClientId = (clientId: string) => clientId.startsWith("https://");

// Addresses a document may not be fetched from unless the operator allows it: everything that is
// not the public internet (RFC 6890's special-purpose registries).
const SPECIAL = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  SPECIAL.addSubnet(net, bits, "ipv6");

/** Whether `address` is outside the public internet. */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // An IPv4-mapped address is refused whole: a mapped range in the list would match every IPv4
  // address, and a public host has no need to answer as one.
  if (family === 6 && /^::ffff:/i.test(address)) return true;
  return SPECIAL.check(address, family === 4 ? "ipv4" : "ipv6");
}

interface ClientMetadataOptions {
  /** Allow loopback, private and link-local addresses (closed networks, tests). */
  allowPrivate: boolean;
  /** Extra certificate authorities to trust (PEM), beside the system's and NODE_EXTRA_CA_CERTS. */
  ca?: string;
  /** The whole fetch's time limit (METADATA_LIMITS.timeoutMs). */
  timeoutMs?: number;
  now?: () => number;
}

export interface ClientMetadataFetcher {
  /**
   * The client a metadata document describes, fetched or kept; an OAuthError says why not.
   * `beforeFetch` runs only when the document must be fetched, and may refuse by throwing.
   */
  client(clientId: string, beforeFetch?: () => void): Promise<RegisteredClient>;
}

interface Kept {
  client: RegisteredClient;
  until: number;
}

function keepFor(cacheControl: string | undefined): number {
  const cc = (cacheControl ?? "").toLowerCase();
  if (/(^|,)\s*(no-store|no-cache|private)\s*(,|$)/.test(cc)) return 0;
  const maxAge = /(^|,)\s*max-age\s*=\s*(\d{1,10})\s*(,|$)/.exec(cc)?.[2];
  if (maxAge === undefined) return KEEP_MS.fallback;
  return Math.max(KEEP_MS.min, Math.min(KEEP_MS.max, Number(maxAge) * 1000));
}

export function createClientMetadataFetcher(options: ClientMetadataOptions): ClientMetadataFetcher {
  const now = options.now ?? (() => Date.now());
  const timeoutMs = options.timeoutMs ?? METADATA_LIMITS.timeoutMs;
  const kept = new Map<string, Kept>();
  const inFlight = new Map<string, Promise<RegisteredClient>>();

  async function resolve(hostname: string): Promise<{ address: string; family: 4 | 6 }> {
    const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
    const literal = isIP(bare);
    const answers = literal ? [{ address: bare, family: literal }] : await lookup(bare, { all: true, verbatim: true }).catch(() => []);
    if (answers.length === 0) throw new OAuthError("invalid_client", `the client_id's host ${hostname} does not resolve`, 400);
    // Every answer must be public: a name that also resolves inside the network is refused whole.
    if (!options.allowPrivate && answers.some((a) => isSpecialAddress(a.address))) {
      throw new OAuthError("invalid_client", `the client_id's host ${hostname} resolves to an address that is not on the public internet; this server fetches client metadata only from public addresses`, 400);
    }
    const first = answers[0]!;
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  function fetchDocument(url: URL, pinned: { address: string; family: 4 | 6 }): Promise<{ text: string; cacheControl: string | undefined }> {
    return new Promise((done, fail) => {
      const refuse = (why: string) => fail(new OAuthError("invalid_client", why, 400));
      const req = httpsRequest(
        url,
        {
          method: "GET",
          headers: { accept: "application/json", "user-agent": "Dashboards OAuth client metadata fetcher" },
          // The name was checked once, above; the connection goes to that answer and no other.
          lookup: (_host, opts, cb) => {
            if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
            else cb(null, pinned.address, pinned.family);
          },
          ...(options.ca ? { ca: options.ca } : {}),
          timeout: timeoutMs,
          agent: false,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            res.resume();
            return refuse(`the client metadata document at ${url.href} answered ${status}${status >= 300 && status < 400 ? " (redirects are not followed)" : ""}; it must answer 200 with the document`);
          }
          const type = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
          if (type !== "application/json") {
            res.resume();
            return refuse(`the client metadata document must be served as application/json, not ${type || "nothing"}`);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > METADATA_LIMITS.bytes) {
              req.destroy();
              return refuse(`the client metadata document is larger than ${METADATA_LIMITS.bytes} bytes`);
            }
            chunks.push(chunk);
          });
          res.on("end", () => done({ text: Buffer.concat(chunks).toString("utf8"), cacheControl: res.headers["cache-control"] }));
          res.on("error", () => refuse("the client metadata document's answer was cut short"));
        },
      );
      // The whole exchange, not only each idle gap, is held to the limit: a trickle is slow too.
      const deadline = setTimeout(() => {
        req.destroy();
        refuse(`the client metadata document did not arrive within ${timeoutMs / 1000} s`);
      }, timeoutMs);
      req.on("timeout", () => req.destroy());
      req.on("close", () => clearTimeout(deadline));
      req.on("error", (err) => refuse(`the client metadata document could not be fetched from ${url.host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
      req.end();
    });
  }

  async function load(clientId: string): Promise<RegisteredClient> {
    const problem = metadataUrlProblem(clientId);
    if (problem) throw new OAuthError("invalid_client", problem, 400);
    const url = new URL(clientId);
    const { text, cacheControl } = await fetchDocument(url, await resolve(url.hostname));
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new OAuthError("invalid_client_metadata", "the client metadata document is not JSON");
    }
    if (typeof doc !== "object" || doc === null || (doc as { client_id?: unknown }).client_id !== clientId) {
      throw new OAuthError("invalid_client_metadata", "the client metadata document's client_id must be its own URL, exactly");
    }
    const metadata = parseRegistration(doc);
    const client: RegisteredClient = { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(now() / 1000) };
    const keep = keepFor(cacheControl);
    if (keep > 0) {
      kept.set(clientId, { client, until: now() + keep });
      if (kept.size > KEPT_MAX) kept.delete(kept.keys().next().value as string);
    }
    return client;
  }

  return {
    client(clientId, beforeFetch) {
      const hit = kept.get(clientId);
      if (hit && hit.until > now()) return Promise.resolve(hit.client);
      kept.delete(clientId);
      const running = inFlight.get(clientId);
      if (running) return running;
      try {
        beforeFetch?.();
      } catch (err) {
        return Promise.reject(err);
      }
      const loading = load(clientId).finally(() => inFlight.delete(clientId));
      inFlight.set(clientId, loading);
      return loading;
    },
  };
}
