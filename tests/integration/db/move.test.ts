import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenDb, type Storage } from "@/lib/db";
import { moveDatabase } from "@/lib/db/move";
import { Refusal, appTables, digestTable, tablesIn } from "@/lib/db/transfer";
import { probeSealed } from "@/lib/connectors/store";
import { createSealer } from "@/lib/crypto/secrets";
import { PG_URL, dropSchema, testSealer } from "../support/backends";
import { answersOf, expectSameAnswers, populate, type World } from "./world";

// The move between engines, end to end on real files and a real PostgreSQL: every answer the
// three demo people get is the same before and after, there and back; a move stopped by SIGKILL
// half way completes on a rerun with the same result; and what it refuses, it leaves untouched.

const checkSealed = async (db: OpenDb["db"]) => {
  const r = await probeSealed(testSealer, async (t) => (await db.selectFrom(t).selectAll().limit(1).executeTakeFirst()) as Record<string, unknown> | undefined);
  if (!r.opened) throw new Refusal(`the ${r.what} does not open with this key`);
  return `opens the ${r.what}`;
};

async function withDb<T>(storage: Storage, f: (open: OpenDb) => Promise<T>): Promise<T> {
  const open = await openDb(storage, { migrate: false });
  try {
    return await f(open);
  } finally {
    await open.close();
  }
}

async function digests(storage: Storage) {
  return withDb(storage, async (open) => Promise.all(appTables.map((t) => digestTable(open.db, t))));
}

