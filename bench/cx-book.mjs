// Times the CX views over the demo tenant loaded into storage, in process (no HTTP):
//
//   npx tsx --conditions=react-server bench/cx-book.mjs [--scale 10] [--runs 200] [--pg]
//
// Loads the tenant at the given scale into a temporary SQLite file (or a private PostgreSQL
// schema with --pg), then reports the median and p95 of /cx/book for the largest book, both
// bases, and of /cx/districts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { openDb } from "../lib/db/index.ts";
import { cxBook, cxDistricts } from "../lib/cx/index.ts";
import { generateTenant } from "../demo/tenant/index.ts";
import { addSyncRun, loadTenant } from "../tests/integration/cx/store.ts";
import { PG_URL, dropSchema } from "../tests/integration/support/backends.ts";

const { values: args } = parseArgs({
  options: { scale: { type: "string", default: "10" }, runs: { type: "string", default: "200" }, pg: { type: "boolean", default: false } },
});
const scale = Number(args.scale);
const runs = Number(args.runs);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cx-bench-"));
const schema = `b_${randomBytes(6).toString("hex")}`;
const opened = args.pg ? await openDb({ kind: "postgres", url: PG_URL, schema }) : await openDb({ kind: "sqlite", file: path.join(dir, "app.sqlite") });
try {
  const tenant = generateTenant({ scale });
  const t0 = performance.now();
  await loadTenant(opened.db, tenant, { wired: true });
  await addSyncRun(opened.db, "ok", 1, 1);
  console.log(`loaded scale ${scale} into ${opened.dialect} in ${Math.round(performance.now() - t0)} ms`);

  const sizes = new Map();
  for (const c of tenant.companies) if (c.parentCompanyId !== null && !c.archived) sizes.set(c.ownerId, (sizes.get(c.ownerId) ?? 0) + 1);
  const [owner, size] = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0];
  console.log(`largest book: ${owner} with ${size} schools; ${tenant.engagements.length} engagements, ${tenant.health.length} health points, ${tenant.usage.length} usage weeks`);

  const time = async (label, fn) => {
    for (let i = 0; i < 20; i++) await fn();
    const ms = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await fn();
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
    console.log(`${label.padEnd(28)} median ${q(0.5)} ms  p95 ${q(0.95)} ms`);
  };
  await time("cx.book real (largest)", () => cxBook(opened.db, { owner }, tenant.now));
  await time("cx.book activity (largest)", () => cxBook(opened.db, { owner, basis: "activity" }, tenant.now));
  await time("cx.districts", () => cxDistricts(opened.db, {}, tenant.now));
} finally {
  await opened.close();
  if (args.pg) await dropSchema(schema);
  fs.rmSync(dir, { recursive: true, force: true });
}
