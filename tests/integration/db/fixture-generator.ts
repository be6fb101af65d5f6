import fs from "node:fs";
import { it } from "vitest";
import { openDb } from "@/lib/db";
import { sql } from "kysely";
import { FIXTURE_IDLE_DAYS, answersOf, populate } from "./world";

// Not a test of this release: `npm run fixture:upgrade` copies this file (as a .test.ts) and
// world.ts into a worktree of an earlier release and runs it there, so the fixture database is
// written by that release's own code and migrations. It records what that release answered.

it("writes the upgrade fixture", async () => {
  const out = process.env.FIXTURE_OUT;
  if (!out) throw new Error("FIXTURE_OUT names the SQLite file to write");
  fs.rmSync(out, { force: true });
  const open = await openDb({ kind: "sqlite", file: out });
  try {
    const world = await populate(open);
    const answers = await answersOf(open, world, FIXTURE_IDLE_DAYS);
    const counts: Record<string, number> = {};
    for (const t of (await open.db.introspection.getTables()).map((x) => x.name).sort()) {
      counts[t] = Number((await open.db.selectFrom(t as never).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow() as { n: number }).n);
    }
    const manifest = {
      commit: process.env.FIXTURE_COMMIT ?? "",
      // Read as that release stored them: the helpers of this one may not exist there.
      migrations: (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(open.db)).rows.map((r) => r.name),
      writtenAt: new Date().toISOString(),
      world: { ids: world.ids, drafts: world.drafts, dashboards: world.dashboards },
      counts,
      // The API's bodies follow the calendar (trailing windows, token expiry); their statuses and
      // every draft and saved-dashboard answer must stay as this release gave them.
      apiStatus: Object.fromEntries([...answers].filter(([k]) => k.startsWith("api ")).map(([k, v]) => [k, (v as { status: number }).status])),
      answers: Object.fromEntries([...answers].filter(([k]) => !k.startsWith("api "))),
    };
    fs.writeFileSync(out.replace(/\.sqlite$/, ".json"), `${JSON.stringify(manifest, null, 1)}\n`);
  } finally {
    await open.close();
  }
}, 120_000);
