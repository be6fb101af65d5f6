import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const HTTP_METHODS = "/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through lib/config.ts." },
      ],
    },
  },
  {
    // lib/ never reaches up into the UI layers.
    files: ["lib/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["@/app/*", "@/components/*"] }],
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
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through lib/config.ts." },
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
    // Configuration, scripts, tests and benchmarks may read the environment directly.
    files: ["lib/config.ts", "scripts/**", "bench/**", "e2e/**", "tests/**", "playwright.config.ts", "**/*.test.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
];

export default config;
