import { ApiError } from "./errors";
import { endpoints, type Endpoint, type EndpointDef } from "./endpoints";

// Path matching against the registry, shared by the API, the playground's demo API and the
// frame's broker, so all three agree on what a path means.

interface Compiled {
  endpoint: Endpoint;
  regex: RegExp;
  names: string[];
  literalSegments: number;
}

const compiled: Compiled[] = endpoints
  .map((endpoint) => {
    const names: string[] = [];
    const segs = endpoint.path.split("/").slice(1);
    const pattern = segs
      .map((s) => {
        if (s.startsWith(":")) {
          names.push(s.slice(1));
          return "([^/]+)";
        }
        return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return { endpoint, regex: new RegExp(`^/${pattern}$`), names, literalSegments: segs.filter((s) => !s.startsWith(":")).length };
  })
  // Literal paths win over parameterised ones (`/calls/detailed` before `/calls/:id/...`).
  .sort((a, b) => b.literalSegments - a.literalSegments);

interface Match {
  endpoint: Endpoint;
  params: Record<string, string>;
}

/** Matches a path relative to the API base (leading slash, no query). */
export function matchPath(path: string): Match | null {
  for (const c of compiled) {
    const m = c.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    let ok = true;
    c.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(m[i + 1] ?? "");
      } catch {
        ok = false;
      }
    });
    if (ok) return { endpoint: c.endpoint, params };
  }
  return null;
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
