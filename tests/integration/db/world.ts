import { expect } from "vitest";
import { endpoints, type EndpointDef } from "@/lib/contract/endpoints";
import { startSession, userForRequest } from "@/lib/auth/session";
import { favouritesOf, homeOf, upsertUser } from "@/lib/auth/users";
import { syncInstance } from "@/lib/crm/sync";
import type { OpenDb } from "@/lib/db";
import { apiHandlers } from "@/lib/api";
import { handleApi } from "@/lib/api/api-route";
import { storeRender } from "@/lib/drafts/render-store";
import { addFavourite, setHome } from "@/lib/saved/account";
import { listSpace, loadDashboard, revisionsOf, saveDashboard } from "@/lib/saved/store";
import { addTrust, trustedAuthors } from "@/lib/saved/trust";
import { openSnapshot, revokeSnapshot, snapshotsOf, storeSnapshot } from "@/lib/saved/snapshots";
import { seedDemo } from "@/lib/seed";
import { demoUsers } from "@/demo/users";
import { testSealer, testSeed } from "../support/backends";
import { parseConfig } from "@/lib/config";
import { createCredentials } from "@/lib/connectors/credentials";
import { newVendorReadCache } from "@/lib/connectors/vendor-cache";
import { newAnswerCache } from "@/lib/crm/memo";
import type { HandlerServices } from "@/lib/api/api-route";
import { startPortal } from "../crm/helpers";
import { DRAFT, create, onApp, postJson, startApp } from "../playground/support";

// A database with something in every table a person can fill, and every answer the app gives
// from it: what a move, a backup or an upgrade must keep exactly.

export type Who = "admin" | "csm" | "member";
export const people: Who[] = ["admin", "csm", "member"];

export interface World {
  /** Snapshots' tokens: csm's open ones and one revoked. */
  snapshots?: string[];
  /** Session cookies of the three demo people; sessions are rows, so they travel with the data. */
  tokens: Record<Who, string>;
  ids: Record<Who, number>;
  drafts: string[];
  dashboards: Array<{ who: Who; slug: string }>;
}

/** Drafts of a fixture written long ago must not have expired when it is read again. */
export const FIXTURE_IDLE_DAYS = 36_500;

const lenient = { createsPerMinute: 10_000, updatesPerMinute: 10_000, readsPerMinute: 10_000, reportsPerMinute: 10_000 };

const report = (revision: number, elapsedMs: number) => ({
  revision,
  page: "watch",
  settled: true,
  elapsedMs,
  errors: [{ kind: "error", message: "Uncaught TypeError: rows.map is not a function", line: 12, column: 7, count: 1 }],
  console: [{ message: "could not load the book", count: 2 }],
  refusals: [],
  requests: [{ method: "GET", path: "/me", status: 200, ms: 12 }],
  dropped: 0,
});

// A 1×1 PNG: blobs and bytea must cross engines byte for byte.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==", "base64");

/** The demo tenant, a CRM sync, drafts with revisions, reports and a render, saved dashboards, favourites, homes, trust, snapshots. */
export async function populate(open: OpenDb, now = Date.now()): Promise<World> {
  await seedDemo(open.db, testSeed());
  const portal = await startPortal();
  try {
    const synced = await syncInstance({ db: open.db, upstream: portal.upstream("customers"), instance: "customers", now: () => now - 3_600_000 });
    expect(synced.status).toBe("ok");
  } finally {
    await portal.close();
  }

  const tokens = {} as Record<Who, string>;
  const ids = {} as Record<Who, number>;
  for (const who of people) {
    const demo = demoUsers.find((u) => u.email === `${who}@demo.test`)!;
    ids[who] = await upsertUser(open.db, { email: demo.email, name: demo.name, groups: demo.groups });
    tokens[who] = (await startSession(open.db, ids[who], 86_400_000)).token;
  }

  const app = await startApp(open, { settings: lenient });
  const drafts: string[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const d = await create(app, { html: `<!doctype html><title>Draft ${i}</title><p>first</p><script>fetch("/api/me")</script>` });
      drafts.push(d.id);
      for (let r = 2; r <= 2 + i; r++) {
        const res = await postJson(onApp(app, d.postUrl), { html: `<!doctype html><title>Draft ${i}</title><p>revision ${r} ✓ “quoted”</p>` });
        expect(res.status).toBe(200);
      }
      const sent = await postJson(`${app.url}${DRAFT}/${d.id}/reports`, report(1 + i, 100 + i));
      expect(sent.status, await sent.clone().text()).toBe(201);
    }
  } finally {
    await app.close();
  }
  expect(await storeRender(open.db, { draftId: drafts[0]!, revision: 2, key: "desktop-rich", viewport: "desktop", scenario: "rich", examples: "{}", report: JSON.stringify({ errors: [] }), png: PNG, width: 1, height: 1, now })).toBe(true);

  const dashboards: World["dashboards"] = [];
  for (const who of ["admin", "csm"] as const) {
    for (const slug of ["pipeline", "renewals"]) {
      await saveDashboard(open.db, { ownerId: ids[who], handle: who, slug, html: `<!doctype html><title>${slug}</title><h1>${slug} 1</h1>`, now: now - 5_000 });
      await saveDashboard(open.db, { ownerId: ids[who], handle: who, slug, html: `<!doctype html><title>${slug}</title><h1>${slug} 2</h1>`, note: "Restored from revision 1", now: now - 4_000 });
      dashboards.push({ who, slug });
    }
  }
  await addFavourite(open.db, ids.csm, "/~/admin/pipeline", "Admin's pipeline");
  await addFavourite(open.db, ids.csm, "/~/csm/renewals", "Renewals");
  await addFavourite(open.db, ids.member, "/~/csm/pipeline", "Pipeline");
  await setHome(open.db, ids.csm, "/~/csm/renewals");
  await setHome(open.db, ids.admin, "/~/admin/pipeline");
  await addTrust(open.db, ids.member, "csm", now - 1_000);
  await addTrust(open.db, ids.csm, "admin", now - 1_000);
  const snapshot = (visibility: "private" | "link", png: Buffer | null, days: number) =>
    storeSnapshot(
      open.db,
      { ownerId: ids.csm, slug: "pipeline", revision: 2, title: "pipeline", viewport: "desktop", visibility, html: `<!doctype html><p>csm@demo.test’s ${visibility} “drawing”</p>`, height: 321, png, drawnAt: now - 3_000, expiresInDays: days },
      now - 2_000,
    );
  const snapshots = [(await snapshot("private", null, 7)).id, (await snapshot("link", PNG, 90)).id, (await snapshot("link", null, 7)).id];
  await revokeSnapshot(open.db, ids.csm, snapshots[2]!, now - 1_000);
  return { tokens, ids, drafts, dashboards, snapshots };
}

