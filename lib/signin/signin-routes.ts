import "server-only";
import { defineRoute, type RouteModule } from "@/lib/http/edge";
import { oidcCallback, oidcStart, type OidcDeps } from "./oidc";
import { demoSignIn, signOut } from "./routes";

// The sign-in routes as route modules, over the functions of routes.ts and oidc.ts.

export interface SigninRoutes {
  /** POST /signin/demo: demo sign-in (only when no identity provider is configured). */
  demo: RouteModule;
  /** GET /signin/oidc: starts sign-in with the identity provider (only when one is configured). */
  oidc: RouteModule;
  /** GET /signin/callback: the identity provider's answer to /signin/oidc. */
  callback: RouteModule;
  /** POST /signout: ends the session. */
  signout: RouteModule;
}

export function signinRoutes(deps: OidcDeps): SigninRoutes {
  return {
    demo: defineRoute({
      refuse: "Sign in with POST from the /signin page.",
      methods: (on) => ({ POST: on({ handle: ({ request }) => demoSignIn(request, deps) }) }),
    }),
    oidc: defineRoute({
      refuse: "Start sign-in with GET, from the /signin page.",
      methods: (on) => ({ GET: on({ handle: ({ request }) => oidcStart(request, deps) }) }),
    }),
    callback: defineRoute({
      refuse: "The identity provider returns here with GET.",
      methods: (on) => ({ GET: on({ handle: ({ request }) => oidcCallback(request, deps) }) }),
    }),
    signout: defineRoute({
      refuse: "Sign out with POST from this site's own pages.",
      methods: (on) => ({ POST: on({ handle: ({ request }) => signOut(request, deps) }) }),
    }),
  };
}
