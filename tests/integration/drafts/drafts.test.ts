import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/auth/tokens";
import { DRAFT_HTML_MAX_BYTES, draftRevisions, draftUpdated, draftView } from "@/lib/contract/playground";
import { listRevisionsBefore } from "@/lib/drafts/store";
import { backends } from "../support/backends";
import { DRAFT, create, onApp, openStream, postJson, startApp, type App } from "../playground/support";

// Drafts over real HTTP on both storage engines: the create → read → update cycle, every
// refusal with its code, capability separation, concurrency, history, limits and expiry.

const DAY = 86_400_000;

function tokenOf(postUrl: string): string {
  return new URL(postUrl).pathname.split("/").pop()!;
}

async function errorOf(res: Response): Promise<{ status: number; error: string; hint?: string }> {
  const body = (await res.json()) as { error: string; hint?: string };
  return { status: res.status, ...body };
}

describe.each(backends)("drafts on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  let app: App;

  beforeAll(async () => {
    open = await backend.open();
    app = await startApp(open, { settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  it("creates, reads and updates a draft through its capability URLs", async () => {
    const res = await postJson(`${app.url}${DRAFT}`, { html: "<h1>one</h1>", scenario: "outage", dash: "team-health" });
    expect(res.status).toBe(201);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const created = (await res.json()) as Record<string, unknown>;
    const id = String(created.id);
    const token = tokenOf(String(created.postUrl));
    expect(created).toMatchObject({
      revision: 1,
      postUrl: `${app.url}${DRAFT}/${token}`,
      watchUrl: `${app.url}/dashboards/playground/watch/${id}`,
      eventsUrl: `${app.url}${DRAFT}/${id}/events`,
    });
    expect(Array.isArray(created.warnings)).toBe(true);
    // Independent random values of at least 128 bits each.
    expect(id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(token.includes(id) || id.includes(token)).toBe(false);

    const read = await fetch(`${app.url}${DRAFT}/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get("referrer-policy")).toBe("no-referrer");
    const view = draftView.parse(await read.json());
    expect(view).toMatchObject({ id, revision: 1, html: "<h1>one</h1>", dataMode: "demo", scenario: "outage", dash: "team-health", examples: {} });

    const up = await postJson(String(created.postUrl), { html: "<h1>two</h1>", examples: { "/vendors/tracker/issues": "empty" } });
    expect(up.status).toBe(200);
    expect(up.headers.get("cache-control")).toContain("no-store");
    const updated = draftUpdated.parse(await up.json());
    expect(updated).toMatchObject({ id, revision: 2, watchUrl: created.watchUrl, eventsUrl: created.eventsUrl });

    const again = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${id}`)).json());
    // Fields an update leaves out keep their values.
    expect(again).toMatchObject({ revision: 2, html: "<h1>two</h1>", scenario: "outage", dash: "team-health", examples: { "/vendors/tracker/issues": "empty" } });
  });

  it("defaults a new draft to demo data and the default scenario", async () => {
    const created = await create(app, { html: "<p/>" });
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view).toMatchObject({ dataMode: "demo", scenario: "default", dash: null, examples: {} });
  });

  it("stores the write token only as its hash", async () => {
    const created = await create(app);
    const token = tokenOf(created.postUrl);
    const row = await open.db.selectFrom("playground_drafts").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.write_hash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("keeps read ids and write tokens apart, and answers unknown ones identically", async () => {
    const created = await create(app);
    const token = tokenOf(created.postUrl);

    const writeWithId = await postJson(`${app.url}${DRAFT}/${created.id}`, { html: "<p>hijack</p>" });
    const readWithToken = await fetch(`${app.url}${DRAFT}/${token}`);
    const streamWithToken = await fetch(`${app.url}${DRAFT}/${token}/events`);
    const unknownToken = await postJson(`${app.url}${DRAFT}/${"A".repeat(43)}`, { html: "<p/>" });
    const unknownId = await fetch(`${app.url}${DRAFT}/${"B".repeat(22)}`);
    const malformed = await fetch(`${app.url}${DRAFT}/not..an..id`);

    const bodies = await Promise.all([writeWithId, readWithToken, streamWithToken, unknownToken, unknownId, malformed].map((r) => r.text()));
    for (const [i, r] of [writeWithId, readWithToken, streamWithToken, unknownToken, unknownId, malformed].entries()) {
      expect(r.status, `answer ${i}`).toBe(404);
      expect(r.headers.get("referrer-policy")).toBe("no-referrer");
      expect(bodies[i]).toBe(bodies[0]);
    }
    expect(JSON.parse(bodies[0]!)).toMatchObject({ error: "no_such_draft" });
    // Nothing was written through the read id.
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view.revision).toBe(1);
  });

  it("answers each invalid draft with its code", async () => {
    const created = await create(app);
    for (const target of [`${app.url}${DRAFT}`, created.postUrl]) {
      const cases: [body: string, status: number, error: string, hint?: RegExp][] = [
        ["{not json", 400, "invalid_draft", /not JSON/],
        [JSON.stringify({ html: 5 }), 400, "invalid_draft", /^html/],
        // A creation needs html; an update needs something to change.
        [JSON.stringify({}), 400, "invalid_draft", target === created.postUrl ? /^Nothing to update: send at least one of html/ : /^html/],
        [JSON.stringify({ baseRevision: 1 }), 400, "invalid_draft", target === created.postUrl ? /^Nothing to update/ : /^html/],
        [JSON.stringify({ html: "  <!-- soon -->\n" }), 400, "invalid_draft", /^html: the document is empty/],
        [JSON.stringify({ html: "<p/>", baseRevision: "abc" }), 400, "invalid_draft", /^baseRevision: must be a positive integer/],
        [JSON.stringify({ html: "<p/>", examples: { "/cx/nope": "empty" } }), 400, "unknown_example", /no API path "\/cx\/nope" takes demo variants/],
        [JSON.stringify([1]), 400, "invalid_draft"],
        [JSON.stringify({ html: "<p/>", colour: "red" }), 400, "invalid_draft", /colour/],
        [JSON.stringify({ html: "<p/>", dash: "Not A Slug" }), 400, "invalid_draft", /^dash/],
        [JSON.stringify({ html: "<p/>", dataMode: "remote" }), 400, "invalid_draft", /^dataMode/],
        [JSON.stringify({ html: "<p/>", examples: { "/vendors/tracker/issues": 3 } }), 400, "invalid_draft", /^examples/],
        [JSON.stringify({ html: "<p/>", baseRevision: 0 }), 400, "invalid_draft", /^baseRevision/],
        [JSON.stringify({ html: "a\u0000b" }), 400, "invalid_draft", /NUL/],
        [JSON.stringify({ html: "<p/>", scenario: "no-such-scenario" }), 400, "unknown_scenario"],
        [JSON.stringify({ html: "<p/>", examples: { "/no/such/path": "rich" } }), 400, "unknown_example", /no\/such\/path/],
        [JSON.stringify({ html: "<p/>", examples: { "/vendors/tracker/issues": "no-such-variant" } }), 400, "unknown_example", /no-such-variant/],
      ];
      for (const [body, status, error, hint] of cases) {
        const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
        const got = await errorOf(res);
        expect({ body, status: got.status, error: got.error }).toEqual({ body, status, error });
        if (hint) expect(got.hint).toMatch(hint);
      }
      // Not UTF-8.
      const bad = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: Uint8Array.of(0x7b, 0xff, 0x7d) });
      expect(await errorOf(bad)).toMatchObject({ status: 400, error: "invalid_draft" });
    }
    // None of the refused updates counted.
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view.revision).toBe(1);
  });

  it("accepts a concrete API path or a registry pattern as an examples key", async () => {
    const created = await create(app, { html: "<p/>", examples: { "/crm/customers/companies": "empty", "/crm/:instance/deals": "empty" } });
    expect(created.revision).toBe(1);
  });

  it("refuses html over 2 MiB with 413, in either body form, and accepts exactly 2 MiB", async () => {
    const created = await create(app);
    const limit = "x".repeat(DRAFT_HTML_MAX_BYTES);
    const over = `${limit}y`;
    for (const target of [`${app.url}${DRAFT}`, created.postUrl]) {
      expect(await errorOf(await postJson(target, { html: over }))).toMatchObject({ status: 413, error: "draft_too_large" });
      const html = await fetch(target, { method: "POST", headers: { "content-type": "text/html" }, body: over });
      expect(await errorOf(html)).toMatchObject({ status: 413, error: "draft_too_large" });
      // Multi-byte characters count as bytes, not characters.
      const wide = "é".repeat(DRAFT_HTML_MAX_BYTES / 2 + 1);
      expect(await errorOf(await postJson(target, { html: wide }))).toMatchObject({ status: 413, error: "draft_too_large" });
    }
    expect((await postJson(created.postUrl, { html: limit })).status).toBe(200);
    expect((await fetch(`${app.url}${DRAFT}`, { method: "POST", headers: { "content-type": "text/html" }, body: limit })).status).toBe(201);
  });

  it("refuses other content types with 415", async () => {
    const created = await create(app);
    for (const target of [`${app.url}${DRAFT}`, created.postUrl]) {
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1"]) {
        const res = await fetch(target, { method: "POST", headers: { "content-type": type }, body: JSON.stringify({ html: "<p/>" }) });
        expect(await errorOf(res), type).toMatchObject({ status: 415, error: "unsupported_media_type" });
      }
      const none = await fetch(target, { method: "POST", body: new Blob([JSON.stringify({ html: "<p/>" })]) });
      expect(await errorOf(none)).toMatchObject({ status: 415, error: "unsupported_media_type" });
    }
  });

  it("takes text/html bodies, with the other fields in the query string", async () => {
    const html = "<!doctype html>\r\n<p>as is</p>\n\n";
    const res = await fetch(`${app.url}${DRAFT}?scenario=outage&dash=from-html&dataMode=live`, {
      method: "POST",
      headers: { "content-type": "text/html; charset=utf-8" },
      body: html,
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; postUrl: string };
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view).toMatchObject({ html, scenario: "outage", dash: "from-html", dataMode: "live" });

    const up = await fetch(`${created.postUrl}?baseRevision=1`, { method: "POST", headers: { "content-type": "text/html" }, body: "<p>2</p>" });
    expect(up.status).toBe(200);
    expect(draftUpdated.parse(await up.json()).revision).toBe(2);

    const refusals: [query: string, error: string][] = [
      ["?baseRevision=abc", "invalid_draft"],
      ["?baseRevision=1&baseRevision=2", "invalid_draft"],
      ["?colour=red", "invalid_draft"],
      ["?html=x", "invalid_draft"],
      ["?examples=x", "invalid_draft"],
      ["?dash=Bad%20Slug", "invalid_draft"],
      ["?scenario=nope", "unknown_scenario"],
      ["?dataMode=demo", "data_mode_fixed"],
      ["?baseRevision=1", "revision_conflict"],
    ];
    for (const [query, error] of refusals) {
      const r = await fetch(`${created.postUrl}${query}`, { method: "POST", headers: { "content-type": "text/html" }, body: "<p/>" });
      expect((await errorOf(r)).error, query).toBe(error);
    }
  });

  it("keeps dataMode fixed at creation", async () => {
    const created = await create(app, { html: "<p/>", dataMode: "live" });
    const other = await errorOf(await postJson(created.postUrl, { html: "<p/>", dataMode: "demo" }));
    expect(other).toMatchObject({ status: 409, error: "data_mode_fixed" });
    expect((await postJson(created.postUrl, { html: "<p/>", dataMode: "live" })).status).toBe(200);
    expect((await postJson(created.postUrl, { html: "<p/>" })).status).toBe(200);
  });

  it("refuses an update whose baseRevision is not the current revision, naming the current one", async () => {
    const created = await create(app);
    expect((await postJson(created.postUrl, { html: "<p>2</p>", baseRevision: 1 })).status).toBe(200);
    const stale = await errorOf(await postJson(created.postUrl, { html: "<p>x</p>", baseRevision: 1 }));
    expect(stale).toMatchObject({ status: 409, error: "revision_conflict" });
    expect(stale.hint).toMatch(/\b2\b/);
    const ahead = await errorOf(await postJson(created.postUrl, { html: "<p>x</p>", baseRevision: 9 }));
    expect(ahead).toMatchObject({ status: 409, error: "revision_conflict" });
    const ok = draftUpdated.parse(await (await postJson(created.postUrl, { html: "<p>3</p>", baseRevision: 2 })).json());
    expect(ok.revision).toBe(3);
  });

  it("refuses browser writes from other sites and opaque origins, and lets agents and its own pages write", async () => {
    const created = await create(app);
    const refused: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "null" },
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site", origin: "null" },
    ];
    for (const headers of refused) {
      for (const target of [`${app.url}${DRAFT}`, created.postUrl]) {
        const got = await errorOf(await postJson(target, { html: "<p>from a dashboard</p>" }, headers));
        expect(got, JSON.stringify(headers)).toMatchObject({ status: 403, error: "cross_site_write" });
      }
    }
    const own = { "sec-fetch-site": "same-origin", origin: app.url };
    expect((await postJson(`${app.url}${DRAFT}`, { html: "<p/>" }, own)).status).toBe(201);
    expect((await postJson(created.postUrl, { html: "<p/>" }, own)).status).toBe(200);
    expect((await postJson(created.postUrl, { html: "<p/>" })).status).toBe(200);
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view.revision).toBe(3);
  });

  it("gives 100 concurrent updates revisions 2 to 101, none lost", async () => {
    const created = await create(app);
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const res = await postJson(created.postUrl, { html: `<p>${i}</p>` });
        expect(res.status).toBe(200);
        return draftUpdated.parse(await res.json()).revision;
      }),
    );
    expect(answers.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    const view = draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json());
    expect(view.revision).toBe(101);
    const kept = await listRevisionsBefore(open.db, created.id, null, 1000);
    expect(kept.map((r) => r.revision)).toEqual(Array.from({ length: 50 }, (_, i) => 101 - i));
    // Every kept revision holds the html its update sent.
    const html = new Set(kept.map((r) => r.html));
    expect(html.size).toBe(50);
    expect(kept[0]?.html).toBe(view.html);
  });
});

