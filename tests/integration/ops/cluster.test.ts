import http from "node:http";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_HEADER, csrfTokenFor } from "@/lib/auth/csrf";
import { createSealer } from "@/lib/crypto/secrets";
import { EventStreamParser } from "@/lib/live/sse";
import { PG_URL, dropSchema } from "../support/backends";
import { ensureBuilt, serverProcessUnder } from "../support/production";
// @ts-expect-error -- a plain ES module script, without types
import { startCluster } from "../../../scripts/cluster.mjs";

// The multi-instance deployment of docs/operations.md, started by `npm run cluster`'s own code:
// nginx in front of two production servers on one PostgreSQL schema. Watchers connect through
// the proxy, updates are made through either instance, and one instance is killed (-9) in the
// middle: its watchers reconnect through the proxy to the survivor with Last-Event-ID, and every
// watcher sees every revision exactly once, in order.

interface Node {
  url: string;
  process: import("node:child_process").ChildProcess;
  exited: Promise<unknown>;
}
interface Cluster {
  url: string;
  instances: Node[];
  stop(): Promise<void>;
}

const WATCHERS = 200;
const UPDATES = 60;
const KILL_AT = 31;
const DRAFT = "/dashboards/playground/draft";
// Every instance opens what another sealed (sessions, CSRF tokens) with the deployment's one key.
const SECRET_KEY = randomBytes(32).toString("base64url");

/** A watcher that behaves as EventSource does: it reconnects after `retry` with Last-Event-ID. */
class Watcher {
  readonly revisions: number[] = [];
  reconnects = 0;
  private last: string | null = null;
  private retry = 2_000;
  private request: http.ClientRequest | null = null;
  private closed = false;

  constructor(private readonly url: string) {
    this.connect();
  }

  newest(): number {
    return this.revisions.at(-1) ?? 0;
  }

  private connect(): void {
    const parser = new EventStreamParser((m) => {
      if (m.type !== "draft") return;
      this.last = m.lastEventId;
      this.revisions.push(Number(m.lastEventId));
    });
    const headers: Record<string, string> = this.last === null ? {} : { "last-event-id": this.last };
    let again = false;
    const reconnect = () => {
      if (again || this.closed) return;
      again = true;
      if (parser.retry !== null) this.retry = parser.retry;
      this.reconnects++;
      setTimeout(() => this.connect(), this.retry);
    };
    this.request = http.get(this.url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.on("end", reconnect);
        return;
      }
      res.on("data", (c: Buffer) => parser.push(c));
      res.on("end", reconnect);
      res.on("close", reconnect);
      res.on("error", reconnect);
    });
    this.request.on("error", reconnect);
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
  }
}

