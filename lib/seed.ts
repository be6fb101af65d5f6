import "server-only";
import { sql } from "kysely";
import type { Db } from "@/lib/db";
import { upsertUser } from "@/lib/auth/users";
import type { ConnectorSlug, UpstreamConfig } from "@/lib/config";
import type { Sealer } from "@/lib/crypto/secrets";
import { saveDonorToken, saveUserToken, setCallsOptIn, type TokenGrant } from "@/lib/connectors/store";
import { connectors } from "@/lib/connectors/registry";
import { loadHealth, loadUsage } from "@/lib/crm/sources-import";
import { generateTenant, referenceDateAt } from "@/demo/tenant";
import { demoUsers } from "@/demo/users";
import { dashboardExamples } from "@/demo/examples";
import { saveDashboard } from "@/lib/saved/store";

// Seeds the demo tenant into storage once. The marker row makes a restart (or a second
// instance) skip work already done; bump SEED_VERSION when the seeded data changes shape.

const SEED_VERSION = 4;

interface SeedOptions {
  scale: number;
  sealer: Sealer;
  /** Connections are seeded only for connectors served by their stand-in. */
  upstreams: Record<ConnectorSlug, UpstreamConfig>;
  /** The stand-ins' access-token lifetime override (STAND_IN_TOKEN_TTL_MS), so seeded tokens expire as theirs do. */
  standInTokenTtlMs?: number | null;
}

export async function seedDemo(db: Db, opts: SeedOptions): Promise<{ seeded: boolean }> {
  const marker = JSON.stringify({ version: SEED_VERSION, scale: opts.scale });
  const current = await db.selectFrom("meta").select("value").where("key", "=", "demo_seed").executeTakeFirst();
  if (current?.value === marker) return { seeded: false };

  // The same tenant the stand-ins serve today, so usage and health line up with the CRM portal's
  // records. (Stand-in tokens verify by their MAC alone; the date does not matter to them.)
  const tenant = generateTenant({ scale: opts.scale, referenceDate: referenceDateAt(Date.now()) });
  const viaStandIn = (slug: ConnectorSlug) => opts.upstreams[slug].mode === "stand-in";
  // Seeded connections are grants like the ones connecting gives: where the vendor expires
  // tokens, an access token with its expiry and a refresh token, which the app renews.
  const standIns = new Map<ConnectorSlug, ReturnType<(typeof connectors)[ConnectorSlug]["createStandIn"]>>();
  const mint = (slug: ConnectorSlug, email: string): TokenGrant => {
    let standIn = standIns.get(slug);
    if (!standIn) standIns.set(slug, (standIn = connectors[slug].createStandIn({ tenant, sealer: opts.sealer, tokenTtlMs: opts.standInTokenTtlMs ?? undefined })));
    const g = standIn.oauth.mintGrant(email);
    return { accessToken: g.access_token, refreshToken: g.refresh_token ?? null, expiresAt: g.expires_in !== undefined ? Date.now() + g.expires_in * 1000 : null };
  };

  for (const u of demoUsers) {
    const id = await upsertUser(db, { email: u.email, name: u.name, groups: u.groups });
    for (const slug of u.connectors) {
      if (viaStandIn(slug)) await saveUserToken(db, opts.sealer, id, slug, { ...mint(slug, u.email), scope: connectors[slug].scope, account: u.email });
    }
    await setCallsOptIn(db, id, u.callsOptIn);
    // Spaces start with real dashboards; a reseed never adds a revision to one already there.
    for (const [slug, exampleId] of Object.entries(u.space)) {
      const example = dashboardExamples.find((e) => e.id === exampleId);
      if (!example) throw new Error(`demo user ${u.email}: no example ${exampleId}`);
      const saved = await db.selectFrom("saved_dashboards").select("slug").where("owner_id", "=", id).where("slug", "=", slug).executeTakeFirst();
      if (saved) continue;
      const { handle } = await db.selectFrom("users").select("handle").where("id", "=", id).executeTakeFirstOrThrow();
      await saveDashboard(db, { ownerId: id, handle, slug, html: example.html, note: `From the ${example.label} example` });
    }
    if (u.groups.includes("admin") && viaStandIn("calls")) {
      await saveDonorToken(db, opts.sealer, "calls", { ...mint("calls", u.email), account: u.email }, id);
    }
  }

  // Product usage and health are sources of their own (normally `npm run import`); the demo
  // loads the tenant's.
  await loadUsage(db, tenant.usage);
  await loadHealth(db, tenant.health);

  await db
    .insertInto("meta")
    .values({ key: "demo_seed", value: marker })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: sql`excluded.value` }))
    .execute();
  return { seeded: true };
}
