// The move's throughput beside a plain bulk copy of the same rows, in the same run:
//
//   npm run bench:move [-- --scale 10]
//
// Seeds the demo tenant at the given scale into a temporary SQLite file (people, connections,
// usage and health, the CRM portal's owners, companies and engagements), then copies it into
// two private PostgreSQL schemas of the test database: once with `moveDatabase` (key-ordered
// pages, one transaction per table with its progress mark, a digest of every row, then a second
// read of both sides to verify), and once the plainest way (every row of a table read at once,
// multi-row INSERTs in one transaction per table, nothing checked). Prints rows/s of each and
// their ratio; docs/benchmarks.md keeps the figures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import pg from "pg";
import { openDb } from "../lib/db/index.ts";
import { moveDatabase } from "../lib/db/move.ts";
import { appTables, insertChunk } from "../lib/db/transfer.ts";
import { seedDemo } from "../lib/seed.ts";
import { generateTenant } from "../demo/tenant/index.ts";
import { loadTenant } from "../tests/integration/cx/store.ts";
import { PG_URL, dropSchema, testSeed } from "../tests/integration/support/backends.ts";

const { values: args } = parseArgs({ options: { scale: { type: "string", default: "10" } } });
const scale = Number(args.scale);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "move-bench-"));
const file = path.join(dir, "app.sqlite");
const schemas = [`b_${randomBytes(6).toString("hex")}`, `b_${randomBytes(6).toString("hex")}`];
try {
  const t0 = performance.now();
  const source = await openDb({ kind: "sqlite", file });
  await seedDemo(source.db, testSeed(scale));
  await loadTenant(source.db, generateTenant({ scale }), { wired: false });
  await source.close();
  console.log(`seeded scale ${scale} into SQLite in ${Math.round(performance.now() - t0)} ms`);

  const move = await moveDatabase({ from: { kind: "sqlite", file }, to: { kind: "postgres", url: PG_URL, schema: schemas[0] } });
  if (!move.ok) throw new Error("the move did not verify");

  // The baseline: the same schema, made by the same migrations, filled without pages, marks or digests.
  const target = await openDb({ kind: "postgres", url: PG_URL, schema: schemas[1] });
  await target.close();
  const sqlite = new SQLite(file, { readonly: true });
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schemas[1]}` });
  await client.connect();
  const b0 = performance.now();
  let plainRows = 0;
  for (const { name } of appTables) {
    const rows = sqlite.prepare(`select * from "${name}"`).all();
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]);
    const chunk = insertChunk(columns.length);
    await client.query("begin");
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      const params = [];
      const tuples = part.map((row) => `(${columns.map((c) => (params.push(row[c]), `$${params.length}`)).join(",")})`);
      await client.query(`insert into "${name}" (${columns.map((c) => `"${c}"`).join(",")}) values ${tuples.join(",")}`, params);
    }
    await client.query("commit");
    plainRows += rows.length;
  }
  const plainMs = performance.now() - b0;
  await client.end();
  sqlite.close();

  const rate = (rows, ms) => Math.round(rows / (ms / 1000));
  const rows = move.rows;
  if (rows !== plainRows) throw new Error(`the two copies disagree on the rows: ${rows} and ${plainRows}`);
  const biggest = move.tables.filter((t) => t.rows > 0).sort((a, b) => b.rows - a.rows).slice(0, 4).map((t) => `${t.table} ${t.rows}`).join(", ");
  console.log(`${rows} rows (${biggest}, …) SQLite → PostgreSQL`);
  console.log(`db:move, copying:            ${(move.copyMs / 1000).toFixed(2)} s  ${rate(rows, move.copyMs)} rows/s`);
  console.log(`db:move, with verification:  ${(move.ms / 1000).toFixed(2)} s  ${rate(rows, move.ms)} rows/s`);
  console.log(`plain bulk copy:             ${(plainMs / 1000).toFixed(2)} s  ${rate(rows, plainMs)} rows/s`);
  console.log(`ratio (move copying / plain): ${(plainMs / move.copyMs).toFixed(2)}; whole move / plain: ${(plainMs / move.ms).toFixed(2)}`);
} finally {
  for (const s of schemas) await dropSchema(s);
  fs.rmSync(dir, { recursive: true, force: true });
}
