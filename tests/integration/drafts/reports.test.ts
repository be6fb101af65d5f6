import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REPORTS_PER_REVISION,
  REPORTS_PER_SOURCE,
  REPORT_BODY_MAX_BYTES,
  REPORT_ERRORS_MAX,
  REPORT_MESSAGE_MAX,
  REPORT_REVISIONS,
  REPORT_TEXT_MAX,
  renderReportAccepted,
  renderReports,
  type RenderReportInput,
} from "@/lib/contract/reports";
import { randomBytes } from "node:crypto";
import { createSealer } from "@/lib/crypto/secrets";
import { openDb } from "@/lib/db";
import { backends } from "../support/backends";
import { DRAFT, create, onApp, postJson, startApp, type App } from "../playground/support";

// Render reports over real HTTP on both storage engines: what is kept (per revision, for recent
// revisions only, pruned with the history and the draft), who may send one (demo drafts only,
// within the per-address allowance), and that every refusal answers the envelope, names what is
// wrong, and writes nothing.

const DAY = 86_400_000;

const report = (over: Partial<RenderReportInput> = {}): RenderReportInput => ({
  revision: 1,
  page: "watch",
  settled: true,
  elapsedMs: 140,
  errors: [{ kind: "error", message: "Uncaught TypeError: rows.map is not a function", line: 12, column: 7, count: 1 }],
  console: [{ message: "could not load the book", count: 2 }],
  refusals: [{ method: "POST", path: "/dashboards/playground/api/me", error: "method_not_allowed", reason: "Dashboards only read data: fetch with POST is not allowed.", count: 1 }],
  requests: [{ method: "GET", path: "/me", status: 200, ms: 12 }],
  dropped: 0,
  ...over,
});

function tokenOf(postUrl: string): string {
  return new URL(postUrl).pathname.split("/").pop()!;
}

async function envelope(res: Response): Promise<{ status: number; error: string; hint?: string }> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).every((k) => k === "error" || k === "hint"), JSON.stringify(body)).toBe(true);
  return { status: res.status, error: String(body.error), ...(typeof body.hint === "string" ? { hint: body.hint } : {}) };
}

