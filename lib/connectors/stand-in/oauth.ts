import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Sealer } from "@/lib/crypto/secrets";

// The OAuth 2.0 authorization server every stand-in shares: an authorize page where the person
// signed in to this app approves access to their own account, and a token endpoint. Codes and
// access tokens are self-verifying (a MAC over their content, keyed by the deployment's key), so
// they survive restarts and work across instances; what must be remembered — a code redeemed, a
// refresh token used, a grant revoked — is kept in the app's storage (memory-store.ts), so a code
// is single-use and a revocation holds across every instance. Codes expire after five minutes.
//
// The stand-ins serve demo data that /api guards, so consent is narrow: only with a session of
// this app (the caller says who is signed in), only for that person's own account, only to this
// app's own callback for the connector (exact match, so never an open redirect), and only with
// PKCE (S256). Organisation and shared credentials (`consent: false`) are never handed out over
// HTTP: the app mints those in-process.

/** Who is asking, as the app that mounts the stand-in sees it. Absent: nobody is signed in. */
export interface StandInCaller {
  /** The email of the person signed in to this app on this request, or null. */
  signedIn(): Promise<string | null>;
  /** This app's callback for the connector: the only redirect_uri the consent step accepts. */
  callback: string;
  /** False when a browser says the request came from another site. */
  sameSite: boolean;
}

interface StandInOAuthOptions {
  slug: string;
  product: string;
  /** Vendor-looking token prefix, e.g. "lin_oauth". */
  tokenPrefix: string;
  sealer: Sealer;
  /** Accounts that exist at the vendor (emails). A person's account is their own email. */
  accounts: () => readonly string[];
  /**
   * Whether a person may grant access over HTTP at all. False for organisation and shared
   * credentials: their authorize and token endpoints answer 404 and only `mint` issues them.
   */
  consent: boolean;
  now?: () => number;
  /**
   * How long an access token lives, as the vendors' expiring tokens do. Unset: access tokens do
   * not expire and no refresh token is issued (the long-lived tokens of Intercom's kind). Set: each
   * grant comes with `expires_in` and a refresh token that rotates on use; a refresh token used
   * twice revokes its whole grant (OAuth 2.1's reuse detection), as does /oauth/revoke.
   */
  tokenTtlMs?: number;
  /**
   * How a refused refresh grant is answered: OAuth's 400 `invalid_grant` (the default), or as
   * GitHub answers it, 200 with `error: "bad_refresh_token"` and no token.
   */
  refreshRefusal?: "invalid_grant" | "github";
  /** How long a refresh token may wait to be used; default 30 days. */
  refreshTtlMs?: number;
  /**
   * The refresh tokens' own prefix, where the vendor's differs from its access tokens' (GitHub:
   * "ghr" beside "ghu"). Default: the token prefix followed by "_rt".
   */
  refreshPrefix?: string;
  /** Whether a grant's answer says how long its refresh token lives (`refresh_token_expires_in`, as GitHub's does). */
  refreshTokenExpiresIn?: boolean;
  /**
   * The scope a code's token answer names. Default: the scope asked for, else "read". GitHub
   * Apps answer "" whatever was asked: their user tokens carry the app's permissions, not scopes.
   */
  grantedScope?: string;
  /**
   * What the server remembers (redeemed codes, used refresh tokens, revoked grants). The app keeps
   * it in storage, shared by its instances and by each day's new mount of the stand-ins. Default:
   * this process's memory alone.
   */
  memory?: StandInOAuthMemory;
}

/** The outcome of marking a single-use value used. */
export type UseOutcome = "first" | "again" | "full";

/**
 * What an authorization server must remember: single-use values used (a code's MAC, a refresh
 * token's MAC) and grants revoked, each until it could no longer be presented.
 */
export interface StandInOAuthMemory {
  /** Marks the value used until `until`: "first" the first time, "again" after, "full" when it cannot be remembered now. */
  use(kind: "code" | "refresh", key: string, until: number, now: number): Promise<UseOutcome>;
  revoke(grant: string, until: number): Promise<void>;
  revoked(grant: string, now: number): Promise<boolean>;
}

/**
 * This process's memory, bounded: at `max` values remembered, expired ones are dropped, and when
 * none has expired a new one waits ("full") rather than a remembered one being forgotten early,
 * which would let it be replayed.
 */
