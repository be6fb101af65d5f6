import { defineConfig, devices } from "@playwright/test";
import { headlessShell, peoplesChromium } from "./e2e/support/chromium";

// End-to-end tests drive Debian's Chromium against the production build, in two builds of it
// (e2e/support/chromium.ts).
// The build is made once by scripts/test.mjs (or npm start) before servers start.

// E2E_PORT_BASE moves every server of a run, so two checkouts can run their suites side by side.
const base = Number(process.env.E2E_PORT_BASE ?? 3100);
export const ports = { demo: base, oidc: base + 1, fuzz: base + 2, provider: base + 99 };

const desktop = devices["Desktop Chrome"];
/** Every suite but those below: see e2e/support/chromium.ts. */
const chromium = { ...desktop, launchOptions: headlessShell };
/** Where a page tries to get out or a person consents (consent.spec.ts and mcp-oauth.spec.ts choose it too). */
const peoples = { ...desktop, launchOptions: peoplesChromium };

const serverEnv = { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };


// Every demo-server test runs in parallel with the others, but for those that change or rely on
// what one demo person has on the server, which the other demo server tests leave alone. They
// carry a tag naming that state and run one at a time, in a project of their own per tag:
// - @csm-state: csm's favourites, home and the list of their space (and the admin's trust in csm);
// - @member-state: the member's connections and call opt-in.
// A test that changes one of these puts it back as it found it. Everything else makes its own
// drafts and slugs, so it may run beside anything.
const serialStates = ["@csm-state", "@member-state"] as const;
const demoTests = { testIgnore: ["**/oidc.spec.ts", "**/frame-escape.spec.ts", "**/fuzz.spec.ts"] };

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e-artifacts",
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: true,
  // Two cores, three browsers: while one waits on the server, a stream or a timer, the others keep
  // both cores busy (the whole suite took 11.3 min with two, 9.8 with three).
  workers: 3,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  // A failing test keeps its trace of actions, console and network. DOM snapshots at every action
  // are left out: taking them cost a fifth of the suite's time (3.2 → 2.6 min on docs, editor and
  // every-page), on every passing test, for a picture nobody opens.
  use: { trace: { mode: "retain-on-failure", screenshots: false, snapshots: false } },
  webServer: [
    {
      command: "node e2e/support/serve.mjs",
      url: `http://127.0.0.1:${ports.demo}/signin`,
      // frame-escape creates a draft per case, from two workers: more than the default 30 a minute.
      // The stand-ins' tokens live 20 seconds, so every test that reads a vendor does so while the
      // app renews the demo people's credentials under it. SQLite always: the connections suite
      // reads and marks stored connections (e2e/support/demo-db.ts).
      env: {
        ...serverEnv,
        PORT: String(ports.demo),
        DATA_DIR: ".data/e2e-demo",
        DATABASE_URL: "",
        PLAYGROUND_CREATES_PER_MIN: "600",
        // Every watch page in every suite sends a render report from the one loopback address.
        PLAYGROUND_REPORTS_PER_MIN: "6000",
        STAND_IN_TOKEN_TTL_MS: "20000",
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      // The fuzz suite's own instance: it floods one address with reads and writes, which would
      // spend the demo instance's per-address allowances that the browser tests share. Its limits
      // are raised so generated requests reach the routes rather than the limiter; SQLite always,
      // because the suite reads the stored state to check that refused writes wrote nothing.
      command: "node e2e/support/serve.mjs",
      url: `http://127.0.0.1:${ports.fuzz}/signin`,
      env: {
        ...serverEnv,
        PORT: String(ports.fuzz),
        DATA_DIR: ".data/e2e-fuzz",
        DATABASE_URL: "",
        PLAYGROUND_CREATES_PER_MIN: "100000",
        PLAYGROUND_UPDATES_PER_MIN: "100000",
        PLAYGROUND_READS_PER_MIN: "100000",
        PLAYGROUND_DEMO_READS_PER_MIN: "100000",
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      command: "node e2e/support/oidc-provider.mjs",
      url: `http://127.0.0.1:${ports.provider}/.well-known/openid-configuration`,
      env: { PORT: String(ports.provider), OIDC_REDIRECT_URI: `http://127.0.0.1:${ports.oidc}/signin/callback` },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "node e2e/support/serve.mjs",
      url: `http://127.0.0.1:${ports.oidc}/signin`,
      env: {
        ...serverEnv,
        PORT: String(ports.oidc),
        DATA_DIR: ".data/e2e-oidc",
        OIDC_ISSUER: `http://127.0.0.1:${ports.provider}`,
        OIDC_CLIENT_ID: "dashboards-e2e",
        OIDC_CLIENT_SECRET: "e2e-client-secret-not-for-production",
        OIDC_ALLOW_HTTP: "1",
      },
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
  projects: [
    // The generated HTTP requests (no browser) and the serial chains first, one worker each, so they
    // start at once and the parallel tests fill around them; run last, the requests' half a minute
    // was the suite's tail with two workers idle.
    { name: "fuzz", testMatch: "**/fuzz.spec.ts", workers: 1, use: { baseURL: `http://127.0.0.1:${ports.fuzz}` } },
    ...serialStates.map((tag) => ({
      name: `demo ${tag.slice(1)}`,
      ...demoTests,
      grep: new RegExp(tag),
      fullyParallel: false,
      workers: 1,
      use: { ...chromium, baseURL: `http://127.0.0.1:${ports.demo}` },
    })),
    {
      name: "demo",
      ...demoTests,
      grepInvert: serialStates.map((tag) => new RegExp(tag)),
      use: { ...chromium, baseURL: `http://127.0.0.1:${ports.demo}` },
    },
    { name: "oidc", testMatch: "**/oidc.spec.ts", use: { ...chromium, baseURL: `http://127.0.0.1:${ports.oidc}` } },
    {
      name: "frame-escape",
      testMatch: "**/frame-escape.spec.ts",
      // Its hostile dashboards run in two workers, each with its own loopback listeners.
      use: { ...peoples, baseURL: `http://127.0.0.1:${ports.demo}` },
    },
  ],
});