async function everyoneHas(watchers: Watcher[], revision: number, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (watchers.some((w) => w.newest() < revision)) {
    if (Date.now() > end) {
      const behind = watchers.filter((w) => w.newest() < revision).length;
      throw new Error(`${behind} of ${watchers.length} watchers never received revision ${revision}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The production server's own process: the one under scripts/start.mjs. */
function serverProcessOf(node: Node): number {
  if (node.process.pid === undefined) throw new Error("the instance has no process");
  return serverProcessUnder(node.process.pid);
}

describe("two instances on one PostgreSQL behind nginx", () => {
  const schema = `t_cluster_${randomBytes(5).toString("hex")}`;
  let cluster: Cluster;

  beforeAll(async () => {
    await ensureBuilt();
    cluster = (await startCluster({
      instances: 2,
      databaseUrl: PG_URL,
      quiet: true,
      env: {
        DATABASE_SCHEMA: schema,
        SECRET_KEY,
        // The demo tenant, so people can sign in; the first instance seeds it before the second starts.
        DEMO_TENANT: "1",
        // Both instances sync the CRM portal at start and every 10 s (the shortest interval), so
        // their runs meet at the portal's lease.
        CRM_SYNC_ON_START: "1",
        CRM_SYNC_INTERVAL_MS: "10000",
        // Every watcher here comes from one address, through the proxy.
        PLAYGROUND_STREAMS_PER_DRAFT: "1000",
        PLAYGROUND_STREAMS_PER_ADDRESS: "1000",
        PLAYGROUND_READS_PER_MIN: "100000",
        PLAYGROUND_UPDATES_PER_MIN: "100000",
      },
    })) as Cluster;
  }, 900_000);
  afterAll(async () => {
    await cluster?.stop();
    await dropSchema(schema);
  });

  it("keeps a person signed in on one instance signed in on the other", async () => {
    const signIn = await fetch(`${cluster.url}/signin/demo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=member%40demo.test&next=%2F",
      redirect: "manual",
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(cookie).not.toBe("");
    for (const base of [...cluster.instances.map((n) => n.url), cluster.url, cluster.url]) {
      const me = await fetch(`${base}/api/me`, { headers: { cookie } });
      expect(me.status, base).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe("member@demo.test");
    }
  });

  it("stores a save made through one instance once, so the next save through the other is its second revision", async () => {
    const signIn = await fetch(`${cluster.url}/signin/demo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=csm%40demo.test&next=%2F",
      redirect: "manual",
    });
    expect(signIn.status).toBe(303);
    const session = signIn.headers
      .getSetCookie()
      .map((c) => /^dd_session=([^;]+)/.exec(c)?.[1])
      .find(Boolean);
    if (!session) throw new Error("no session cookie");
    // What the person's own page sends: cookie, Origin (the deployment's public one), fetch metadata and the CSRF token.
    const page = {
      cookie: `dd_session=${session}`,
      origin: cluster.url,
      "sec-fetch-site": "same-origin",
      [CSRF_HEADER]: csrfTokenFor(createSealer(SECRET_KEY), session),
      "content-type": "text/html",
    };
    const slug = `cluster-${randomBytes(4).toString("hex")}`;
    const [first, second] = cluster.instances;
    if (!first || !second) throw new Error("two instances expected");
    const one = await fetch(`${first.url}/~/csm/${slug}`, { method: "POST", headers: page, body: "<title>One</title><p>1</p>" });
    expect(one.status).toBe(201);
    const two = await fetch(`${second.url}/~/csm/${slug}`, { method: "POST", headers: page, body: "<title>Two</title><p>2</p>" });
    expect(two.status).toBe(200);
    expect(((await two.json()) as { revision: number }).revision).toBe(2);
    // Read back through either instance and the proxy: the same two revisions.
    for (const base of [first.url, second.url, cluster.url]) {
      const latest = await fetch(`${base}/~/csm/${slug}/source`, { headers: { cookie: page.cookie } });
      expect(await latest.text(), base).toBe("<title>Two</title><p>2</p>");
      const earlier = await fetch(`${base}/~/csm/${slug}/source?revision=1`, { headers: { cookie: page.cookie } });
      expect(await earlier.text(), base).toBe("<title>One</title><p>1</p>");
    }
  });

  it("syncs the CRM portal on one instance at a time: runs never overlap, and a lease held elsewhere makes both skip", { timeout: 120_000 }, async () => {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path=${schema}` });
    const syncRuns = async (base: string, outcome: string) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split("\n").find((l) => l.startsWith(`crm_sync_runs_total{instance="customers",outcome="${outcome}"} `));
      return line ? Number(line.split(" ").at(-1)) : 0;
    };
    try {
      // Each instance has taken part: it ran a sync, or found the other one running.
      for (const node of cluster.instances) {
        await expect.poll(async () => (await syncRuns(node.url, "ok")) + (await syncRuns(node.url, "skipped")), { timeout: 40_000 }).toBeGreaterThanOrEqual(1);
      }
      // A run that holds the lease elsewhere (a third instance, say): both instances' next runs skip, and none starts.
      const holdUntil = Date.now() + 30_000;
      await pool.query("insert into crm_sync_locks (instance, holder, expires_at) values ('customers', 'elsewhere', $1) on conflict (instance) do update set holder = 'elsewhere', expires_at = $1", [holdUntil]);
      const held = Date.now();
      const skippedBefore = await Promise.all(cluster.instances.map((n) => syncRuns(n.url, "skipped")));
      for (const [i, node] of cluster.instances.entries()) {
        await expect.poll(() => syncRuns(node.url, "skipped"), { timeout: 25_000 }).toBeGreaterThan(skippedBefore[i] ?? 0);
      }
      const startedWhileHeld = await pool.query("select count(*)::int as n from crm_sync_runs where instance = 'customers' and started_at >= $1", [held]);
      expect(startedWhileHeld.rows[0].n).toBe(0);
      await pool.query("delete from crm_sync_locks where instance = 'customers' and holder = 'elsewhere'");

      // Every run recorded, by whichever instance, ran alone.
      const runs = (await pool.query("select started_at::float8 as s, finished_at::float8 as f from crm_sync_runs where instance = 'customers' order by started_at")).rows as { s: number; f: number | null }[];
      expect(runs.length).toBeGreaterThanOrEqual(1);
      for (let i = 1; i < runs.length; i++) expect(runs[i]!.s, `run ${i} began before run ${i - 1} ended`).toBeGreaterThanOrEqual(runs[i - 1]!.f ?? Infinity);
      const ok = (await Promise.all(cluster.instances.map((n) => syncRuns(n.url, "ok")))).reduce((a, b) => a + b, 0);
      expect(runs.filter((r) => r.f !== null).length).toBeGreaterThanOrEqual(ok);
    } finally {
      await pool.end();
    }
  });

  it("keeps watchers receiving through either instance, and through the survivor after a kill -9, every revision once", { timeout: 180_000 }, async () => {
    const created = await fetch(`${cluster.url}${DRAFT}`, { method: "POST", headers: { "content-type": "text/html" }, body: "<p>1</p>" });
    expect(created.status).toBe(201);
    const { id, postUrl } = (await created.json()) as { id: string; postUrl: string };
    expect(postUrl.startsWith(cluster.url)).toBe(true);
    const writePath = new URL(postUrl).pathname;

    const watchers = Array.from({ length: WATCHERS }, () => new Watcher(`${cluster.url}${DRAFT}/${id}/events`));
    try {
      await everyoneHas(watchers, 1);
      const [a, b] = cluster.instances as [Node, Node];
      for (let revision = 2; revision <= UPDATES + 1; revision++) {
        // Alternately through each instance, then only through the survivor.
        const via = revision < KILL_AT && revision % 2 === 1 ? b : a;
        // Killed as an update is made through the survivor: b's watchers miss it, and get it only
        // by reconnecting through the proxy with Last-Event-ID.
        if (revision === KILL_AT) process.kill(serverProcessOf(b), "SIGKILL");
        const res = await fetch(`${via.url}${writePath}`, { method: "POST", headers: { "content-type": "text/html" }, body: `<p>${revision}</p>` });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { revision: number }).revision).toBe(revision);
        await everyoneHas(watchers, revision);
      }
    } finally {
      for (const w of watchers) w.close();
    }

    const every = Array.from({ length: UPDATES + 1 }, (_, i) => i + 1);
    const wrong = watchers.filter((w) => JSON.stringify(w.revisions) !== JSON.stringify(every));
    expect(wrong.map((w) => w.revisions.join(",")).slice(0, 3)).toEqual([]);
    // Round-robin put watchers on both instances; those on the killed one came back.
    const moved = watchers.filter((w) => w.reconnects > 0).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(WATCHERS);
    expect((await fetch(`${cluster.url}/readyz`)).status).toBe(200);
  });
});