describe.each(backends)("draft limits and expiry on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  beforeAll(async () => {
    open = await backend.open();
  });
  afterAll(async () => {
    await open.close();
  });

  it("limits creations per client address, answering Retry-After", async () => {
    const app = await startApp(open, { settings: { createsPerMinute: 3 } });
    try {
      for (let i = 0; i < 3; i++) expect((await postJson(`${app.url}${DRAFT}`, { html: "<p/>" })).status).toBe(201);
      const res = await postJson(`${app.url}${DRAFT}`, { html: "<p/>" });
      expect(await errorOf(res.clone())).toMatchObject({ status: 429, error: "rate_limited" });
      expect(res.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
      // Without a trusted proxy, a client cannot pick another address with X-Forwarded-For.
      const spoofed = await postJson(`${app.url}${DRAFT}`, { html: "<p/>" }, { "x-forwarded-for": "198.51.100.7" });
      expect(spoofed.status).toBe(429);
    } finally {
      await app.close();
    }
  });

  it("believes X-Forwarded-For only from a trusted proxy", async () => {
    const app = await startApp(open, { settings: { createsPerMinute: 2, trustedProxy: ["127.0.0.1", "::1"] } });
    try {
      const from = (client: string) => postJson(`${app.url}${DRAFT}`, { html: "<p/>" }, { "x-forwarded-for": `6.6.6.6, ${client}` });
      expect((await from("198.51.100.1")).status).toBe(201);
      expect((await from("198.51.100.1")).status).toBe(201);
      expect((await from("198.51.100.1")).status).toBe(429);
      expect((await from("198.51.100.2")).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it("limits updates per draft", async () => {
    const app = await startApp(open, { settings: { updatesPerMinute: 2 } });
    try {
      const a = await create(app);
      const b = await create(app);
      expect((await postJson(a.postUrl, { html: "<p/>" })).status).toBe(200);
      expect((await postJson(a.postUrl, { html: "<p/>" })).status).toBe(200);
      const third = await postJson(a.postUrl, { html: "<p/>" });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await postJson(b.postUrl, { html: "<p/>" })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("limits open streams per draft and per address", async () => {
    const app = await startApp(open, { settings: { streamsPerDraft: 2, streamsPerAddress: 3 } });
    try {
      const a = await create(app);
      const b = await create(app);
      const s1 = await openStream(onApp(app, a.eventsUrl));
      const s2 = await openStream(onApp(app, a.eventsUrl));
      const s3 = await openStream(onApp(app, a.eventsUrl));
      expect([s1.status, s2.status, s3.status]).toEqual([200, 200, 429]);
      expect(s3.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
      expect(JSON.parse(await s3.text())).toMatchObject({ error: "rate_limited" });
      const s4 = await openStream(onApp(app, b.eventsUrl));
      const s5 = await openStream(onApp(app, b.eventsUrl));
      expect([s4.status, s5.status]).toEqual([200, 429]);
      // A closed stream frees its place.
      s1.kill();
      await expect.poll(() => app.playground.hub.addressCount("127.0.0.1")).toBe(2);
      const s6 = await openStream(onApp(app, b.eventsUrl));
      expect(s6.status).toBe(200);
      for (const s of [s2, s4, s6]) s.kill();
    } finally {
      await app.close();
    }
  });

  it("keeps a bounded history of revisions", async () => {
    const app = await startApp(open, { settings: { historyKeep: 5 } });
    try {
      const created = await create(app);
      for (let i = 2; i <= 9; i++) await postJson(created.postUrl, { html: `<p>${i}</p>` });
      const kept = await listRevisionsBefore(open.db, created.id, null, 1000);
      expect(kept.map((r) => [r.revision, r.html])).toEqual([9, 8, 7, 6, 5].map((n) => [n, `<p>${n}</p>`]));
      // The same history, read-only, by the read id.
      const res = await fetch(`${app.url}${DRAFT}/${created.id}/revisions`);
      expect(res.status).toBe(200);
      const body = draftRevisions.strict().parse(await res.json());
      expect(body.revisions.map((r) => [r.revision, r.html])).toEqual([9, 8, 7, 6, 5].map((n) => [n, `<p>${n}</p>`]));
      const byToken = await fetch(`${app.url}${DRAFT}/${new URL(created.postUrl).pathname.split("/").pop()}/revisions`);
      expect(byToken.status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it("expires drafts after the idle time: gone for reads, writes and streams, then swept", async () => {
    let now = Date.now();
    const app = await startApp(open, { now: () => now, settings: { draftIdleDays: 30 } });
    try {
      const idle = await create(app);
      const busy = await create(app);
      now += 29 * DAY;
      expect((await postJson(busy.postUrl, { html: "<p>still here</p>" })).status).toBe(200);
      now += 2 * DAY;
      const answers = [
        await postJson(idle.postUrl, { html: "<p/>" }),
        await fetch(onApp(app, `${app.url}${DRAFT}/${idle.id}`)),
        await fetch(onApp(app, idle.eventsUrl)),
      ];
      for (const r of answers) expect(await errorOf(r)).toMatchObject({ status: 404, error: "no_such_draft" });
      expect((await fetch(`${app.url}${DRAFT}/${busy.id}`)).status).toBe(200);

      const swept = await app.playground.sweep();
      expect(swept).toContain(idle.id);
      expect(swept).not.toContain(busy.id);
      const rows = await open.db.selectFrom("playground_drafts").select("id").where("id", "in", [idle.id, busy.id]).execute();
      expect(rows.map((r) => r.id)).toEqual([busy.id]);
      expect(await listRevisionsBefore(open.db, idle.id, null, 1000)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
