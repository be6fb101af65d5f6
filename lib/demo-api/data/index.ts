import { endpoints, type Endpoint } from "@/lib/contract/endpoints";
import { matchPath } from "@/lib/contract/match";
import { catalogue, DEFAULT_VARIANT } from "./catalogue";
import { DEFAULT_SCENARIO, scenarioList, type Scenario } from "./scenarios";

// The playground's canned demo data: variants per endpoint and scenarios over them. The demo
// API (lib/demo-api/answers.ts) answers from here; draft validation uses the predicates.

export { catalogue, DEFAULT_VARIANT, isErrorVariant, variantGlossary } from "./catalogue";
export type { DemoData, ErrorVariant, Variant } from "./catalogue";
export { DEMO_VIEWER_EMAIL, demoReferenceDate, rich } from "./data";
export { openParamExamples } from "./examples";
export type { Scenario } from "./scenarios";

export const scenarios: readonly Scenario[] = scenarioList;
export const defaultScenario: string = DEFAULT_SCENARIO;

export function scenarioNamed(name: string): Scenario | undefined {
  return scenarios.find((s) => s.name === name);
}

export function isScenario(name: string): boolean {
  return scenarioNamed(name) !== undefined;
}

/** The endpoint an API path names: a registry pattern (`/crm/:instance/companies`) or a concrete path. */
export function endpointForPath(apiPath: string): Endpoint | undefined {
  return endpoints.find((e) => e.path === apiPath) ?? matchPath(apiPath)?.endpoint;
}

/** The variant names offered for an API path (pattern or concrete), default first; none for an unknown path. */
export function variantsFor(pathPattern: string): string[] {
  const endpoint = endpointForPath(pathPattern);
  return endpoint ? Object.keys(catalogue[endpoint.id]) : [];
}

export function isVariant(apiPath: string, variant: string): boolean {
  const endpoint = endpointForPath(apiPath);
  return endpoint !== undefined && Object.hasOwn(catalogue[endpoint.id], variant);
}

/** The variant a scenario gives a path: its key for the concrete path, else for the pattern, else the default. */
export function scenarioVariant(scenario: Scenario, concretePath: string, endpoint: Endpoint): string {
  return (Object.hasOwn(scenario.examples, concretePath) ? scenario.examples[concretePath] : undefined) ??
    (Object.hasOwn(scenario.examples, endpoint.path) ? scenario.examples[endpoint.path] : undefined) ??
    DEFAULT_VARIANT;
}
