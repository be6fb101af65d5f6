// npm run seed -- [--scale N]: seeds the demo tenant into the configured storage.
// The server seeds on first start by itself; this is for re-seeding at another scale.
// lib/ is `server-only`: run under the react-server condition (`tsx --conditions=react-server`,
// as the npm script does).
import { parseArgs } from "node:util";
import { createApp } from "@/lib/root";
import { config as processConfig } from "@/lib/config";
import { openDb } from "@/lib/db";
import { seedDemo } from "@/lib/seed";
import { generateTenant } from "@/demo/tenant";

const app = createApp(processConfig());
const config = () => app.config;
const { values } = parseArgs({ options: { scale: { type: "string" } } });
const scale = values.scale === undefined ? config().demo.scale : Number(values.scale);
if (!Number.isInteger(scale) || scale < 1 || scale > 100) {
  console.error("--scale must be an integer from 1 to 100");
  process.exit(2);
}

const t0 = performance.now();
const tenant = generateTenant({ scale });
const open = await openDb(config().storage);
try {
  const { seeded } = await seedDemo(open.db, { scale, sealer: app.sealer(), upstreams: config().upstreams, standInTokenTtlMs: config().standInTokenTtlMs });
  console.log(
    `${seeded ? "seeded" : "already seeded"}: demo tenant at scale ${scale} — ${tenant.companies.length} companies, ` +
      `${tenant.contacts.length} contacts, ${tenant.deals.length} deals, ${tenant.engagements.length} engagements ` +
      `(${Math.round(performance.now() - t0)} ms)`,
  );
} finally {
  await open.close();
}
