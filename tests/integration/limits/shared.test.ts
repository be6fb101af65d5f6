import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { openDb, type OpenDb } from "@/lib/db";
import { leaseSize, sharedLimiter, streamSlots } from "@/lib/limits/shared";
import { backends } from "../support/backends";
import { DRAFT, onApp, openStream, postJson, startApp, twoInstancesOnPostgres, until, type App } from "../playground/support";

// Limits that hold across instances: two app instances on one PostgreSQL schema (two pools, two
// playgrounds, as two servers behind a proxy) share one allowance; on the embedded SQLite default
// each process counts in memory and the shared table is never written.

const sqlite = backends.find((b) => b.name === "sqlite")!;

// Both instances sit behind the same (loopback) proxy, which names each test's client apart.
const settings = { createsPerMinute: 3, updatesPerMinute: 4, readsPerMinute: 5, trustedProxy: ["127.0.0.1"] };
const client = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });

describe("rate limits shared by instances on PostgreSQL", () => {
  const pair = twoInstancesOnPostgres(settings);

  it("counts creations through either instance against one limit", async () => {
    const statuses: number[] = [];
    for (const app of [pair.a, pair.b, pair.a, pair.b]) statuses.push((await postJson(`${app.url}${DRAFT}`, { html: "<p>x</p>" }, client(1))).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const refused = await postJson(`${pair.a.url}${DRAFT}`, { html: "<p>x</p>" }, client(1));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: "rate_limited" });
    // Another client still has its own allowance.
    expect((await postJson(`${pair.b.url}${DRAFT}`, { html: "<p>x</p>" }, client(2))).status).toBe(201);
  });

  it("counts a draft's updates through either instance against one limit", async () => {
    const created = (await (await postJson(`${pair.a.url}${DRAFT}`, { html: "<p>x</p>" }, client(3))).json()) as { postUrl: string };
    const statuses: number[] = [];
    for (const app of [pair.a, pair.b, pair.a, pair.b, pair.b]) statuses.push((await postJson(onApp(app, created.postUrl), { html: "<p>y</p>" })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it("counts reads and event streams through either instance against one limit", async () => {
    const { id } = (await (await postJson(`${pair.a.url}${DRAFT}`, { html: "<p>z</p>" }, client(4))).json()) as { id: string };
    const statuses: number[] = [];
    for (const [app, path] of [
      [pair.a, `${DRAFT}/${id}`],
      [pair.b, `${DRAFT}/${id}`],
      [pair.a, `${DRAFT}/${id}/revisions`],
      [pair.b, `${DRAFT}/${id}/revisions`],
      [pair.a, `${DRAFT}/${id}`],
      [pair.b, `${DRAFT}/${id}/events`],
    ] as const) {
      const res = await fetch(`${app.url}${path}`, { headers: client(5) });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("keeps one row per limit, key and window, and deletes finished windows", async () => {
    let t = Date.UTC(2030, 0, 1, 12, 0, 10);
    const one = sharedLimiter(pair.first.db, "test-window", 2, { now: () => t });
    const other = sharedLimiter(pair.second.db, "test-window", 2, { now: () => t });
    expect(await one.take("k")).toEqual({ ok: true });
    expect(await other.take("k")).toEqual({ ok: true });
    expect(await one.take("k")).toEqual({ ok: false, retryAfterSeconds: 50 });
    expect(await other.take("another key")).toEqual({ ok: true });
    const rows = await sql<{ key: string; n: number }>`select key, n from rate_limit_windows where bucket = 'test-window' order by key`.execute(pair.first.db);
    expect(rows.rows.map((r) => [r.key, Number(r.n)])).toEqual([
      ["another key", 1],
      ["k", 3],
    ]);
    // The next minute is a new window; the first request in it clears the finished ones.
    t += 60_000;
    expect(await one.take("k")).toEqual({ ok: true });
    const left = await sql<{ n: number }>`select n from rate_limit_windows where bucket = 'test-window'`.execute(pair.first.db);
    expect(left.rows.map((r) => Number(r.n))).toEqual([1]);
  });
});

/**
 * Two pools on the pair's schema that nothing else uses, so their statement counts are the
 * limiter's or the slots' alone (the pair's apps refresh their rows on timers of their own).
 */
function quietPools(pair: { first: { storage: Parameters<typeof openDb>[0] } }) {
  const pools = {} as { one: OpenDb; other: OpenDb };
  beforeAll(async () => {
    pools.one = await openDb(pair.first.storage, { migrate: false });
    pools.other = await openDb(pair.first.storage, { migrate: false });
  });
  afterAll(async () => {
    await pools.one?.close();
    await pools.other?.close();
  });
  return pools;
}

describe("leases of a shared limit on PostgreSQL", () => {
  const pair = twoInstancesOnPostgres(settings);
  const pools = quietPools(pair);
  const stored = async (bucket: string) =>
    Number((await sql<{ n: number }>`select coalesce(sum(n), 0) as n from rate_limit_windows where bucket = ${bucket}`.execute(pair.first.db)).rows[0]!.n);

  it("claims a key's requests in leases that double, so a client that keeps asking costs storage a statement per lease", async () => {
    const t = Date.UTC(2030, 0, 1, 12, 0, 1);
    const one = sharedLimiter(pools.one.db, "lease-spend", 512, { now: () => t });
    expect(leaseSize(512)).toBe(32);
    const before = pools.one.statements();
    for (let i = 0; i < 100; i++) expect(await one.take("k")).toEqual({ ok: true });
    // A hundred requests in eight claims (1, 2, 4, 8, 16, 32, 32, 32); the first also sweeps finished windows.
    expect(pools.one.statements() - before).toBe(9);
    expect(await stored("lease-spend")).toBe(127);
    // Requests arriving together wait for one claim rather than each making their own.
    const together = sharedLimiter(pools.one.db, "lease-together", 512, { now: () => t });
    const at = pools.one.statements();
    const taken = await Promise.all(Array.from({ length: 60 }, () => together.take("k")));
    expect(taken.every((x) => x.ok)).toBe(true);
    // Six claims (1 to 32) and this limiter's first sweep.
    expect(pools.one.statements() - at).toBe(7);
    expect(await stored("lease-together")).toBe(63);
  });

  it("never admits more than the limit across instances, and refuses the rest of a full window without asking storage", async () => {
    let t = Date.UTC(2030, 0, 1, 12, 1, 1);
    const one = sharedLimiter(pools.one.db, "lease-bound", 64, { now: () => t });
    const other = sharedLimiter(pools.other.db, "lease-bound", 64, { now: () => t });
    let admitted = 0;
    for (let i = 0; i < 200; i++) if ((await (i % 3 ? one : other).take("k")).ok) admitted++;
    expect(admitted).toBe(64);
    const statements = pools.one.statements() + pools.other.statements();
    for (let i = 0; i < 50; i++) expect((await (i % 2 ? one : other).take("k")).ok).toBe(false);
    expect(pools.one.statements() + pools.other.statements()).toBe(statements);
    // The next window starts a new allowance.
    t += 60_000;
    expect(await one.take("k")).toEqual({ ok: true });
  });

  it("gives a claim only what is left, so an instance holding a lease refuses no more than it holds", async () => {
    const t = Date.UTC(2030, 0, 1, 12, 2, 1);
    const one = sharedLimiter(pools.one.db, "lease-rest", 64, { now: () => t });
    const other = sharedLimiter(pools.other.db, "lease-rest", 64, { now: () => t });
    // `one` claims one, then two, and spends two of the three.
    for (let i = 0; i < 2; i++) expect((await one.take("k")).ok).toBe(true);
    let spent = 0;
    while ((await other.take("k")).ok) spent++;
    expect(spent).toBe(61);
    // `one` still holds the third, and then no more.
    expect((await one.take("k")).ok).toBe(true);
    expect((await one.take("k")).ok).toBe(false);
  });
});

describe("stream caps shared by instances on PostgreSQL", () => {
  const streams = { streamsPerDraft: 2, streamsPerAddress: 3, streamsTotal: 100, readsPerMinute: 10_000, trustedProxy: ["127.0.0.1"] };
  const pair = twoInstancesOnPostgres(streams);
  const pools = quietPools(pair);

  const openRows = async () => Number((await sql<{ n: number }>`select coalesce(sum(n), 0) as n from stream_slots where bucket = 'streams_address'`.execute(pair.first.db)).rows[0]!.n);

  it("caps one address's streams to a draft, and in all, across both instances", async () => {
    const one = (await (await postJson(`${pair.a.url}${DRAFT}`, { html: "<p>1</p>" }, client(30))).json()) as { id: string };
    const two = (await (await postJson(`${pair.a.url}${DRAFT}`, { html: "<p>2</p>" }, client(30))).json()) as { id: string };
    const events = (app: App, id: string) => `${app.url}${DRAFT}/${id}/events`;
    const watcher = client(31);
    const s1 = await openStream(events(pair.a, one.id), watcher);
    const s2 = await openStream(events(pair.b, one.id), watcher);
    expect([s1.status, s2.status]).toEqual([200, 200]);
    // A third to the same draft from the same address, on either instance: each holds only one.
    for (const app of [pair.a, pair.b]) {
      const refused = await openStream(events(app, one.id), watcher);
      expect(refused.status).toBe(429);
      expect(JSON.parse(await refused.text())).toMatchObject({ error: "rate_limited" });
    }
    // Another draft: the address's third stream is allowed, its fourth is not.
    const s3 = await openStream(events(pair.b, two.id), watcher);
    expect(s3.status).toBe(200);
    expect((await openStream(events(pair.a, two.id), watcher)).status).toBe(429);
    // Another address is not held back.
    const other = await openStream(events(pair.a, one.id), client(32));
    expect(other.status).toBe(200);

    // A closed stream gives its slot back, whichever instance held it.
    s2.kill();
    await until(async () => (await openRows()) === 3, "the slot given back");
    const again = await openStream(events(pair.a, one.id), watcher);
    expect(again.status).toBe(200);
    for (const s of [s1, s3, other, again]) s.kill();
    await until(async () => (await openRows()) === 0, "every slot given back");
  });

  it("counts a stream against every cap in one statement to open and one to close", async () => {
    const slots = streamSlots(pools.one, { instance: "one-statement", now: () => Date.UTC(2030, 0, 2) });
    const claims = [
      { bucket: "test-one-a", key: "k", cap: 2 },
      { bucket: "test-one-b", key: "k", cap: 1 },
    ];
    const before = pools.one.statements();
    const release = await slots.acquire(claims);
    expect(release).not.toBeNull();
    expect(pools.one.statements() - before).toBe(1);
    // Full on the second cap: refused, and what it claimed on the first is given back.
    expect(await slots.acquire(claims)).toBeNull();
    const rows = async () =>
      (await sql<{ bucket: string; n: number }>`select bucket, n from stream_slots where instance = 'one-statement' order by bucket`.execute(pools.other.db)).rows.map((r) => [r.bucket, Number(r.n)]);
    expect(await rows()).toEqual([
      ["test-one-a", 1],
      ["test-one-b", 1],
    ]);
    const beforeClose = pools.one.statements();
    release!();
    await until(async () => (await rows()).every(([, n]) => n === 0), "both slots given back");
    expect(pools.one.statements() - beforeClose).toBe(1);
    await slots.close();
  });

  it("stops counting an instance that no longer says it is alive", async () => {
    let t = Date.UTC(2030, 0, 1);
    const dead = streamSlots(pair.first, { instance: "dead", now: () => t, ttlMs: 30_000 });
    const live = streamSlots(pair.second, { instance: "live", now: () => t, ttlMs: 30_000 });
    const claim = [{ bucket: "test-slots", key: "k", cap: 1 }];
    expect(await dead.acquire(claim)).not.toBeNull();
    expect(await live.acquire(claim)).toBeNull();
    // The dead instance never refreshes its row: after the time to live it no longer counts.
    t += 30_001;
    expect(await live.acquire(claim)).not.toBeNull();
    await live.close();
    await dead.close();
  });
});

describe("rate limits on the embedded SQLite default", () => {
  it("are counted in memory by each process, never in the shared table", async () => {
    const open = await sqlite.open();
    const a = await startApp(open, { settings });
    const b = await startApp(open, { settings });
    try {
      const statuses: number[] = [];
      for (const app of [a, a, a, a, b]) statuses.push((await postJson(`${app.url}${DRAFT}`, { html: "<p>x</p>" })).status);
      expect(statuses).toEqual([201, 201, 201, 429, 201]);
      const rows = await sql<{ n: number }>`select count(*) as n from rate_limit_windows`.execute(open.db);
      expect(Number(rows.rows[0]!.n)).toBe(0);
    } finally {
      await a.close();
      await b.close();
      await open.close();
    }
  });
});
