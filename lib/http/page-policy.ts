import type { Config } from "@/lib/config";

// The Content-Security-Policy of our own pages, sent by proxy.ts on every answer except those
// whose route sends a policy of its own. Headers the framework adds (next.config.mjs, proxy.ts)
// are written before a route runs and the route's header of the same name is then dropped, so
// the two cannot be merged: a route with its own policy is left alone, and X-Frame-Options: DENY
// (next.config.mjs) still keeps it out of frames.
//
// What the policy holds back: plugins (object-src), a <base> that would re-point every relative
// URL (base-uri), forms posting anywhere but here or to a connector's sign-in (form-action:
// Chrome checks the redirect after a form post too, and Connect answers a redirect to the
// vendor's authorize page), and framing by anyone (frame-ancestors). Scripts and styles are not
// restricted: the framework's inline bootstrap scripts would need 'unsafe-inline' (no gain) or
// per-request nonces.

/** Routes that send their own Content-Security-Policy; the page policy must not replace it. */
const OWN_POLICY = [
  // The dashboard frame's document: its sandboxing policy (lib/dashboards/bootstrap.ts).
  /^\/dashboards\/frame$/,
  // A saved dashboard's source as text: sandbox; default-src 'none'.
  /^\/~\/[^/]+\/[^/]+\/source$/,
  // A stand-in vendor's consent page (lib/connectors/stand-in/oauth.ts).
  /^\/stand-ins\/[^/]+\/oauth\/authorize$/,
  // The MCP authorization server's consent page, whose form ends at the app's redirect URI
  // (lib/signin/authorization-server/pages.ts).
  /^\/oauth\/authorize$/,
  // A snapshot's page: no script at all, and the inert document's policy (lib/saved/snapshot-page.ts).
  /^\/snapshots\/[^/]+$/,
];

export function setsOwnPolicy(pathname: string): boolean {
  return OWN_POLICY.some((p) => p.test(pathname));
}

/** Origins a form on our pages may end up at: the authorize pages of connectors that use a vendor. */
function formTargets(upstreams: Config["upstreams"]): string[] {
  const origins = new Set<string>();
  for (const up of Object.values(upstreams)) {
    if (up.mode !== "vendor") continue;
    try {
      origins.add(new URL(up.authorizeUrl).origin);
    } catch {
      // Not a URL: Connect cannot redirect there either.
    }
  }
  return [...origins].sort();
}

export function pagePolicy(upstreams: Config["upstreams"]): string {
  return [
    "object-src 'none'",
    "base-uri 'none'",
    ["form-action 'self'", ...formTargets(upstreams)].join(" "),
    "frame-ancestors 'none'",
  ].join("; ");
}
