import path from "node:path";
import { defineConfig } from "vitest/config";

// `server-only` throws unless resolved under the react-server condition, which Next.js sets for
// server code and Vitest does not: tests load the marker's empty module instead.
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

// Every file shares its worker's modules with the files before it, which saves each file
// re-importing the app (isolation took half of the unit tests' time, a quarter of the whole run).
// Each integration file opens its own databases, no file sets process.env, and a test that
// depends on process-wide state (the peer stamp) sets it itself. These two replace a module
// (vi.mock) or a global, and the request edge's subscribes to a channel of the whole process for
// good, so they run in a process of their own.
const isolated = ["tests/integration/playground/reads.test.ts", "components/landing/fetch-json.test.ts", "lib/ops/requests.test.ts"];

export default defineConfig({
  resolve: { alias },
  test: {
    // Two cores: one worker each. Integration files use their own SQLite files and PostgreSQL schemas.
    maxWorkers: 2,
    isolate: false,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "demo/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: isolated,
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: isolated,
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: { name: "isolated", include: isolated, isolate: true, environment: "node", testTimeout: 30_000, hookTimeout: 60_000 },
      },
    ],
  },
});