describe("db:move between SQLite and PostgreSQL", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-move-"));
  const sqliteA: Storage = { kind: "sqlite", file: path.join(dir, "a.sqlite") };
  const sqliteB: Storage = { kind: "sqlite", file: path.join(dir, "b.sqlite") };
  const schemas = [`t_${randomBytes(6).toString("hex")}`, `t_${randomBytes(6).toString("hex")}`];
  const pgA: Storage = { kind: "postgres", url: PG_URL, schema: schemas[0] };
  const pgB: Storage = { kind: "postgres", url: PG_URL, schema: schemas[1] };
  let world: World;
  let before: Map<string, unknown>;

  beforeAll(async () => {
    const open = await openDb(sqliteA);
    try {
      world = await populate(open);
      before = await answersOf(open, world);
    } finally {
      await open.close();
    }
  }, 120_000);
  afterAll(async () => {
    for (const s of schemas) await dropSchema(s);
    fs.rmSync(dir, { recursive: true });
  });

  it("names every table the migrations create, and the demo world fills the ones people fill", async () => {
    await withDb(sqliteA, async (open) => {
      expect((await tablesIn(open.db)).sort()).toEqual(appTables.map((t) => t.name).sort());
    });
    const counts = Object.fromEntries((await digests(sqliteA)).map((d) => [d.table, d.rows]));
    for (const t of ["users", "sessions", "favourites", "connector_tokens", "donor_credentials", "crm_companies", "crm_engagements", "crm_sync_runs", "usage_weeks", "playground_drafts", "playground_draft_revisions", "playground_draft_reports", "draft_renders", "saved_dashboards", "saved_dashboard_revisions", "trusted_authors", "snapshots"]) {
      expect(counts[t], t).toBeGreaterThan(0);
    }
    // The comparison below is worth something only if the answers carry data.
    for (const who of ["admin", "csm", "member"]) {
      const ok = [...before].filter(([k, v]) => k.startsWith(`api ${who} `) && (v as { status: number }).status === 200);
      expect(ok.length, who).toBeGreaterThanOrEqual(who === "member" ? 8 : 10);
    }
    expect([...before.keys()].filter((k) => k.startsWith("draft ")).length).toBe(12);
    // Snapshots: csm's two open ones listed, one shown to anyone by its link, the revoked one gone.
    expect((before.get("snapshots csm") as unknown[]).length).toBe(2);
    const [priv, linked, revoked] = world.snapshots!;
    expect(before.get(`snapshot ${priv} csm`)).toMatchObject({ kind: "shown", snapshot: { html: expect.stringContaining("private “drawing”") } });
    expect(before.get(`snapshot ${priv} admin`)).toEqual({ kind: "hidden" });
    expect(before.get(`snapshot ${linked} signed out`)).toMatchObject({ kind: "shown", snapshot: { picture: true, height: 321 } });
    expect(before.get(`snapshot ${revoked} member`)).toMatchObject({ kind: "gone", why: "revoked" });
  });

  it("refuses a key that does not open the sealed credentials, before copying anything", async () => {
    const other = createSealer("another-deployment-key-".repeat(2));
    const err = await moveDatabase({
      from: sqliteA,
      to: pgB,
      checkSealed: async (db) => {
        const r = await probeSealed(other, async (t) => (await db.selectFrom(t).selectAll().limit(1).executeTakeFirst()) as Record<string, unknown> | undefined);
        if (!r.opened) throw new Refusal(`the ${r.what} does not open with this key`);
        return "";
      },
    }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/credential .* does not open with this key/);
    await withDb(pgB, async (open) => expect(await tablesIn(open.db)).toEqual([]));
  });

  it("moves SQLite → PostgreSQL and back with every answer the same, and refuses a target holding data", async () => {
    const there = await moveDatabase({ from: sqliteA, to: pgA, checkSealed, pageSize: 300 });
    expect(there.ok).toBe(true);
    expect(there.tables.filter((t) => !t.same)).toEqual([]);
    const onPg = await withDb(pgA, (open) => answersOf(open, world));
    expectSameAnswers(onPg, before);

    const again = await moveDatabase({ from: sqliteA, to: pgA }).catch((e: unknown) => e);
    expect(String((again as Error).message)).toMatch(/already holds data .*--replace/);

    const back = await moveDatabase({ from: pgA, to: sqliteB, checkSealed });
    expect(back.ok).toBe(true);
    // The same rows as the database they came from (which its answers above added a rate-limit count to).
    expect(await digests(sqliteB)).toEqual(await digests(pgA));
    const onSqlite = await withDb(sqliteB, (open) => answersOf(open, world));
    expectSameAnswers(onSqlite, before);

    // Ids keep counting above the copied ones on PostgreSQL (its sequences were moved on).
    await withDb(pgA, async (open) => {
      const max = Number((await open.db.selectFrom("users").select((eb) => eb.fn.max("id").as("m")).executeTakeFirstOrThrow()).m);
      const row = await open.db.insertInto("users").values({ email: "new@example.test", handle: "new", name: "New", created_at: 1 }).returning("id").executeTakeFirstOrThrow();
      expect(row.id).toBe(max + 1);
    });
  }, 120_000);

  it("completes a move killed with SIGKILL half way through a table, without duplicates", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions=react-server", path.join(import.meta.dirname, "move-child.ts"), sqliteA.file, PG_URL, schemas[1]!, "usage_weeks", "1500"],
      { cwd: path.resolve(import.meta.dirname, "../../.."), stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b));
    child.stderr.on("data", (b: Buffer) => (output += b));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
    expect(signal, output).toBe("SIGKILL");
    expect(output).toContain("killing at usage_weeks 1500");

    // The table being copied was rolled back whole; the ones before it are marked done.
    await withDb(pgB, async (open) => {
      const usage = Number((await open.db.selectFrom("usage_weeks").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      expect(usage).toBe(0);
      expect(Number((await open.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)).toBe(3);
    });

    const rerun = await moveDatabase({ from: sqliteA, to: pgB, checkSealed });
    expect(rerun.resumed).toBe(true);
    expect(rerun.ok).toBe(true);
    expect(rerun.tables.find((t) => t.table === "users")?.copied).toBe(false);
    expect(rerun.tables.find((t) => t.table === "usage_weeks")?.copied).toBe(true);
    expect(await digests(pgB)).toEqual(await digests(sqliteA));
    expectSameAnswers(await withDb(pgB, (open) => answersOf(open, world)), before);
  }, 120_000);
});
