import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { draftRevisions, draftView, type DraftCreated } from "@/lib/contract/playground";
import type { DraftWarning } from "@/lib/contract/resources";
import { PEER_HEADER } from "@/lib/http/peer-stamp";
import { READ_BYTES_BURST, READS_IN_FLIGHT_PER_ADDRESS } from "@/lib/limits/buckets";
import { draftReads } from "@/lib/drafts/drafts";
import { backends } from "../support/backends";
import { DRAFT, create, onApp, openStream, postJson, startApp, type App } from "./support";

// Anonymous reads of the playground: what they cost and who they can lock out. Reads serve the
// findings stored with each revision (the check never runs on a read), revisions come in pages
// bounded in count and bytes, reads are rate limited per client address, the stream cap counts
// per address and tells a refused watcher nothing, and the URLs handed out never carry a Host
// the server does not believe.

const checks = vi.hoisted(() => ({ calls: 0, override: null as null | ((html: string) => DraftWarning[]) }));

vi.mock("@/lib/check", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/check")>();
  return {
    ...real,
    analyseDraft: (html: string) => {
      checks.calls++;
      const analysed = real.analyseDraft(html);
      return checks.override ? { ...analysed, warnings: checks.override(html) } : analysed;
    },
  };
});

const fakeWarning = (message: string): DraftWarning => ({ rule: "fake-rule", severity: "warning", message, line: 1, column: 1, hint: "none" });

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One HTTP request with full control of Host and the client's source address. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

const json = (r: Raw) => JSON.parse(r.text) as Record<string, unknown>;