// The stand-ins' address is a closed port: whatever else listens on this machine's usual port
// must not change what a vendor read answers between the two sides of a comparison.
const config = parseConfig({ SECRET_KEY: "integration-test-key-".repeat(2), STAND_IN_ORIGIN: "http://127.0.0.1:9" });
const services = (): HandlerServices => ({
  config,
  sealer: testSealer,
  answers: newAnswerCache(),
  vendorReads: newVendorReadCache({ freshMs: 0, staleMs: 0 }),
  credentials: createCredentials({ config, sealer: () => testSealer }),
  crmUpstream: () => null,
});

/** Endpoints answered from storage; direct vendor reads go to the outside and are left out. */
const stored = (e: EndpointDef) => !/^\/(tracker|coderepo|calls|support)\b/.test(e.path) && !e.path.endsWith("/check");
const concrete = (e: EndpointDef) => e.path.replace(/:(\w+)/g, (_, name: string) => e.params?.[name]?.values?.[0] ?? "c-1");
const requiredQuery: Record<string, string> = { "cx.book": "?owner=o-1" };

/**
 * Every answer, keyed by what was asked: each /api endpoint for each demo person (the route's
 * own handler), each draft's read, revisions and reports (the playground's routes over HTTP),
 * and each person's space, dashboards, history, favourites, home and trusted authors.
 */
export async function answersOf(open: OpenDb, world: Pick<World, "tokens" | "ids" | "drafts" | "dashboards" | "snapshots">, draftIdleDays?: number): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const handlerServices = services();
  for (const e of endpoints.filter(stored)) {
    const path = concrete(e) + (requiredQuery[e.id] ?? "");
    for (const who of people) {
      const res = await handleApi(new Request(`http://app.test/api${path}`, { headers: { cookie: `dd_session=${world.tokens[who]}` } }), path.split("?")[0]!, {
        db: async () => open.db,
        services: () => handlerServices,
        userFor: userForRequest,
        handlers: apiHandlers,
      });
      out.set(`api ${who} ${path}`, { status: res.status, body: await res.json() });
    }
  }
  const app = await startApp(open, { settings: { ...lenient, ...(draftIdleDays ? { draftIdleDays } : {}) } });
  try {
    for (const id of world.drafts) {
      for (const suffix of ["", "/revisions", "/reports", "/reports?revision=1"]) {
        const res = await fetch(`${app.url}${DRAFT}/${id}${suffix}`, { headers: { accept: "application/json" } });
        out.set(`draft ${id}${suffix}`, { status: res.status, body: await res.text() });
      }
    }
  } finally {
    await app.close();
  }
  for (const who of people) {
    out.set(`space ${who}`, await listSpace(open.db, world.ids[who], who));
    out.set(`favourites ${who}`, await favouritesOf(open.db, world.ids[who]));
    out.set(`home ${who}`, await homeOf(open.db, world.ids[who]));
    // How each entry was made is newer than the fixture's release; upgrade.test.ts reads it apart.
    out.set(`trusted ${who}`, (await trustedAuthors(open.db, world.ids[who])).map(({ handle, name, since }) => ({ handle, name, since })));
  }
  for (const id of world.snapshots ?? []) {
    for (const who of [...people, null]) {
      const viewer = who ? await userForRequest(open.db, new Request("http://app.test/", { headers: { cookie: `dd_session=${world.tokens[who]}` } })) : null;
      out.set(`snapshot ${id} ${who ?? "signed out"}`, await openSnapshot(open.db, id, viewer));
    }
  }
  if (world.snapshots) out.set("snapshots csm", await snapshotsOf(open.db, world.ids.csm));
  for (const { who, slug } of world.dashboards) {
    out.set(`dashboard ${who}/${slug}`, await loadDashboard(open.db, who, slug));
    out.set(`dashboard ${who}/${slug}@1`, await loadDashboard(open.db, who, slug, 1));
    out.set(`history ${who}/${slug}`, await revisionsOf(open.db, world.ids[who], slug));
  }
  return out;
}

/** Answer by answer, so a difference names the request that changed. */
export function expectSameAnswers(after: Map<string, unknown>, before: Map<string, unknown>): void {
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [key, value] of before) expect(after.get(key), key).toEqual(value);
}
