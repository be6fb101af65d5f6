import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesMatching, root, runtimeClosure } from "./layers";

// lib/ modules that hold storage, secrets, configuration, sessions, outside systems or route
// logic start with `import "server-only"`; `next build` fails when a client component reaches
// one. This test says the same sooner, and also for the modules meant to stay browser-safe that
// no client component imports yet.

const USE_CLIENT = /^["']use client["'];?\s*$/m;
const clientEntries = [...filesMatching("components", USE_CLIENT), ...filesMatching("app", USE_CLIENT)];
const browserSafe = [
  "lib/check/index.ts",
  "lib/frame/protocol.ts",
  "lib/frame/bootstrap.ts",
  "lib/contract/endpoints.ts",
  "lib/contract/playground.ts",
  // The demo API is plain TypeScript, so the editor's broker may answer drafts with it.
  "lib/playground/demo-answers.ts",
];

function serverOnlyIn(entries: string[]): string[] {
  return [...runtimeClosure(entries)].filter(([, packages]) => packages.includes("server-only")).map(([file]) => path.relative(root, file));
}

describe("server-only", () => {
  it("is reached by no client component", () => {
    expect(clientEntries.length).toBeGreaterThan(10);
    expect(serverOnlyIn(clientEntries)).toEqual([]);
  });

  it("is reached by none of the browser-safe modules", () => {
    expect(serverOnlyIn(browserSafe)).toEqual([]);
  });

  it("marks storage, secrets, configuration, sessions, connectors, sync and route logic", () => {
    const files = ["lib/config.ts", "lib/app/index.ts", "lib/db/index.ts", "lib/crypto/secrets.ts", "lib/auth/session.ts", "lib/http/edge.ts", "lib/handlers/api-route.ts", "lib/connectors/store.ts", "lib/crm/sync.ts", "lib/saved/store.ts", "lib/playground/store.ts", "lib/playground/routes.ts", "lib/handlers/index.ts"];
    const unmarked = files.filter((f) => !(runtimeClosure([f]).get(path.join(root, f)) ?? []).includes("server-only"));
    expect(unmarked).toEqual([]);
  });
});