describe.each(backends)("render reports on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  let app: App;
  const lenient = { createsPerMinute: 10_000, updatesPerMinute: 10_000, readsPerMinute: 10_000, reportsPerMinute: 10_000 };

  const reportsUrl = (a: App, id: string, query = "") => `${a.url}${DRAFT}/${id}/reports${query}`;
  const send = (a: App, id: string, body: unknown, headers: Record<string, string> = {}) => postJson(reportsUrl(a, id), body, headers);
  const stored = async () => Number((await open.db.selectFrom("playground_draft_reports").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  const storedFor = async (id: string, revision?: number) => {
    let q = open.db.selectFrom("playground_draft_reports").select((eb) => eb.fn.countAll().as("n")).where("draft_id", "=", id);
    if (revision !== undefined) q = q.where("revision", "=", revision);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const update = async (a: App, postUrl: string, html: string) => {
    const res = await postJson(onApp(a, postUrl), { html });
    expect(res.status).toBe(200);
    return ((await res.json()) as { revision: number }).revision;
  };

  beforeAll(async () => {
    open = await backend.open();
    app = await startApp(open, { settings: lenient });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  it("stores a report of a demo draft and answers it for the current revision, and by number", async () => {
    const draft = await create(app, { html: "<script>rows.map()</script>" });
    const sent = await send(app, draft.id, report());
    expect(sent.status, await sent.clone().text()).toBe(201);
    const accepted = renderReportAccepted.parse(await sent.json());
    expect(accepted.revision).toBe(1);
    // Sent with the read id: a watcher's, known by a digest that does not spell the address.
    expect(accepted.source.kind).toBe("watcher");
    expect(accepted.source.id).toMatch(/^w-[A-Za-z0-9_-]{16}$/);
    expect(accepted.source.id).not.toContain("127");
    expect(sent.headers.get("referrer-policy")).toBe("no-referrer");

    for (const query of ["", "?revision=1"]) {
      const res = await fetch(reportsUrl(app, draft.id, query));
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      const body = renderReports.parse(await res.json());
      const { revision: _revision, ...fields } = report();
      expect(body).toEqual({
        revision: 1,
        currentRevision: 1,
        // A report sent without parameters is one of the set without any.
        reports: [{ at: accepted.at, source: accepted.source, ...fields, params: {} }],
        sources: { total: 1, failing: 1, clean: 0, unsettled: 0, author: "none", service: "none" },
      });
    }

    // Another revision has its own reports; the one before keeps what it had.
    await update(app, draft.postUrl, "<p>fixed</p>");
    const clean = report({ revision: 2, errors: [], console: [], refusals: [], requests: [{ method: "GET", path: "/crm/customers/companies?limit=5", status: 200, ms: 30 }] });
    expect((await send(app, draft.id, clean)).status).toBe(201);
    const now = renderReports.parse(await (await fetch(reportsUrl(app, draft.id))).json());
    expect(now.revision).toBe(2);
    expect(now.reports).toHaveLength(1);
    expect(now.reports[0]).toMatchObject({ errors: [], requests: [{ path: "/crm/customers/companies?limit=5", status: 200 }] });
    const before = renderReports.parse(await (await fetch(reportsUrl(app, draft.id, "?revision=1"))).json());
    expect(before).toMatchObject({ revision: 1, currentRevision: 2 });
    expect(before.reports[0]?.errors[0]).toMatchObject({ line: 12, column: 7 });
    // A revision nobody has rendered yet, or one that does not exist: no reports, not an error.
    expect(renderReports.parse(await (await fetch(reportsUrl(app, draft.id, "?revision=9"))).json()).reports).toEqual([]);
  });

  it("keeps the newest reports of a revision, a few per source, and only for the latest revisions", async () => {
    // Watchers at addresses of their own, behind a trusted proxy.
    const many = await startApp(open, { settings: { ...lenient, trustedProxy: ["127.0.0.1"] } });
    const from = (n: number) => ({ "x-forwarded-for": `192.0.2.${n}` });
    try {
      const draft = await create(many, { html: "<p>1</p>" });
      for (let i = 0; i < REPORTS_PER_REVISION + 3; i++) {
        expect((await send(many, draft.id, report({ elapsedMs: i }), from(i))).status).toBe(201);
      }
      expect(await storedFor(draft.id, 1)).toBe(REPORTS_PER_REVISION);
      const kept = renderReports.parse(await (await fetch(reportsUrl(many, draft.id))).json());
      expect(kept.reports.map((r) => r.elapsedMs)).toEqual(Array.from({ length: REPORTS_PER_REVISION }, (_, i) => REPORTS_PER_REVISION + 2 - i));
      expect(kept.sources).toEqual({ total: REPORTS_PER_REVISION, failing: REPORTS_PER_REVISION, clean: 0, unsettled: 0, author: "none", service: "none" });

      // One source keeps its newest few.
      for (let i = 0; i < REPORTS_PER_SOURCE + 2; i++) expect((await send(many, draft.id, report({ elapsedMs: 100 + i }), from(200))).status).toBe(201);
      const one = renderReports.parse(await (await fetch(reportsUrl(many, draft.id))).json()).reports.filter((r) => r.elapsedMs >= 100);
      expect(one.map((r) => r.elapsedMs)).toEqual(Array.from({ length: REPORTS_PER_SOURCE }, (_, i) => 100 + REPORTS_PER_SOURCE + 1 - i));

      // Revisions 2 to 6: revision 1 is no longer among the latest five. A report for it is
      // refused, and the next report stored prunes what it had.
      for (let r = 2; r <= REPORT_REVISIONS + 1; r++) await update(many, draft.postUrl, `<p>${r}</p>`);
      const late = await send(many, draft.id, report({ revision: 1 }));
      expect(await envelope(late)).toEqual({ status: 409, error: "revision_not_recent", hint: expect.stringContaining("revisions 2 to 6") as string });
      const ahead = await send(many, draft.id, report({ revision: 7 }));
      expect(await envelope(ahead)).toMatchObject({ status: 409, error: "revision_not_recent" });
      expect(await storedFor(draft.id, 1)).toBe(REPORTS_PER_REVISION);
      expect((await send(many, draft.id, report({ revision: 2 }))).status).toBe(201);
      expect(await storedFor(draft.id, 1)).toBe(0);
      expect(await storedFor(draft.id)).toBe(1);
    } finally {
      await many.close();
    }
  });

  it("keeps a real error however many clean reports are forged, says who sent what, and counts the sources", async () => {
    const many = await startApp(open, { settings: { ...lenient, trustedProxy: ["127.0.0.1"] } });
    const from = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });
    try {
      const draft = await create(many, { html: "<script>rows.map()</script>" });
      const failing = report({ elapsedMs: 777 });
      const clean = report({ errors: [], console: [], refusals: [] });
      expect((await send(many, draft.id, failing, from(1))).status).toBe(201);
      // Fifteen forged "clean" reports from one address, then fifteen from fifteen addresses.
      for (let i = 0; i < 15; i++) expect((await send(many, draft.id, clean, from(2))).status).toBe(201);
      for (let i = 0; i < 15; i++) expect((await send(many, draft.id, clean, from(10 + i))).status).toBe(201);
      const body = renderReports.parse(await (await fetch(reportsUrl(many, draft.id))).json());
      expect(body.reports).toHaveLength(REPORTS_PER_REVISION);
      const kept = body.reports.filter((r) => r.errors.length > 0);
      expect(kept.map((r) => r.elapsedMs)).toEqual([777]);
      expect(kept[0]?.errors[0]?.message).toContain("rows.map is not a function");
      expect(body.sources.failing).toBe(1);
      expect(body.sources.clean).toBe(body.sources.total - 1);
      expect(new Set(body.reports.map((r) => r.source.id)).size).toBe(body.sources.total);

      // The author's own word (sent with the write link) is marked as such, and is kept over a watcher's.
      const token = tokenOf(draft.postUrl);
      const mine = await send(many, token, report({ errors: [], console: [], refusals: [], elapsedMs: 55 }));
      expect(mine.status).toBe(201);
      expect(renderReportAccepted.parse(await mine.json()).source).toEqual({ kind: "author", id: "a-author" });
      for (let i = 0; i < 12; i++) expect((await send(many, draft.id, clean, from(40 + i))).status).toBe(201);
      const after = renderReports.parse(await (await fetch(reportsUrl(many, draft.id))).json());
      expect(after.reports.filter((r) => r.source.kind === "author").map((r) => r.elapsedMs)).toEqual([55]);
      expect(after.reports.filter((r) => r.errors.length > 0).map((r) => r.elapsedMs)).toEqual([777]);
      expect(after.sources).toMatchObject({ failing: 1, author: "clean" });
    } finally {
      await many.close();
    }
  });

  it("loses a revision's reports with the revision, and a draft's with the draft", async () => {
    let now = Date.now();
    const short = await startApp(open, { now: () => now, settings: { ...lenient, historyKeep: 2 } });
    try {
      const draft = await create(short, { html: "<p>1</p>" });
      expect((await send(short, draft.id, report())).status).toBe(201);
      await update(short, draft.postUrl, "<p>2</p>");
      expect((await send(short, draft.id, report({ revision: 2 }))).status).toBe(201);
      await update(short, draft.postUrl, "<p>3</p>");
      // Revision 1 left the history: its reports went with it, by the foreign key alone, and the
      // history keeps two revisions, so reports are taken for two.
      expect(await storedFor(draft.id, 1)).toBe(0);
      expect(await storedFor(draft.id, 2)).toBe(1);
      expect(await envelope(await send(short, draft.id, report({ revision: 1 })))).toMatchObject({ status: 409, error: "revision_not_recent", hint: expect.stringContaining("revisions 2 to 3") as string });

      now += 31 * DAY;
      expect(await short.playground.sweep()).toContain(draft.id);
      expect(await storedFor(draft.id)).toBe(0);
    } finally {
      await short.close();
    }
  });

  it("refuses reports for a live draft, and never answers any", async () => {
    const draft = await create(app, { html: "<p>live</p>", dataMode: "live" });
    const before = await stored();
    const res = await send(app, draft.id, report());
    const refused = await envelope(res);
    expect(refused).toMatchObject({ status: 409, error: "reports_demo_only" });
    expect(refused.hint).toMatch(/live data/);
    expect(await stored()).toBe(before);
    expect(await envelope(await fetch(reportsUrl(app, draft.id)))).toMatchObject({ status: 409, error: "reports_demo_only" });
  });

  it("answers every bad report with the envelope, names what is wrong, and stores nothing", async () => {
    const draft = await create(app, { html: "<p>x</p>" });
    const url = reportsUrl(app, draft.id);
    const long = "x".repeat(REPORT_MESSAGE_MAX + 1);
    const manyErrors = Array.from({ length: REPORT_ERRORS_MAX + 1 }, (_, i) => ({ kind: "error" as const, message: `e${i}`, line: null, column: null, count: 1 }));
    const overBudget = Array.from({ length: 30 }, (_, i) => ({ message: `${i}`.padEnd(REPORT_MESSAGE_MAX, "y"), count: 1 }));
    expect(overBudget.reduce((n, c) => n + c.message.length, 0)).toBeGreaterThan(REPORT_TEXT_MAX);
    const cases: [string, () => Promise<Response>, number, string, RegExp?][] = [
      ["not JSON", () => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }), 400, "invalid_report", /not JSON/],
      ["form body", () => fetch(url, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }), 415, "unsupported_media_type"],
      ["over the byte ceiling", () => send(app, draft.id, { ...report(), pad: "z".repeat(REPORT_BODY_MAX_BYTES) }), 413, "report_too_large"],
      ["an unknown field", () => send(app, draft.id, { ...report(), html: "<p>" }), 400, "invalid_report", /html/],
      ["no revision", () => send(app, draft.id, { ...report(), revision: undefined }), 400, "invalid_report", /^revision:/],
      ["revision as text", () => send(app, draft.id, { ...report(), revision: "1" }), 400, "invalid_report", /^revision:/],
      ["revision 0", () => send(app, draft.id, report({ revision: 0 })), 400, "invalid_report", /^revision:/],
      ["a line of 0", () => send(app, draft.id, report({ errors: [{ kind: "error", message: "m", line: 0, column: 1, count: 1 }] })), 400, "invalid_report", /^errors\[0\]\.line:/],
      ["a long message", () => send(app, draft.id, report({ console: [{ message: long, count: 1 }] })), 400, "invalid_report", new RegExp(`console\\[0\\]\\.message: .*at most ${REPORT_MESSAGE_MAX}`)],
      ["control characters", () => send(app, draft.id, report({ console: [{ message: "a\u0000b", count: 1 }] })), 400, "invalid_report", /console\[0\]\.message: .*control characters/],
      ["too many errors", () => send(app, draft.id, report({ errors: manyErrors })), 400, "invalid_report", new RegExp(`errors: .*${REPORT_ERRORS_MAX}`)],
      ["too much text", () => send(app, draft.id, report({ console: overBudget })), 400, "invalid_report", new RegExp(`at most ${REPORT_TEXT_MAX}`)],
      ["a lowercase method", () => send(app, draft.id, report({ requests: [{ method: "get", path: "/me", status: 200, ms: 1 }] })), 400, "invalid_report", /requests\[0\]\.method/],
      ["an unknown page", () => send(app, draft.id, { ...report(), page: "saved" }), 400, "invalid_report", /^page:/],
      ["a revision not yet made", () => send(app, draft.id, report({ revision: 2 })), 409, "revision_not_recent", /revisions 1 to 1/],
      ["an unknown read id", () => send(app, "A".repeat(22), report()), 404, "no_such_draft"],
      ["a malformed read id", () => send(app, "not-an-id", report()), 404, "no_such_draft"],
      ["another site", () => send(app, draft.id, report(), { "sec-fetch-site": "cross-site" }), 403, "cross_site_write"],
      ["an opaque-origin frame", () => send(app, draft.id, report(), { origin: "null" }), 403, "cross_site_write"],
      ["PUT", () => fetch(url, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(report()) }), 405, "method_not_allowed"],
    ];
    const before = await stored();
    for (const [what, call, status, code, hint] of cases) {
      const res = await call();
      const body = await envelope(res);
      expect(body.status, what).toBe(status);
      expect(body.error, what).toBe(code);
      if (hint) expect(body.hint, what).toMatch(hint);
      if (status === 405) expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    }
    expect(await stored()).toBe(before);
  });

  it("answers a bad query with invalid_query naming revision", async () => {
    const draft = await create(app, { html: "<p>q</p>" });
    for (const query of ["?revision=abc", "?revision=0", "?revision=1.5", "?revision=-1", "?revision=", "?revision=1e3"]) {
      const body = await envelope(await fetch(reportsUrl(app, draft.id, query)));
      expect(body, query).toEqual({ status: 400, error: "invalid_query", hint: "revision: must be a positive integer, a revision of this draft (e.g. ?revision=2)" });
    }
    expect(await envelope(await fetch(reportsUrl(app, draft.id, "?revision=1&revision=2")))).toMatchObject({ status: 400, hint: expect.stringMatching(/^revision was given 2 times/) as string });
    expect(await envelope(await fetch(reportsUrl(app, draft.id, "?rev=1")))).toMatchObject({ status: 400, hint: expect.stringContaining('"rev"') as string });
    expect(await envelope(await fetch(reportsUrl(app, "B".repeat(22))))).toMatchObject({ status: 404, error: "no_such_draft" });
  });

  it("limits reports per client address, and a refused one is not stored", async () => {
    // On PostgreSQL the limit is shared with every instance on the database, the other tests'
    // included: this client comes through a trusted proxy under an address of its own.
    const strict = await startApp(open, { settings: { ...lenient, reportsPerMinute: 3, trustedProxy: ["127.0.0.1"] } });
    const own = { "x-forwarded-for": "198.51.100.7" };
    try {
      const draft = await create(strict, { html: "<p>r</p>" });
      for (let i = 0; i < 3; i++) expect((await send(strict, draft.id, report(), own)).status).toBe(201);
      const res = await send(strict, draft.id, report(), own);
      expect(await envelope(res)).toMatchObject({ status: 429, error: "rate_limited", hint: expect.stringContaining("render reports") as string });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await storedFor(draft.id)).toBe(3);
      // Reading them is a read, not a report.
      expect((await fetch(reportsUrl(strict, draft.id))).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("is kept in storage: another instance on the same database answers what this one took", async () => {
    const second = await openDb(open.storage);
    // Instances of one deployment share its key.
    const sealer = createSealer(randomBytes(32));
    const one = await startApp(open, { settings: lenient, sealer });
    const other = await startApp(second, { settings: lenient, sealer });
    try {
      const draft = await create(one, { html: "<p>shared</p>" });
      expect((await send(one, draft.id, report({ elapsedMs: 4321 }))).status).toBe(201);
      const body = renderReports.parse(await (await fetch(reportsUrl(other, draft.id))).json());
      expect(body.reports.map((r) => r.elapsedMs)).toEqual([4321]);
      // The same address is the same source on every instance that shares the key.
      const again = await send(other, draft.id, report({ elapsedMs: 1234 }));
      expect(again.status).toBe(201);
      expect(renderReportAccepted.parse(await again.json()).source).toEqual(body.reports[0]?.source);
      const both = renderReports.parse(await (await fetch(reportsUrl(one, draft.id))).json());
      expect(both.reports.map((r) => r.elapsedMs)).toEqual([1234, 4321]);
      expect(both.sources.total).toBe(1);
    } finally {
      await one.close();
      await other.close();
      await second.close();
    }
  });
});