export function newOAuthMemory(max = REDEEMED_CODES_MAX): StandInOAuthMemory & { size(): number } {
  const used = new Map<string, number>();
  const revokedGrants = new Map<string, number>();
  return {
    size: () => used.size,
    async use(kind, key, until, now) {
      const k = `${kind}:${key}`;
      const known = used.get(k);
      if (known !== undefined && known >= now) return "again";
      if (used.size >= max) for (const [old, x] of used) if (x < now) used.delete(old);
      if (used.size >= max) return "full";
      used.set(k, until);
      return "first";
    },
    async revoke(grant, until) {
      revokedGrants.set(grant, until);
    },
    async revoked(grant, now) {
      const until = revokedGrants.get(grant);
      if (until !== undefined && until <= now) revokedGrants.delete(grant);
      return until !== undefined && until > now;
    },
  };
}

/** An expiring access token's content. */
interface AccessBody {
  e: string; // email
  x?: number; // expiry, epoch ms; absent for a token that does not expire
  g: string; // the grant it belongs to
}

/** A refresh token's content. */
interface RefreshBody {
  e: string;
  x: number;
  g: string;
  n: string; // nonce: every rotation is a new token
}

/** A grant's tokens as the token endpoint answers them. */
type IssuedGrant = {
  access_token: string;
  token_type: "Bearer";
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
};

/** What an access token is, for a stand-in's API: whose, or why not. */
type TokenState = { ok: true; email: string } | { ok: false; reason: "invalid" | "expired" | "revoked" };

const REFRESH_TTL_MS = 30 * 86_400_000;

interface CodeBody {
  e: string; // email
  r: string; // redirect_uri
  c: string; // PKCE challenge (S256)
  x: number; // expiry, epoch ms
  n: string; // nonce: two approvals in the same millisecond are still two codes
}

const CODE_TTL_MS = 5 * 60_000;
/**
 * A redeemed code is remembered until it expires, so it cannot be exchanged twice. Codes come
 * only from signed-in people, five minutes apart at most, so this is far above real use; when
 * it is reached, exchanges wait (429) rather than forget a code that could then be replayed.
 * Each entry is a 43-character MAC and a number: about 150 bytes, 1.5 MB at most.
 */
const REDEEMED_CODES_MAX = 10_000;
/** Longest form or query field the OAuth endpoints read; anything longer is not a real value. */
const FIELD_MAX = 2_048;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function b64(s: string): string {
  return Buffer.from(s, "utf8").toString("base64url");
}
function unb64(s: string): string | null {
  try {
    return Buffer.from(s, "base64url").toString("utf8");
  } catch {
    return null;
  }
}
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The error envelope `{error, hint}`; at the token endpoint `error` is OAuth's code, and the hint
 * is also RFC 6749's `error_description`, which OAuth clients read.
 */
function envelope(status: number, error: string, hint: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, error_description: hint, hint }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

