import { ApiError } from "./errors";
import { endpointById, type Endpoint, type EndpointDef } from "./endpoints";
import { matchRoute } from "./routes";

// Path matching against the registry, shared by the API and the playground's demo API; the
// frame's broker matches the same routes (routes.ts), so all three agree on what a path means.

interface Match {
  endpoint: Endpoint;
  params: Record<string, string>;
}

/** Matches a path relative to the API base (leading slash, no query) to its registry entry. */
export function matchPath(path: string): Match | null {
  const m = matchRoute(path);
  return m ? { endpoint: endpointById(m.route.id), params: m.params } : null;
}

// The steps of the API's order that the API and the demo API share: a path value outside the
// registry's values answers that rule's error, and a permission is named with its path values.

/** Throws the registry's error for a path value outside its rule's values. */
export function checkPathValues(match: { endpoint: EndpointDef; params: Record<string, string> }): void {
  for (const [name, rule] of Object.entries(match.endpoint.params ?? {})) {
    const value = match.params[name] ?? "";
    if (rule.values && !rule.values.includes(value)) {
      throw new ApiError(rule.unknown ?? "not_found", `${name} must be one of: ${rule.values.join(", ")}`);
    }
  }
}

/** The permission the endpoint needs for these path values, or null when it needs none. */
export function permissionFor(match: { endpoint: EndpointDef; params: Record<string, string> }): string | null {
  const template = match.endpoint.permission;
  return template ? template.replace(/\{(\w+)\}/g, (_, p: string) => match.params[p] ?? "") : null;
}
