import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type OpenDb } from "@/lib/db";
import { migrationNames } from "@/lib/db/migrate";
import { endSession, loadUser, startSession, userForToken } from "@/lib/auth/session";
import { favouritesOf, homeOf, upsertUser, userIdByEmail } from "@/lib/auth/users";
import { seedDemo } from "@/lib/seed";
import { demoUsers } from "@/demo/users";
import { listSpace } from "@/lib/saved/store";
import { connectionStates, donorToken, hasCallsOptIn, saveUserToken, userToken } from "@/lib/connectors/store";
import { createSealer } from "@/lib/crypto/secrets";
import { backends, PG_URL, testSealer, testSeed } from "../support/backends";

describe.each(backends)("storage on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });

  it("migrates idempotently: opening the same storage again applies nothing new and keeps data", async () => {
    await upsertUser(h.db, { email: "keep@example.test", name: "Keep", groups: [] });
    const again: OpenDb = await openDb(h.storage);
    try {
      expect(await userIdByEmail(again.db, "keep@example.test")).not.toBeNull();
      const applied = await again.db.selectFrom("kysely_migration" as never).selectAll().execute();
      expect(applied.map((m) => (m as { name: string }).name)).toEqual(migrationNames);
    } finally {
      await again.close();
    }
  });

  it("upserts users by email, derives the handle, and replaces groups", async () => {
    const id = await upsertUser(h.db, { email: "Jo.Doe@Example.test", name: "Jo", groups: ["cx", "admin", "cx"] });
    let u = await loadUser(h.db, id);
    expect(u).toMatchObject({ email: "jo.doe@example.test", handle: "jo.doe", name: "Jo", groups: ["admin", "cx"] });
    expect(u?.permissions).toEqual(["calls.donor.manage", "crm.customers.read", "crm.users.read", "cx.read"]);

    const same = await upsertUser(h.db, { email: "jo.doe@example.test", name: "Jo Doe", groups: [] });
    expect(same).toBe(id);
    u = await loadUser(h.db, id);
    expect(u).toMatchObject({ name: "Jo Doe", groups: [], permissions: ["crm.customers.read"] });
  });

  it("treats a credential sealed under another key as not connected, not as a failure", async () => {
    const id = await upsertUser(h.db, { email: "rotated@example.test", name: "R", groups: [] });
    await saveUserToken(h.db, createSealer("an-old-deployment-key-".repeat(2)), id, "tracker", { accessToken: "lin_oauth_old" });
    expect(await userToken(h.db, testSealer, id, "tracker")).toBeNull();
  });

  it("gives a second person with the same local part a handle of their own", async () => {
    const a = await loadUser(h.db, await upsertUser(h.db, { email: "sam@one.test", name: "Sam One", groups: [] }));
    const b = await loadUser(h.db, await upsertUser(h.db, { email: "sam@two.test", name: "Sam Two", groups: [] }));
    const c = await loadUser(h.db, await upsertUser(h.db, { email: "SAM@three.test", name: "Sam Three", groups: [] }));
    expect([a?.handle, b?.handle, c?.handle]).toEqual(["sam", "sam-2", "sam-3"]);
  });

  it("keeps sessions hashed, expires them, and rotates the previous one at sign-in", async () => {
    const id = await upsertUser(h.db, { email: "s@example.test", name: "S", groups: [] });
    const t0 = 1_800_000_000_000;
    const first = await startSession(h.db, id, 60_000, undefined, t0);
    expect(first.token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url

    const stored = await h.db.selectFrom("sessions").select("token_hash").where("user_id", "=", id).execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(first.token);

    expect((await userForToken(h.db, first.token, t0 + 1))?.email).toBe("s@example.test");
    expect(await userForToken(h.db, first.token, t0 + 60_000)).toBeNull();
    expect(await userForToken(h.db, "not-a-token", t0)).toBeNull();

    const second = await startSession(h.db, id, 60_000, first.token, t0 + 10);
    expect(await userForToken(h.db, first.token, t0 + 20)).toBeNull();
    expect((await userForToken(h.db, second.token, t0 + 20))?.id).toBe(id);

    await endSession(h.db, second.token);
    expect(await userForToken(h.db, second.token, t0 + 30)).toBeNull();
  });

  it("answers favourites in render order and home as stored", async () => {
    const id = await upsertUser(h.db, { email: "f@example.test", name: "F", groups: [] });
    await h.db
      .insertInto("favourites")
      .values([
        { user_id: id, href: "/~f/b", label: "B", position: 2 },
        { user_id: id, href: "/~f/a", label: "A", position: 1 },
        { user_id: id, href: "/~f/c", label: "C", position: 3 },
      ])
      .execute();
    expect(await favouritesOf(h.db, id)).toEqual([
      { href: "/~f/a", label: "A" },
      { href: "/~f/b", label: "B" },
      { href: "/~f/c", label: "C" },
    ]);
    expect(await homeOf(h.db, id)).toBeNull();
    await h.db.updateTable("users").set({ home_path: "/~/f/ops" }).where("id", "=", id).execute();
    expect(await homeOf(h.db, id)).toBe("/~/f/ops");
  });

  it("seeds the demo users once, with their groups", async () => {
    expect(await seedDemo(h.db, testSeed())).toEqual({ seeded: true });
    expect(await seedDemo(h.db, testSeed())).toEqual({ seeded: false });
    for (const d of demoUsers) {
      const id = await userIdByEmail(h.db, d.email);
      expect(id, d.email).not.toBeNull();
      expect((await loadUser(h.db, id!))?.groups).toEqual([...d.groups].sort());
      expect([...(await connectionStates(h.db, id!)).keys()].sort(), d.email).toEqual([...d.connectors].sort());
      expect(await hasCallsOptIn(h.db, id!)).toBe(d.callsOptIn);
    }
    const csm = (await userIdByEmail(h.db, "csm@demo.test"))!;
    const stored = await h.db.selectFrom("connector_tokens").select("access_token").where("user_id", "=", csm).execute();
    const token = await userToken(h.db, testSealer, csm, "tracker");
    expect(token?.accessToken).toMatch(/^lin_oauth_/);
    expect(stored.map((r) => r.access_token).join(" ")).not.toContain(token!.accessToken);
    expect((await donorToken(h.db, testSealer, "calls"))?.account).toBe("admin@demo.test");
  });

  it("starts demo spaces with their example dashboards, and a reseed adds no revision", async () => {
    const csm = (await userIdByEmail(h.db, "csm@demo.test"))!;
    const before = await listSpace(h.db, csm, "csm");
    expect(before.map((d) => [d.path, d.title, d.revision])).toEqual([["/~/csm/my-book", "CX book", 1]]);
    await h.db.deleteFrom("meta").where("key", "=", "demo_seed").execute();
    expect(await seedDemo(h.db, testSeed())).toEqual({ seeded: true });
    expect(await listSpace(h.db, csm, "csm")).toEqual(before);
    expect(await listSpace(h.db, (await userIdByEmail(h.db, "member@demo.test"))!, "member")).toEqual([]);
  });
});

describe("migrations on a shared PostgreSQL server", () => {
  it("apply to a fresh schema while other schemas are created and dropped at the same moment", async () => {
    // Other deployments (and other test files) share the server; the migrator's catalogue query
    // sees their schemas and must not fail when one vanishes under it.
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const s = `churn_${randomBytes(4).toString("hex")}`;
        await pool.query(`create schema "${s}"; create table "${s}".t (id serial primary key, a int, b text)`);
        await pool.query(`drop schema "${s}" cascade`);
      }
    })();
    const backend = backends.find((b) => b.name === "postgres")!;
    try {
      for (let i = 0; i < 6; i++) {
        const opened = await backend.open();
        const applied = await opened.db.selectFrom("kysely_migration" as never).selectAll().execute();
        await opened.close();
        expect(applied).toHaveLength(migrationNames.length);
      }
    } finally {
      churning = false;
      await churn;
      await pool.end();
    }
  });
});