function tokenAnswer(body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

/** GitHub's answer to a refresh token it will not honour, whatever the reason: 200, and no token. */
function githubRefusal(): Response {
  return tokenAnswer({
    error: "bad_refresh_token",
    error_description: "The refresh token passed is incorrect or expired.",
    error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors#bad-refresh-token",
  });
}

export function mintStandInToken(sealer: Sealer, slug: string, prefix: string, email: string): string {
  const body = b64(email);
  return `${prefix}_${body}.${sealer.mac(body, `stand-in-token:${slug}`)}`;
}

export class StandInOAuth {
  /** Redeemed codes, used refresh tokens (a second use is a replay) and revoked grants. */
  private readonly memory: StandInOAuthMemory;
  private readonly now: () => number;

  constructor(private readonly o: StandInOAuthOptions) {
    this.now = o.now ?? Date.now;
    this.memory = o.memory ?? newOAuthMemory();
  }

  /** In-process issue of a token, for the app itself (organisation and shared credentials, seeding). */
  mint(email: string): string {
    return mintStandInToken(this.o.sealer, this.o.slug, this.o.tokenPrefix, email);
  }

  /** True when the vendor has this account. */
  knows(email: string): boolean {
    return this.o.accounts().includes(email);
  }

  /**
   * An access token and a refresh token for a new grant, minted in-process (shared credentials
   * whose vendor expires tokens). Without a token lifetime, the access token alone.
   */
  mintGrant(email: string): IssuedGrant {
    return this.issue(email, randomBytes(9).toString("base64url"));
  }

  /** The account behind an access token, or null. Accepts "Bearer x", "token x" or the bare token. */
  async verify(authorization: string | null): Promise<string | null> {
    const state = await this.inspect(authorization);
    return state.ok ? state.email : null;
  }

  /** Whose an access token is, or why it is not accepted: never issued here, expired, or revoked. */
  async inspect(authorization: string | null): Promise<TokenState> {
    const invalid: TokenState = { ok: false, reason: "invalid" };
    if (!authorization) return invalid;
    const token = authorization.replace(/^(Bearer|token)\s+/i, "").trim();
    const prefix = `${this.o.tokenPrefix}_`;
    if (!token.startsWith(prefix)) return invalid;
    const [body, mac, extra] = token.slice(prefix.length).split(".");
    if (!body || !mac || extra !== undefined || this.o.sealer.mac(body, `stand-in-token:${this.o.slug}`) !== mac) return invalid;
    const text = unb64(body);
    if (!text) return invalid;
    if (!text.startsWith("{")) return this.knows(text) ? { ok: true, email: text } : invalid;
    let access: AccessBody;
    try {
      access = JSON.parse(text) as AccessBody;
    } catch {
      return invalid;
    }
    if (typeof access.e !== "string" || (access.x !== undefined && typeof access.x !== "number") || typeof access.g !== "string" || !this.knows(access.e)) return invalid;
    if (await this.memory.revoked(access.g, this.now())) return { ok: false, reason: "revoked" };
    if (access.x !== undefined && access.x <= this.now()) return { ok: false, reason: "expired" };
    return { ok: true, email: access.e };
  }

  /** The OAuth endpoints (`/oauth/authorize`, `/oauth/token`), or null for any other path. */
  async serve(request: Request, path: string, caller: StandInCaller | undefined): Promise<Response | null> {
    if (path !== "/oauth/authorize" && path !== "/oauth/token" && path !== "/oauth/revoke") return null;
    const inProcess = () => envelope(404, "not_found", `${this.o.product}'s credential is issued by this app in-process; nothing over HTTP hands it out.`);
    // A shared credential that expires is still renewed over HTTP, as its vendor's is: a refresh
    // token is only ever issued in-process, so the refresh grant hands nothing to anyone new.
    const renewsOverHttp = this.o.tokenTtlMs !== undefined && path !== "/oauth/authorize";
    if (!this.o.consent && !renewsOverHttp) return inProcess();
    if (path === "/oauth/token") {
      if (request.method !== "POST") return envelope(405, "method_not_allowed", "POST the code to the token endpoint.", { allow: "POST" });
      if (this.o.consent) return this.token(request);
      const form = await this.form(request);
      return form?.get("grant_type") === "refresh_token" ? this.refresh(form) : inProcess();
    }
    if (path === "/oauth/revoke") {
      return request.method === "POST" ? this.revoke(request) : envelope(405, "method_not_allowed", "POST the token to revoke.", { allow: "POST" });
    }
    if (request.method !== "GET" && request.method !== "POST") return envelope(405, "method_not_allowed", "GET shows the consent page; POST answers it.", { allow: "GET, POST" });
    return this.authorize(request, caller);
  }

  /** GET shows the consent page; POST is the person's answer. */
  private async authorize(request: Request, caller: StandInCaller | undefined): Promise<Response> {
    const params = request.method === "POST" ? await this.form(request) : new URL(request.url).searchParams;
    if (!params) return envelope(400, "invalid_request", "Send the consent form as application/x-www-form-urlencoded.");
    if (request.method === "POST" && caller && !caller.sameSite) return envelope(403, "forbidden", "Approve access from the consent page of this app.");
    const email = caller ? await caller.signedIn() : null;
    if (!caller || !email) return envelope(401, "unauthorized", "Sign in to this app, then connect from /connections.");

    // Checked before anything is sent anywhere: a bad request never redirects.
    const redirectUri = params.get("redirect_uri") ?? "";
    if (redirectUri !== caller.callback) {
      return envelope(400, "invalid_request", `redirect_uri must be this app's callback for the connector: ${caller.callback}`);
    }
    if (params.get("response_type") !== "code") return envelope(400, "invalid_request", "response_type must be code.");
    const state = params.get("state") ?? "";
    if (state === "" || state.length > FIELD_MAX) return envelope(400, "invalid_request", "state is required (at most 2048 characters).");
    const challenge = params.get("code_challenge") ?? "";
    if (params.get("code_challenge_method") !== "S256" || !PKCE_CHALLENGE.test(challenge)) {
      return envelope(400, "invalid_request", "PKCE is required: code_challenge (43 base64url characters) with code_challenge_method=S256.");
    }
    const account = params.get("account");
    if (account !== null && account !== email) return envelope(403, "forbidden", `You may grant access to your own account only (${email}).`);
    if (!this.knows(email)) return envelope(403, "forbidden", `${email} has no ${this.o.product} account in the demo tenant.`);

    if (request.method === "GET") {
      return new Response(this.consentPage(params, email), {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
          "referrer-policy": "no-referrer",
        },
      });
    }
    const back = new URL(redirectUri);
    back.searchParams.set("state", state);
    const decision = params.get("decision");
    if (decision === "deny") {
      back.searchParams.set("error", "access_denied");
      return this.redirect(back);
    }
    if (decision !== "approve") return envelope(400, "invalid_request", "decision must be approve or deny.");
    const code: CodeBody = { e: email, r: redirectUri, c: challenge, x: this.now() + CODE_TTL_MS, n: randomBytes(9).toString("base64url") };
    const body = b64(JSON.stringify(code));
    back.searchParams.set("code", `${body}.${this.o.sealer.mac(body, `stand-in-code:${this.o.slug}`)}`);
    return this.redirect(back);
  }

  /** POST the code and its PKCE verifier for an access token. */
  private async token(request: Request): Promise<Response> {
    const form = await this.form(request);
    if (!form) return envelope(400, "invalid_request", "Send the token request as application/x-www-form-urlencoded.");
    const fail = (hint: string) => envelope(400, "invalid_grant", hint);
    if (form.get("grant_type") === "refresh_token") return this.refresh(form);
    if (form.get("grant_type") !== "authorization_code") {
      return envelope(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
    }
    const verifier = form.get("code_verifier") ?? "";
    if (!PKCE_VERIFIER.test(verifier)) return fail("code_verifier is required (43 to 128 characters).");
    const [body, mac, extra] = (form.get("code") ?? "").split(".");
    if (!body || !mac || extra !== undefined || this.o.sealer.mac(body, `stand-in-code:${this.o.slug}`) !== mac) return fail("The code was not issued here.");
    let code: CodeBody;
    try {
      code = JSON.parse(unb64(body) ?? "") as CodeBody;
    } catch {
      return fail("The code was not issued here.");
    }
    const now = this.now();
    if (typeof code.x !== "number" || code.x < now) return fail("The code has expired.");
    if (code.r !== form.get("redirect_uri")) return fail("redirect_uri differs from the one the code was issued for.");
    if (typeof code.c !== "string" || createHash("sha256").update(verifier).digest("base64url") !== code.c) return fail("code_verifier does not match the code's challenge.");
    // Marked used in one step wherever it is redeemed: two instances cannot both take it.
    const use = await this.memory.use("code", mac, code.x, now);
    if (use === "again") return fail("The code has already been used.");
    if (use === "full") return envelope(429, "rate_limited", "Too many codes redeemed in the last five minutes; try again shortly.", { "retry-after": String(Math.ceil(CODE_TTL_MS / 1000)) });
    return tokenAnswer({ ...this.issue(code.e, randomBytes(9).toString("base64url")), scope: this.o.grantedScope ?? form.get("scope") ?? "read" });
  }

  /**
   * A refresh token for a new pair. Each is good once: the answer carries its successor, and a
   * second use of the same one means two holders, so the whole grant is revoked.
   */
  private async refresh(form: URLSearchParams): Promise<Response> {
    const fail = (hint: string) => (this.o.refreshRefusal === "github" ? githubRefusal() : envelope(400, "invalid_grant", hint));
    if (this.o.tokenTtlMs === undefined) return fail("This product's tokens do not expire; there is nothing to refresh.");
    const parsed = this.openRefresh(form.get("refresh_token") ?? "");
    if (!parsed) return fail("The refresh token was not issued here.");
    const { body, mac } = parsed;
    const now = this.now();
    if (await this.memory.revoked(body.g, now)) return fail("The grant was revoked; connect again.");
    if (body.x <= now) return fail("The refresh token has expired; connect again.");
    const use = await this.memory.use("refresh", mac, body.x, now);
    if (use === "again") {
      await this.memory.revoke(body.g, now + (this.o.refreshTtlMs ?? REFRESH_TTL_MS));
      return fail("The refresh token was already used, so the grant is revoked; connect again.");
    }
    if (use === "full") return envelope(429, "rate_limited", "Too many refreshes remembered; try again shortly.", { "retry-after": "1" });
    return tokenAnswer(this.issue(body.e, body.g));
  }

  /** RFC 7009: revokes the grant of a refresh or access token issued here; answers 200 whatever it was. */
  private async revoke(request: Request): Promise<Response> {
    const form = await this.form(request);
    if (!form) return envelope(400, "invalid_request", "Send the token as application/x-www-form-urlencoded.");
    const token = form.get("token") ?? "";
    const grant = this.openRefresh(token)?.body.g ?? this.grantOfAccess(token);
    if (grant) await this.memory.revoke(grant, this.now() + (this.o.refreshTtlMs ?? REFRESH_TTL_MS));
    return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
  }

  /** A grant's tokens: an expiring access token and its refresh token, or the lasting token alone. */
  private issue(email: string, grant: string): IssuedGrant {
    const ttl = this.o.tokenTtlMs;
    if (ttl === undefined) {
      // A lasting token, but still of a grant, so the person (or workspace) can revoke it.
      const lasting = b64(JSON.stringify({ e: email, g: grant } satisfies AccessBody));
      return { access_token: `${this.o.tokenPrefix}_${lasting}.${this.o.sealer.mac(lasting, `stand-in-token:${this.o.slug}`)}`, token_type: "Bearer" };
    }
    const now = this.now();
    const refreshTtl = this.o.refreshTtlMs ?? REFRESH_TTL_MS;
    const access = b64(JSON.stringify({ e: email, x: now + ttl, g: grant } satisfies AccessBody));
    const refresh = b64(JSON.stringify({ e: email, x: now + refreshTtl, g: grant, n: randomBytes(9).toString("base64url") } satisfies RefreshBody));
    return {
      access_token: `${this.o.tokenPrefix}_${access}.${this.o.sealer.mac(access, `stand-in-token:${this.o.slug}`)}`,
      token_type: "Bearer",
      expires_in: Math.floor(ttl / 1000),
      refresh_token: `${this.refreshPrefix()}${refresh}.${this.o.sealer.mac(refresh, `stand-in-refresh:${this.o.slug}`)}`,
      ...(this.o.refreshTokenExpiresIn ? { refresh_token_expires_in: Math.floor(refreshTtl / 1000) } : {}),
    };
  }

  private refreshPrefix(): string {
    return `${this.o.refreshPrefix ?? `${this.o.tokenPrefix}_rt`}_`;
  }

  private openRefresh(token: string): { body: RefreshBody; mac: string } | null {
    const prefix = this.refreshPrefix();
    if (!token.startsWith(prefix) || token.length > FIELD_MAX) return null;
    const [body, mac, extra] = token.slice(prefix.length).split(".");
    if (!body || !mac || extra !== undefined || this.o.sealer.mac(body, `stand-in-refresh:${this.o.slug}`) !== mac) return null;
    try {
      const parsed = JSON.parse(unb64(body) ?? "") as RefreshBody;
      return typeof parsed.e === "string" && typeof parsed.x === "number" && typeof parsed.g === "string" ? { body: parsed, mac } : null;
    } catch {
      return null;
    }
  }

  private grantOfAccess(token: string): string | null {
    const prefix = `${this.o.tokenPrefix}_`;
    if (!token.startsWith(prefix)) return null;
    const [body, mac] = token.slice(prefix.length).split(".");
    if (!body || !mac || this.o.sealer.mac(body, `stand-in-token:${this.o.slug}`) !== mac) return null;
    try {
      const parsed = JSON.parse(unb64(body) ?? "") as Partial<AccessBody>;
      return typeof parsed.g === "string" ? parsed.g : null;
    } catch {
      return null;
    }
  }

  /** A urlencoded form with no field over FIELD_MAX, or null. */
  private async form(request: Request): Promise<URLSearchParams | null> {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") return null;
    const params = new URLSearchParams(await request.text());
    for (const [, v] of params) if (v.length > FIELD_MAX) return null;
    return params;
  }

  private redirect(to: URL): Response {
    return new Response(null, { status: 303, headers: { location: to.toString(), "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  }

  private consentPage(params: URLSearchParams, email: string): string {
    const hidden = ["client_id", "redirect_uri", "state", "scope", "response_type", "code_challenge", "code_challenge_method"]
      .map((k) => (params.get(k) !== null ? `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) ?? "")}">` : ""))
      .join("");
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize access · ${escapeHtml(this.o.product)} (stand-in)</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}</style></head>
<body><main><h1>${escapeHtml(this.o.product)} <small>(stand-in)</small></h1>
<p>Dashboards asks to read your ${escapeHtml(this.o.product)} data (scope: <code>${escapeHtml(params.get("scope") ?? "read")}</code>).</p>
<form method="post"><p>Account: <strong data-testid="consent-account">${escapeHtml(email)}</strong></p>${hidden}
<p><button type="submit" name="decision" value="approve">Authorize</button><button type="submit" name="decision" value="deny">Cancel</button></p></form></main></body></html>`;
  }
}