describe.each(backends)("anonymous draft reads on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  let app: App;
  const lenient = { createsPerMinute: 10_000, updatesPerMinute: 10_000, readsPerMinute: 10_000, demoReadsPerMinute: 10_000 };

  beforeAll(async () => {
    open = await backend.open();
    app = await startApp(open, { settings: lenient });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });
  beforeEach(() => {
    checks.calls = 0;
    checks.override = null;
  });

  it("runs the static check once per revision, never on a read, and serves the stored findings", async () => {
    checks.override = () => [fakeWarning("stored at creation")];
    const created = await create(app, { html: "<p>one</p>" });
    expect(created.warnings).toEqual([fakeWarning("stored at creation")]);
    expect(checks.calls).toBe(1);

    // The check would now say something else: reads still answer what was stored.
    checks.override = () => [fakeWarning("a read ran the check")];
    for (let i = 0; i < 5; i++) {
      const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
      expect(view.warnings).toEqual([fakeWarning("stored at creation")]);
    }
    expect((await fetch(`${app.url}${DRAFT}/${created.id}/revisions`)).status).toBe(200);
    const s = await openStream(onApp(app, created.eventsUrl));
    await s.next();
    s.kill();
    expect(checks.calls).toBe(1);

    // An update checks its own revision, once, and reads then serve that.
    checks.override = () => [fakeWarning("stored at revision 2")];
    const up = await postJson(created.postUrl, { html: "<p>two</p>" });
    expect(((await up.json()) as { warnings: DraftWarning[] }).warnings).toEqual([fakeWarning("stored at revision 2")]);
    expect(checks.calls).toBe(2);
    checks.override = () => [fakeWarning("a read ran the check")];
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view.warnings).toEqual([fakeWarning("stored at revision 2")]);
    expect(checks.calls).toBe(2);
  });

  it("keeps the check's path reads with each revision, for the draft store's callers", async () => {
    const created = await create(app, { html: `<script>const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/crm/users/contacts").then((r) => r.ok && r.json());</script>` });
    expect(await draftReads(app.playground.context, created.id)).toEqual({ paths: ["/crm/users/contacts"], complete: true });
    await expect(draftReads(app.playground.context, "D".repeat(22))).rejects.toMatchObject({ code: "no_such_draft" });
  });

  it("checks a revision stored before findings were kept once, on its first read", async () => {
    checks.override = () => [fakeWarning("computed late")];
    const created = await create(app, { html: "<p>old</p>" });
    // As a revision written before migration 0006 is: no stored findings.
    await open.db.updateTable("playground_draft_revisions").set({ check_json: null }).where("draft_id", "=", created.id).execute();
    checks.calls = 0;
    const reads = await Promise.all(Array.from({ length: 4 }, () => fetch(`${app.url}${DRAFT}/${created.id}`)));
    for (const r of reads) expect(draftView.parse(await r.json()).warnings).toEqual([fakeWarning("computed late")]);
    expect(checks.calls).toBe(1);
    const row = await open.db
      .selectFrom("playground_draft_revisions")
      .select("check_json")
      .where("draft_id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.check_json ?? "null")).toMatchObject({ warnings: [fakeWarning("computed late")], reads: { paths: [], complete: true } });
    checks.override = () => [fakeWarning("a read ran the check")];
    expect(draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json()).warnings).toEqual([fakeWarning("computed late")]);
    expect(checks.calls).toBe(1);
  });

  async function withRevisions(n: number, html: (i: number) => string, target = app): Promise<DraftCreated> {
    const created = await create(target, { html: html(1) });
    for (let i = 2; i <= n; i++) expect((await postJson(created.postUrl, { html: html(i) })).status).toBe(200);
    return created;
  }

  async function page(id: string, query = "", target = app) {
    const res = await fetch(`${target.url}${DRAFT}/${id}/revisions${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return { bytes: Number(res.headers.get("content-length") ?? 0) || (await res.clone().arrayBuffer()).byteLength, body: draftRevisions.strict().parse(await res.json()) };
  }

  it("pages the revisions: 10 by default, up to 50, newest first, following nextCursor to the end", async () => {
    const created = await withRevisions(13, (i) => `<p>${i}</p>`);
    const first = await page(created.id);
    expect(first.body.revisions.map((r) => r.revision)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await page(created.id, `?cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(second.body.revisions.map((r) => [r.revision, r.html])).toEqual([3, 2, 1].map((n) => [n, `<p>${n}</p>`]));
    expect(second.body.nextCursor).toBeNull();

    const all = await page(created.id, "?limit=50");
    expect(all.body.revisions).toHaveLength(13);
    expect(all.body.nextCursor).toBeNull();

    // Small pages, with a revision added while paging: nothing lost, nothing twice.
    const seen: number[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const p = await page(created.id, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...p.body.revisions.map((r) => r.revision));
      cursor = p.body.nextCursor;
      if (round++ === 0) await postJson(created.postUrl, { html: "<p>14</p>" });
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 13 }, (_, i) => 13 - i));
  });

  it("refuses a bad limit or cursor with 400 and a hint", async () => {
    const a = await withRevisions(3, (i) => `<p>${i}</p>`);
    const b = await withRevisions(3, (i) => `<p>${i}</p>`);
    const bCursor = (await page(b.id, "?limit=1")).body.nextCursor!;
    const aCursor = (await page(a.id, "?limit=1")).body.nextCursor!;
    const cases: [query: string, error: string, hint: RegExp][] = [
      ["?limit=0", "invalid_query", /limit.*1 to 50/],
      ["?limit=51", "invalid_query", /limit.*1 to 50/],
      ["?limit=abc", "invalid_query", /^limit: must be an integer from 1 to 50 \(e\.g\. \?limit=20\)/],
      ["?limit=1.5", "invalid_query", /limit/],
      ["?limit=", "invalid_query", /limit/],
      ["?limit=1&limit=2", "invalid_query", /limit.*once/],
      ["?colour=red", "invalid_query", /colour/],
      ["?cursor=", "invalid_cursor", /nextCursor/],
      ["?cursor=garbage", "invalid_cursor", /nextCursor/],
      [`?cursor=${encodeURIComponent(`${aCursor.slice(0, -1)}${aCursor.endsWith("A") ? "B" : "A"}`)}`, "invalid_cursor", /nextCursor/],
      // A cursor issued for another draft is not one for this draft.
      [`?cursor=${encodeURIComponent(bCursor)}`, "invalid_cursor", /nextCursor/],
    ];
    for (const [query, error, hint] of cases) {
      const res = await fetch(`${app.url}${DRAFT}/${a.id}/revisions${query}`);
      const body = (await res.json()) as { error: string; hint?: string };
      expect({ query, status: res.status, error: body.error }).toEqual({ query, status: 400, error });
      expect(body.hint, query).toMatch(hint);
      expect(Object.keys(body).sort()).toEqual(["error", "hint"]);
    }
  });

  it("bounds a page of revisions in bytes, with at least one revision per page", async () => {
    const small = await startApp(open, { settings: { ...lenient, revisionsPageBytes: 3000 } });
    try {
      // Each revision is about 1 KB of JSON: two fit in 3000 bytes, a third does not.
      const light = await withRevisions(5, (i) => `${"x".repeat(1000)}${i}`, small);
      const p1 = await page(light.id, "?limit=50", small);
      expect(p1.body.revisions.map((r) => r.revision)).toEqual([5, 4]);
      expect(p1.bytes).toBeLessThanOrEqual(3000 + 200);
      // Each is 6 KB of JSON (control characters are escaped): one per page, never none.
      const heavy = await withRevisions(3, (i) => `${"\u0001".repeat(1000)}${i}`, small);
      const revisions: number[] = [];
      let cursor: string | null = null;
      do {
        const p = await page(heavy.id, `?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, small);
        expect(p.body.revisions).toHaveLength(1);
        revisions.push(p.body.revisions[0]!.revision);
        cursor = p.body.nextCursor;
      } while (cursor);
      expect(revisions).toEqual([3, 2, 1]);
    } finally {
      await small.close();
    }
  });

  it("answers 2 MiB revisions of control characters a page at a time, not all at once", async () => {
    const big = (i: number) => `${"\u0001".repeat(2 * 1024 * 1024 - 1)}${i}`;
    const created = await withRevisions(3, big);
    const first = await page(created.id, "?limit=50");
    // One such revision is 12 MiB of JSON; the three together would be 36 MiB.
    expect(first.body.revisions.map((r) => r.revision)).toEqual([3]);
    expect(first.bytes).toBeLessThan(13 * 1024 * 1024);
    expect(first.body.nextCursor).not.toBeNull();
  });
});

describe.each(backends)("anonymous read limits on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  beforeAll(async () => {
    open = await backend.open();
  });
  afterAll(async () => {
    await open.close();
  });

  it("limits reads per client address with 429, Retry-After and a hint; other addresses still read", async () => {
    const app = await startApp(open, { settings: { readsPerMinute: 4, demoReadsPerMinute: 3 } });
    try {
      const created = await create(app);
      const read = `${app.url}${DRAFT}/${created.id}`;
      expect((await raw(read)).status).toBe(200);
      expect((await raw(`${read}/revisions`)).status).toBe(200);
      expect((await raw(read)).status).toBe(200);
      const s = await openStream(`${read}/events`);
      expect(s.status).toBe(200);
      s.kill();
      for (const url of [read, `${read}/revisions`, `${read}/events`]) {
        const refused = await raw(url);
        expect(refused.status, url).toBe(429);
        expect(refused.headers["content-type"]).toContain("application/json");
        expect(refused.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
        expect(json(refused)).toEqual({ error: "rate_limited", hint: expect.stringMatching(/retry/i) });
      }
      // Not a client's choice: X-Forwarded-For from an untrusted peer is ignored.
      expect((await raw(read, { headers: { "x-forwarded-for": "198.51.100.9" } })).status).toBe(429);
      // Another address is not affected.
      expect((await raw(read, { localAddress: "127.0.0.2" })).status).toBe(200);

      // The demo API has its own, larger allowance.
      const demo = `${app.url}/dashboards/playground/api/me`;
      for (let i = 0; i < 3; i++) expect((await raw(demo)).status).toBe(200);
      const refused = await raw(demo);
      expect(refused.status).toBe(429);
      expect(refused.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
      expect(json(refused)).toEqual({ error: "rate_limited", hint: expect.any(String) });
      expect((await raw(demo, { localAddress: "127.0.0.2" })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("writes a few large answers to one address at once, and refuses the rest with 429 until they are sent", async () => {
    const app = await startApp(open, { settings: { readsPerMinute: 10_000 } });
    try {
      const created = await create(app, { html: `<!doctype html><p>${"x".repeat(512 * 1024)}</p>` });
      // The route handler as the server calls it, with the peer address the server stamps.
      const ask = (address: string) =>
        app.routes.draft.GET(new Request(`${app.url}${DRAFT}/${created.id}`, { headers: { [PEER_HEADER]: address } }), { params: { token: created.id } });
      // Answers whose readers have not taken their bytes yet.
      const held = await Promise.all(Array.from({ length: READS_IN_FLIGHT_PER_ADDRESS }, () => ask("192.0.2.1")));
      for (const r of held) expect(r.status).toBe(200);
      const refused = await ask("192.0.2.1");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toEqual({ error: "rate_limited", hint: expect.stringMatching(/at once/) });
      // Another address is not held up by this one.
      const other = await ask("192.0.2.2");
      expect(other.status).toBe(200);
      await other.arrayBuffer();
      // Once one answer is fully sent, or its reader goes away, the address may read again.
      expect(draftView.parse(await held[0]!.json()).id).toBe(created.id);
      const next = await ask("192.0.2.1");
      expect(next.status).toBe(200);
      await held[1]!.body?.cancel();
      const after = await ask("192.0.2.1");
      expect(after.status).toBe(200);
      for (const r of [next, after, ...held.slice(2)]) await r.arrayBuffer();
    } finally {
      await app.close();
    }
  });

  it("sends large answers no faster than the instance's byte budget, whichever addresses ask", async () => {
    const app = await startApp(open, { settings: { readsPerMinute: 10_000 } });
    try {
      const created = await create(app, { html: `<!doctype html><p>${"x".repeat(2 * 1024 * 1024 - 64)}</p>` });
      const statuses: number[] = [];
      // Each read from an address of its own, and each answer taken whole before the next.
      for (let i = 0; i < Math.ceil(READ_BYTES_BURST / (2 * 1024 * 1024)) + 2; i++) {
        const r = await app.routes.draft.GET(new Request(`${app.url}${DRAFT}/${created.id}`, { headers: { [PEER_HEADER]: `198.51.100.${i + 1}` } }), { params: { token: created.id } });
        statuses.push(r.status);
        if (r.status === 429) {
          expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(await r.json()).toEqual({ error: "rate_limited", hint: expect.stringMatching(/retry in \d+ s/) });
        } else await r.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(READ_BYTES_BURST / (2 * 1024 * 1024) - 1);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await app.close();
    }
  });

  it("counts the stream cap per address: one client cannot lock others out, nor learn how many watch", async () => {
    const app = await startApp(open, { settings: { streamsPerDraft: 2, streamsPerAddress: 3, streamsTotal: 6, readsPerMinute: 10_000 } });
    const opened: Awaited<ReturnType<typeof openStream>>[] = [];
    try {
      const a = await create(app);
      const b = await create(app);
      const from = async (address: string, url: string) => {
        const s = await openStream(onApp(app, url), {}, { localAddress: address });
        if (s.status === 200) opened.push(s);
        return s;
      };
      expect((await from("127.0.0.1", a.eventsUrl)).status).toBe(200);
      expect((await from("127.0.0.1", a.eventsUrl)).status).toBe(200);
      const refusedAt2 = await from("127.0.0.1", a.eventsUrl);
      expect(refusedAt2.status).toBe(429);
      expect(refusedAt2.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
      const bodyAt2 = await refusedAt2.text();
      expect(JSON.parse(bodyAt2)).toEqual({ error: "rate_limited", hint: expect.any(String) });

      // Others still get in, up to their own caps.
      expect((await from("127.0.0.2", a.eventsUrl)).status).toBe(200);
      expect((await from("127.0.0.3", a.eventsUrl)).status).toBe(200);
      expect(app.playground.hub.subscriberCount(a.id)).toBe(4);

      // The refusal reads the same whatever the number of watchers, and whichever cap it was.
      const refusedAt4 = await from("127.0.0.1", a.eventsUrl);
      expect(refusedAt4.status).toBe(429);
      expect(await refusedAt4.text()).toBe(bodyAt2);
      expect((await from("127.0.0.1", b.eventsUrl)).status).toBe(200);
      const overAddress = await from("127.0.0.1", b.eventsUrl);
      expect(overAddress.status).toBe(429);
      expect(await overAddress.text()).toBe(bodyAt2);

      // The instance's own cap (6) is above one address's (3): reachable only by several.
      expect((await from("127.0.0.2", b.eventsUrl)).status).toBe(200);
      const full = await from("127.0.0.4", b.eventsUrl);
      expect(full.status).toBe(429);
      expect(await full.text()).toBe(bodyAt2);
    } finally {
      for (const s of opened) s.kill();
      await app.close();
    }
  });

  it("refuses a cap that one address could reach alone", async () => {
    await expect(startApp(open, { settings: { streamsPerAddress: 10, streamsTotal: 10 } })).rejects.toThrow(/streamsTotal/);
  });
});

describe.each(backends)("origins handed out on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  beforeAll(async () => {
    open = await backend.open();
  });
  afterAll(async () => {
    await open.close();
  });

  const draftBody = JSON.stringify({ html: "<p>host</p>" });
  const post = (app: App, path: string, host: string) =>
    raw(`${app.url}${path}`, { method: "POST", headers: { host, "content-type": "application/json" }, body: draftBody });

  it("without PUBLIC_ORIGIN believes only loopback hosts and refuses any other Host with 400", async () => {
    const app = await startApp(open, { settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
    try {
      const before = await open.db.selectFrom("playground_drafts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      for (const host of ["evil.example", "evil.example:80", `evil.example:${new URL(app.url).port}`, "127.0.0.1.evil.example", "localhost.evil.example", "[::2]:80", "10.0.0.1"]) {
        const refused = await post(app, DRAFT, host);
        expect({ host, status: refused.status }).toEqual({ host, status: 400 });
        expect(json(refused)).toEqual({ error: "untrusted_host", hint: expect.stringMatching(/PUBLIC_ORIGIN/) });
        expect(refused.text).not.toContain("evil");
      }
      const after = await open.db.selectFrom("playground_drafts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));

      for (const host of ["localhost:4567", "localhost", "127.0.0.1:3000", "127.8.9.10:1", "[::1]:3000", "[::1]", new URL(app.url).host]) {
        const ok = await post(app, DRAFT, host);
        expect({ host, status: ok.status }).toEqual({ host, status: 201 });
        const body = json(ok) as { postUrl: string; watchUrl: string; eventsUrl: string };
        for (const url of [body.postUrl, body.watchUrl, body.eventsUrl]) expect(url.startsWith(`http://${host}/`), url).toBe(true);
      }

      // An update with a forged Host is refused too, and changes nothing.
      const created = await create(app);
      const path = new URL(created.postUrl).pathname;
      const refused = await post(app, path, "evil.example");
      expect(refused.status).toBe(400);
      expect(json(refused)).toMatchObject({ error: "untrusted_host" });
      expect(draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json()).revision).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("with PUBLIC_ORIGIN hands out that origin, whatever Host says", async () => {
    const app = await startApp(open, { publicOrigin: "https://dash.example.test", settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
    try {
      for (const host of ["evil.example", "127.0.0.1:3000"]) {
        const res = await post(app, DRAFT, host);
        expect(res.status).toBe(201);
        const body = json(res) as { id: string; postUrl: string; watchUrl: string; eventsUrl: string };
        expect(body.postUrl).toMatch(/^https:\/\/dash\.example\.test\/dashboards\/playground\/draft\/[A-Za-z0-9_-]{43}$/);
        expect(body.watchUrl).toBe(`https://dash.example.test/dashboards/playground/watch/${body.id}`);
        expect(body.eventsUrl).toBe(`https://dash.example.test/dashboards/playground/draft/${body.id}/events`);
      }
    } finally {
      await app.close();
    }
  });
});
