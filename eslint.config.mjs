import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const HTTP_METHODS = "/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/";

const readConfigOnce = { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through lib/config.ts." };
// Process-wide state lives in the composition root (lib/root) and nowhere else.
const noGlobalState = { selector: "Identifier[name='globalThis']", message: "Keep process-wide state in the composition root, lib/root/index.ts, and hand it to what needs it." };
// Live data reaches a frame only through a grant from lib/consent/live.ts (docs/architecture.md,
// Consent for live data). A grant cannot be written by hand, and these keep it that way: no cast
// makes one, and only the two consent components may call what decides and what agrees.
const noForgedGrant = [
  {
    selector: "TSAsExpression[typeAnnotation.typeName.name=/^(LiveGrant|Agreement)$/], TSTypeAssertion[typeAnnotation.typeName.name=/^(LiveGrant|Agreement)$/]",
    message: "A live-data grant comes only from lib/consent/live.ts, through ConsentedFrame: never cast something to one.",
  },
];
const consentCallers = {
  name: "@/lib/consent/live",
  importNames: ["decideLive", "agree", "startingAgreement"],
  message:
    "Only ConsentedFrame decides and only ConsentGate agrees: render someone's dashboard on live data with <ConsentedFrame>, which asks the viewer first.",
};

// The layers of lib/, lowest first. A folder (or top-level file: `config` is lib/config.ts) may
// import its own layer and the layers below it, never one above; folders that share a layer may
// not import each other both ways (scripts/layers.test.ts checks that, and that every folder of
// lib/ is listed here). Below them all is demo/: data only, importing nothing from lib/,
// components/ or app/. Above them all are components/ and then app/. docs/architecture.md draws
// the picture.
export const libLayers = [
  { name: "foundations", folders: ["contract", "config", "crypto", "cache", "db"] },
  { name: "browser-safe", folders: ["frame", "check", "inert"] },
  { name: "consent", folders: ["consent"] },
  { name: "identity", folders: ["auth"] },
  { name: "http", folders: ["http", "limits"] },
  { name: "outside systems", folders: ["connectors", "renderer"] },
  { name: "crm", folders: ["crm"] },
  { name: "domains", folders: ["cx", "saved"] },
  { name: "seeding", folders: ["seed"] },
  { name: "demo API", folders: ["demo-api"] },
  { name: "live delivery", folders: ["live"] },
  { name: "drafts", folders: ["drafts"] },
  { name: "routes", folders: ["playground", "api", "signin"] },
  { name: "agent surface", folders: ["agent"] },
  { name: "operations", folders: ["ops"] },
  { name: "reference", folders: ["reference"] },
  { name: "composition root", folders: ["root"] },
];

// Imports that reach up a layer on purpose, each with its reason.
export const layerExceptions = {};

const uiImports = [
  { group: ["@/app", "@/app/**"], message: "lib/ never imports app/: routes call lib, not the other way round." },
  { group: ["@/components", "@/components/**"], message: "lib/ never imports components/: the UI uses lib, not the other way round." },
];

function layerRules() {
  return libLayers.flatMap((layer, level) =>
    layer.folders.map((folder) => {
      const allowed = new Set(layerExceptions[folder] ?? []);
      const above = libLayers.slice(level + 1).flatMap((l, i) => l.folders.map((f) => ({ f, layer: l, level: level + 1 + i })));
      const patterns = above
        .filter(({ f }) => !allowed.has(f))
        .map(({ f, layer: up, level: upLevel }) => ({
          group: [`@/lib/${f}`],
          message: `Layer order (eslint.config.mjs libLayers): lib/${folder} is in layer ${level} (${layer.name}) and may not import lib/${f}, in layer ${upLevel} (${up.name}). Move the shared piece down a layer.`,
        }));
      return {
        files: [`lib/${folder}/**`, `lib/${folder}.ts`, `lib/${folder}.test.ts`],
        rules: { "no-restricted-imports": ["error", { patterns: [...uiImports, ...patterns] }] },
      };
    }),
  );
}

// React's rules read every function of every file they are given, and React lives only in app/
// and components/ (lib/ never imports the UI; eslint's no-restricted-imports above holds it to
// that): elsewhere they found nothing and cost half the lint's time.
const reactRulesOff = Object.fromEntries(
  nextVitals.flatMap((c) => Object.keys(c.rules ?? {})).filter((r) => r.startsWith("react/") || r.startsWith("react-hooks/")).map((r) => [r, "off"]),
);

const config = [
  ...nextVitals,
  ...nextTs,
  { files: ["lib/**", "tests/**", "scripts/**", "bench/**", "e2e/**", "demo/**"], rules: reactRulesOff },
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", readConfigOnce, noGlobalState, ...noForgedGrant],
    },
  },
  {
    // Pages and components reach live data only through the consent components.
    files: ["components/**", "app/**"],
    ignores: ["components/dashboard-frame/ConsentedFrame.tsx", "components/dashboard-frame/ConsentGate.tsx", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [consentCallers] }] },
  },
  {
    // lib/ never reaches up into the UI layers (the per-folder rules below repeat this).
    files: ["lib/**"],
    rules: { "no-restricted-imports": ["error", { patterns: uiImports }] },
  },
  ...layerRules(),
  {
    // The dashboard frame's script runs in the frame as what scripts/frame-scripts.mjs compiles
    // of these files alone: its settings come from lib/frame/bootstrap.ts at run time, never by
    // importing the host's modules.
    files: ["lib/frame/scripts/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(?!\\./[^/]+$)", message: "lib/frame/scripts/ imports only its own files (./name): the frame's script is compiled from them alone." }] },
      ],
    },
  },
  {
    // demo/ is data at the bottom: the tenant generator, the demo people, example dashboards.
    files: ["demo/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib", "@/lib/**", "@/components", "@/components/**", "@/app", "@/app/**", "**/lib/**", "**/components/**", "**/app/**", "../../*"],
              message: "demo/ is data only and imports nothing from lib/, components/ or app/: put logic that uses the data in lib/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every route handler goes through the edge (lib/http/edge.ts): a route file exports the
    // methods of one defineRoute, `export const { GET, … } = defineRoute({...})`, never a
    // function of its own, so methods, path values, errors and headers are handled one way.
    files: ["app/**/route.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        readConfigOnce,
        noGlobalState,
        ...noForgedGrant,
        {
          selector: `ExportNamedDeclaration > FunctionDeclaration[id.name=${HTTP_METHODS}]`,
          message: "Route handlers go through the edge: export const { GET, … } = defineRoute({...}).",
        },
        {
          selector: `ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.type='Identifier'][id.name=${HTTP_METHODS}]`,
          message: "Route handlers go through the edge: export const { GET, … } = defineRoute({...}).",
        },
        {
          selector: `ExportSpecifier[exported.name=${HTTP_METHODS}]`,
          message: "Route handlers go through the edge: export const { GET, … } = defineRoute({...}).",
        },
      ],
    },
  },
  {
    // The composition root keeps the process's one app.
    files: ["lib/root/index.ts"],
    rules: { "no-restricted-syntax": ["error", readConfigOnce, ...noForgedGrant] },
  },
  {
    // Configuration, scripts, tests and benchmarks may read the environment directly.
    files: ["lib/config.ts", "scripts/**", "bench/**", "e2e/**", "tests/**", "playwright.config.ts", "**/*.test.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
];

export default config;
