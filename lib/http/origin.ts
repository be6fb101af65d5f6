// Cross-site request checks for state-changing routes.

/** The origin this request was addressed to, as the browser saw it. */
export function requestOrigin(request: Request, publicOrigin?: string): string {
  return publicOrigin ?? new URL(request.url).origin;
}

/**
 * True unless a browser says the request came from another site. Requests from non-browser
 * clients carry neither header and cannot be forged by a page, so they pass.
 */
export function notCrossSite(request: Request, publicOrigin?: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.get("origin");
  if (origin && origin !== requestOrigin(request, publicOrigin)) return false;
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
