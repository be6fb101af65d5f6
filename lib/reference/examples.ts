import type { Endpoint, EndpointDef, EndpointId } from "@/lib/contract/endpoints";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { DEMO_VIEWER_EMAIL, openParamExamples, rich } from "@/lib/demo-api/data";
import type { ExampleDoc } from "./types";

// Each endpoint's example is what the playground's demo API answers for it in the default
// scenario: real demo data, run through the same path and query handling as the API. A test
// parses every one with the endpoint's success schema.

/** Lists longer than this are cut for the page; the demo API still answers them whole. */
export const EXAMPLE_LIST_ITEMS = 3;

const demoGet = (path: string, query = "") => demoApiResponse({ path, search: new URLSearchParams(query) });

function viewerOwnerId(): string {
  const owner = rich().tenant.owners.find((o) => o.email === DEMO_VIEWER_EMAIL);
  if (!owner) throw new Error("The demo viewer owns no book");
  return owner.ownerId;
}

/** Queries that make an example complete: a required owner, a short page that still pages on. */
const exampleQueries: Partial<Record<EndpointId, () => string>> = {
  "crm.companies": () => `limit=${EXAMPLE_LIST_ITEMS}`,
  "crm.contacts": () => `limit=${EXAMPLE_LIST_ITEMS}`,
  "crm.deals": () => `limit=${EXAMPLE_LIST_ITEMS}`,
  "cx.book": () => `owner=${viewerOwnerId()}`,
};

/** The concrete request shown for an endpoint, relative to the API base. */
function exampleRequest(e: Endpoint): string {
  const params: EndpointDef["params"] = (e as EndpointDef).params ?? {};
  const path = e.path.replace(/:(\w+)/g, (_, name: string) => {
    const fixed = params[name]?.values?.[0];
    const open = openParamExamples[e.id]?.[name];
    const value = fixed ?? open?.();
    if (value === undefined) throw new Error(`No example value for :${name} of ${e.path}`);
    return encodeURIComponent(value);
  });
  const query = exampleQueries[e.id]?.() ?? "";
  return query ? `${path}?${query}` : path;
}

/** Cuts every list of records to its first items (lists of values stay whole); says whether anything was cut. */
export function shorten(value: unknown, max = EXAMPLE_LIST_ITEMS): { value: unknown; shortened: boolean } {
  let shortened = false;
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const records = v.some((x) => typeof x === "object" && x !== null);
      if (!records) return v;
      if (v.length > max) shortened = true;
      return v.slice(0, max).map(visit);
    }
    if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, visit(x)]));
    return v;
  };
  return { value: visit(value), shortened };
}

export function endpointExample(e: Endpoint): ExampleDoc {
  const request = exampleRequest(e);
  const [path = "", query = ""] = request.split("?");
  const answer = demoGet(path, query);
  if (answer.status !== 200) throw new Error(`The demo answers ${request} with ${answer.status}, not an example`);
  const { value, shortened } = shorten(answer.body);
  return { request, status: answer.status, body: value, shortened };
}
