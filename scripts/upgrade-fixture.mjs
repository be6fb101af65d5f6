// npm run fixture:upgrade -- [commit]: writes tests/fixtures/upgrade/previous.sqlite (and .json,
// what that release answered) with the code and migrations of an earlier release (default
// ef03b59), so tests/integration/db/upgrade.test.ts proves this release opens its databases.
// The release runs in a temporary git worktree sharing this checkout's node_modules; its own
// test harness populates the database (tests/integration/db/fixture-generator.ts, world.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

const root = path.resolve(import.meta.dirname, "..");
const commit = process.argv[2] ?? "ef03b59";
const out = path.join(root, "tests/fixtures/upgrade/previous.sqlite");
const tree = fs.mkdtempSync(path.join(os.tmpdir(), "dd-prev-"));
fs.rmdirSync(tree);

const run = (cmd, args, cwd, env = {}) => execFileSync(cmd, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });
run("git", ["worktree", "add", "--detach", tree, commit], root);
try {
  fs.symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
  const dest = path.join(tree, "tests/integration/db");
  fs.mkdirSync(dest, { recursive: true });
  fs.copyFileSync(path.join(root, "tests/integration/db/world.ts"), path.join(dest, "world.ts"));
  fs.copyFileSync(path.join(root, "tests/integration/db/fixture-generator.ts"), path.join(dest, "fixture-generator.test.ts"));
  const full = execFileSync("git", ["rev-parse", commit], { cwd: root, encoding: "utf8" }).trim();
  run(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", "integration", "tests/integration/db/fixture-generator.test.ts"], tree, {
    FIXTURE_OUT: out,
    FIXTURE_COMMIT: full,
  });
  // One file, no write-ahead log beside it, no free pages: what is committed is all there is.
  const db = new SQLite(out);
  db.pragma("journal_mode = DELETE");
  db.exec("VACUUM");
  db.close();
  console.log(`wrote ${path.relative(root, out)} (${Math.round(fs.statSync(out).size / 1024)} KiB) from ${full.slice(0, 7)}`);
} finally {
  run("git", ["worktree", "remove", "--force", tree], root);
}
