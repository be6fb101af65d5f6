import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

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
    // Configuration, scripts, tests and benchmarks may read the environment directly.
    files: ["lib/config.ts", "scripts/**", "bench/**", "e2e/**", "tests/**", "playwright.config.ts", "**/*.test.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
];

export default config;
