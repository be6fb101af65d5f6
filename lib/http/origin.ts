// Cross-site request checks for state-changing routes.

/**
 * The origin this request was addressed to, as the browser saw it. The framework's request URL
 * names the server's own host, not the one the browser used, so the Host header decides;
 * deployments behind a proxy set PUBLIC_ORIGIN.
 */
export function requestOrigin(request: Request, publicOrigin?: string): string {
  if (publicOrigin) return publicOrigin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host && /^[a-z0-9.:[\]-]+$/i.test(host) ? `${url.protocol}//${host}` : url.origin;
}

/**
 * True unless a browser says the request came from another site. Sec-Fetch-Site decides when
 * present: pages sent with `Referrer-Policy: no-referrer` make browsers send `Origin: null` even
 * on same-origin form posts. Requests from non-browser clients carry neither header and cannot
 * be forged by a page, so they pass.
 */
export function notCrossSite(request: Request, publicOrigin?: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  if (origin) return origin === requestOrigin(request, publicOrigin);
  return true;
}

/** True only for a browser request from one of our own pages (stricter: both signals required). */
export function sameOriginBrowserRequest(request: Request, publicOrigin?: string): boolean {
  return (
    request.headers.get("sec-fetch-site") === "same-origin" &&
    request.headers.get("origin") === requestOrigin(request, publicOrigin)
  );
}

/** A same-site path to return to after sign-in; anything else becomes "/". */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > 2048) return "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f]/.test(next)) return "/";
  return next;
}
