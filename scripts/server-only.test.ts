import fs from "node:fs";
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
  "lib/demo-api/answers.ts",
];

// Running SQL is what storage code has in common, and it can be seen in the source: Kysely's
// query and schema builders on the Db handle, its `sql` template tag, and the drivers' own calls
// (pg's query, better-sqlite3's prepare and exec) handed SQL text. A new store is found by this,
// not by remembering to list it.
const RUNS_SQL = new RegExp(
  [
    String.raw`\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(`,
    String.raw`\.schema\s*\.\s*(?:create|alter|drop)\w*\(`,
    String.raw`\bsql(?:<[^\x60\n]*>)?\x60`,
    String.raw`\bsql\.(?:raw|ref|table|id|lit|join|val)\(`,
    String.raw`\.(?:query|prepare|exec)\(\s*["'\x60][\s(]*(?:select|insert|update|delete|create|alter|drop|listen|unlisten|notify|begin|commit|rollback|pragma|with|set|lock|vacuum|truncate)\b`,
  ].join("|"),
  "i",
);
const TEST_FILE = /\.test\.tsx?$/;
const MARKED = /^import ["']server-only["'];?\r?\n/;

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

  it("is the first line of every lib/ module that runs SQL", () => {
    const sqlModules = filesMatching("lib", RUNS_SQL)
      .filter((f) => !TEST_FILE.test(f))
      .map((f) => path.relative(root, f));
    // The pattern still sees each way storage is queried: the builder, the tag, a raw driver call.
    expect(sqlModules).toEqual(expect.arrayContaining(["lib/crm/store.ts", "lib/db/migrate.ts", "lib/db/migrations/0001_identity.ts", "lib/live/fanout.ts", "lib/cx/load.ts"]));
    expect(sqlModules.filter((f) => !MARKED.test(fs.readFileSync(path.join(root, f), "utf8")))).toEqual([]);
  });

  it("marks configuration, secrets, the composition root, sync and route logic, which run no SQL themselves", () => {
    const files = ["lib/config.ts", "lib/root/index.ts", "lib/crypto/secrets.ts", "lib/http/edge.ts", "lib/api/api-route.ts", "lib/crm/sync.ts", "lib/playground/service.ts", "lib/api/index.ts"];
    const unmarked = files.filter((f) => !(runtimeClosure([f]).get(path.join(root, f)) ?? []).includes("server-only"));
    expect(unmarked).toEqual([]);
  });
});
