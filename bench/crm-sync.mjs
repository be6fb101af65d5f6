// Times a first CRM sync of the demo tenant against the CRM portal's stand-in enforcing HubSpot's
// documented rate limits (four searches a second per token, 190 other requests per ten seconds),
// over loopback HTTP, through the production path (syncInstance with its own defaults: page
// size, pacing, patience), into a fresh SQLite file (or a private PostgreSQL schema with --pg):
//
//   npx tsx --conditions=react-server bench/crm-sync.mjs [--scale 50] [--pg] [--unpaced]
//
// The baseline is the least time the portal's search limit allows for the searches the sync
// needed (searches answered ÷ searches allowed a second); the ratio is the run's time over it.
// --unpaced tells the client a far higher search limit than the portal's, so the portal's 429s
// and the client's waits do the pacing instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { openDb } from "../lib/db/index.ts";
import { generateTenant } from "../demo/tenant/index.ts";
import { createSealer } from "../lib/crypto/secrets.ts";
import { serveOnLoopback } from "../lib/connectors/stand-in/node-server.ts";
import { createCrmportalStandIn, HUBSPOT_LIMITS, portalAuthorization, standInPortalToken } from "../lib/connectors/crmportal/index.ts";
import { crmInstances } from "../lib/connectors/crmportal/records.ts";
import { syncInstance } from "../lib/crm/sync.ts";
import { PG_URL, dropSchema } from "../tests/integration/support/backends.ts";

const { values: args } = parseArgs({
  options: { scale: { type: "string", default: "50" }, pg: { type: "boolean", default: false }, unpaced: { type: "boolean", default: false } },
});
const scale = Number(args.scale);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crm-sync-bench-"));
const schema = `b_${randomBytes(6).toString("hex")}`;
const opened = args.pg ? await openDb({ kind: "postgres", url: PG_URL, schema }) : await openDb({ kind: "sqlite", file: path.join(dir, "app.sqlite") });
const tenant = generateTenant({ scale });
const standIn = createCrmportalStandIn({ tenant, sealer: createSealer(randomBytes(32).toString("hex")) });
const served = await serveOnLoopback((req) => standIn.handle(req, new URL(req.url).pathname));
const rate = standIn.limits.configured.searchesPerSecond;

const rows = [];
try {
  console.log(
    `scale ${scale}, ${opened.dialect}; stand-in limits: ${rate} searches/s, ${standIn.limits.configured.requestsPerTenSeconds} other requests/10 s per token` +
      ` (HubSpot's documented: ${HUBSPOT_LIMITS.searchesPerSecond}/s, ${HUBSPOT_LIMITS.requestsPerTenSeconds}/10 s); client ${args.unpaced ? "told 1000 searches/s" : "paced to the documented limit"}`,
  );
  for (const instance of crmInstances) {
    const before = standIn.limits.usage();
    const upstream = {
      baseUrl: served.url,
      authorization: portalAuthorization(standInPortalToken(standIn, instance)),
      timeoutMs: 30_000,
      ...(args.unpaced ? { searchesPerSecond: 1_000 } : {}),
    };
    const t0 = performance.now();
    const result = await syncInstance({ db: opened.db, upstream, instance, log: (line) => console.log(`  ${line}`) });
    const seconds = (performance.now() - t0) / 1000;
    const after = standIn.limits.usage();
    const run = await opened.db.selectFrom("crm_sync_runs").selectAll().where("instance", "=", instance).orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
    const answered = after.searches - before.searches;
    const minimum = answered / rate;
    rows.push({
      instance,
      status: result.status,
      rows: result.rows,
      seconds,
      // A failed page fails the run: the run either has none or stops at its one.
      failedPages: result.status === "ok" ? 0 : 1,
      searches: Number(run.searches),
      answered,
      refused: after.refused.search - before.refused.search + after.refused.burst - before.refused.burst + after.refused.daily - before.refused.daily,
      waits: Number(run.limit_waits),
      waitedS: Number(run.limit_waited_ms) / 1000,
      pacedS: Number(run.paced_ms) / 1000,
      minimum,
      ratio: minimum > 0 ? seconds / minimum : NaN,
      error: result.error ?? "",
    });
  }

  const total = rows.reduce(
    (t, r) => ({
      ...t,
      rows: t.rows + r.rows,
      seconds: t.seconds + r.seconds,
      failedPages: t.failedPages + r.failedPages,
      searches: t.searches + r.searches,
      answered: t.answered + r.answered,
      refused: t.refused + r.refused,
      waits: t.waits + r.waits,
      waitedS: t.waitedS + r.waitedS,
      pacedS: t.pacedS + r.pacedS,
      minimum: t.minimum + r.minimum,
    }),
    { instance: "both", status: rows.every((r) => r.status === "ok") ? "ok" : "failed", rows: 0, seconds: 0, failedPages: 0, searches: 0, answered: 0, refused: 0, waits: 0, waitedS: 0, pacedS: 0, minimum: 0, error: "" },
  );
  total.ratio = total.seconds / total.minimum;

  console.log("\nminimum = searches answered ÷ searches allowed a second; ratio = duration ÷ minimum");
  console.log(
    ["instance", "status", "rows", "duration s", "failed pages", "searches sent", "429s", "waits", "waited s", "paced s", "minimum s", "ratio"].map((h) => h.padStart(14)).join(""),
  );
  for (const r of [...rows, total]) {
    console.log(
      [r.instance, r.status, r.rows, r.seconds.toFixed(1), r.failedPages, r.searches, r.refused, r.waits, r.waitedS.toFixed(1), r.pacedS.toFixed(1), r.minimum.toFixed(1), r.ratio.toFixed(3)]
        .map((v) => String(v).padStart(14))
        .join(""),
    );
    if (r.error) console.log(`  ${r.instance}: ${r.error}`);
  }
  if (total.failedPages > 0) process.exitCode = 1;
} finally {
  await served.close();
  await opened.close();
  if (args.pg) await dropSchema(schema);
  fs.rmSync(dir, { recursive: true, force: true });
}
