import { createHash } from "node:crypto";
import type { Sealer } from "@/lib/crypto/secrets";

// The OAuth 2.0 authorization server every stand-in shares: an authorize page where the demo
// person approves access, and a token endpoint. Codes and access tokens are self-verifying
// (a MAC over their content, keyed by the deployment's key), so they survive restarts and work
// across instances; codes are single-use within a process and expire after five minutes.

export interface StandInOAuthOptions {
  slug: string;
  product: string;
  /** Vendor-looking token prefix, e.g. "lin_oauth". */
  tokenPrefix: string;
  sealer: Sealer;
  /** Accounts that exist at the vendor (emails). */
  accounts: () => readonly string[];
  now?: () => number;
}

interface CodeBody {
  e: string; // email
  r: string; // redirect_uri
  c: string | null; // PKCE challenge (S256)
  x: number; // expiry, epoch ms
}

const CODE_TTL_MS = 5 * 60_000;

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

export function mintStandInToken(sealer: Sealer, slug: string, prefix: string, email: string): string {
  const body = b64(email);
  return `${prefix}_${body}.${sealer.mac(body, `stand-in-token:${slug}`)}`;
}

export class StandInOAuth {
  private readonly used = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly o: StandInOAuthOptions) {
    this.now = o.now ?? Date.now;
  }

  mint(email: string): string {
    return mintStandInToken(this.o.sealer, this.o.slug, this.o.tokenPrefix, email);
  }

  /** The account behind an access token, or null. Accepts "Bearer x", "token x" or the bare token. */
  verify(authorization: string | null): string | null {
    if (!authorization) return null;
    const token = authorization.replace(/^(Bearer|token)\s+/i, "").trim();
    const prefix = `${this.o.tokenPrefix}_`;
    if (!token.startsWith(prefix)) return null;
    const [body, mac] = token.slice(prefix.length).split(".");
    if (!body || !mac || this.o.sealer.mac(body, `stand-in-token:${this.o.slug}`) !== mac) return null;
    const email = unb64(body);
    return email && this.o.accounts().includes(email) ? email : null;
  }

  /** GET shows the consent page; POST is the person's answer. */
  async authorize(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const params = request.method === "POST" ? new URLSearchParams(await request.text()) : url.searchParams;
    const redirectUri = params.get("redirect_uri");
    const state = params.get("state") ?? "";
    if (!redirectUri || !/^https?:\/\//.test(redirectUri) || params.get("response_type") !== "code") {
      return new Response("invalid authorization request: redirect_uri and response_type=code are required", { status: 400 });
    }
    const back = new URL(redirectUri);
    if (request.method === "POST") {
      if (params.get("decision") !== "approve") {
        back.searchParams.set("error", "access_denied");
        back.searchParams.set("state", state);
        return Response.redirect(back.toString(), 303);
      }
      const email = params.get("account") ?? "";
      if (!this.o.accounts().includes(email)) return new Response("unknown account", { status: 400 });
      const code: CodeBody = { e: email, r: redirectUri, c: params.get("code_challenge"), x: this.now() + CODE_TTL_MS };
      const body = b64(JSON.stringify(code));
      back.searchParams.set("code", `${body}.${this.o.sealer.mac(body, `stand-in-code:${this.o.slug}`)}`);
      back.searchParams.set("state", state);
      return Response.redirect(back.toString(), 303);
    }
    return new Response(this.consentPage(params), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        "referrer-policy": "no-referrer",
      },
    });
  }

  /** POST the code (and PKCE verifier) for an access token. */
  async token(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const fail = (error: string, status = 400) =>
      new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } });
    if (form.get("grant_type") !== "authorization_code") return fail("unsupported_grant_type");
    const [body, mac] = (form.get("code") ?? "").split(".");
    if (!body || !mac || this.o.sealer.mac(body, `stand-in-code:${this.o.slug}`) !== mac) return fail("invalid_grant");
    if (this.used.has(body)) return fail("invalid_grant");
    let code: CodeBody;
    try {
      code = JSON.parse(unb64(body) ?? "") as CodeBody;
    } catch {
      return fail("invalid_grant");
    }
    if (code.x < this.now() || code.r !== form.get("redirect_uri")) return fail("invalid_grant");
    if (code.c) {
      const verifier = form.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== code.c) return fail("invalid_grant");
    }
    this.used.add(body);
    return new Response(
      JSON.stringify({ access_token: this.mint(code.e), token_type: "Bearer", scope: form.get("scope") ?? "read" }),
      { headers: { "content-type": "application/json", "cache-control": "no-store" } },
    );
  }

  private consentPage(params: URLSearchParams): string {
    const hint = params.get("login_hint") ?? "";
    const accounts = this.o.accounts();
    const hidden = ["client_id", "redirect_uri", "state", "scope", "response_type", "code_challenge", "code_challenge_method"]
      .map((k) => (params.get(k) !== null ? `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) ?? "")}">` : ""))
      .join("");
    const options = accounts
      .map((a) => `<option value="${escapeHtml(a)}"${a === hint ? " selected" : ""}>${escapeHtml(a)}</option>`)
      .join("");
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize access · ${escapeHtml(this.o.product)} (stand-in)</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}select{font:inherit}</style></head>
<body><main><h1>${escapeHtml(this.o.product)} <small>(stand-in)</small></h1>
<p>Dashboards asks to read your ${escapeHtml(this.o.product)} data (scope: <code>${escapeHtml(params.get("scope") ?? "read")}</code>).</p>
<form method="post"><label for="account">Account</label> <select id="account" name="account">${options}</select>${hidden}
<p><button type="submit" name="decision" value="approve">Authorize</button><button type="submit" name="decision" value="deny">Cancel</button></p></form></main></body></html>`;
  }
}
