import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { draftView } from "@/lib/contract/playground";
import type { DraftWarning } from "@/lib/contract/resources";
import { draftReads } from "@/lib/playground/drafts";
import { backends } from "../support/backends";
import { DRAFT, create, onApp, openStream, postJson, startApp, type App } from "./support";

// Anonymous reads of the playground: what they cost and who they can lock out. Reads serve the
// findings stored with each revision (the check never runs on a read), revisions come in pages
// bounded in count and bytes, reads are rate limited per client address, the stream cap counts
// per address and tells a refused watcher nothing, and the URLs handed out never carry a Host
// the server does not believe.

const checks = vi.hoisted(() => ({ calls: 0, override: null as null | ((html: string) => DraftWarning[]) }));

vi.mock("@/lib/playground/check", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/playground/check")>();
  return {
    ...real,
    checkDraft: (html: string) => {
      checks.calls++;
      return checks.override ? checks.override(html) : real.checkDraft(html);
    },
  };
});

const fakeWarning = (message: string): DraftWarning => ({ rule: "fake-rule", severity: "warning", message, line: 1, column: 1, hint: "none" });

describe.each(backends)("anonymous draft reads on $name", (backend) => {
  let open: Awaited<ReturnType<typeof backend.open>>;
  let app: App;
  const lenient = { createsPerMinute: 10_000, updatesPerMinute: 10_000 };

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
    const created = await create(app, { html: "<p>reads</p>" });
    expect(await draftReads(app.playground.context, created.id)).toEqual({ paths: [], complete: false });
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
    expect(JSON.parse(row.check_json ?? "null")).toMatchObject({ warnings: [fakeWarning("computed late")], reads: { paths: [], complete: false } });
    checks.override = () => [fakeWarning("a read ran the check")];
    expect(draftView.parse(await (await fetch(`${app.url}${DRAFT}/${created.id}`)).json()).warnings).toEqual([fakeWarning("computed late")]);
    expect(checks.calls).toBe(1);
  });
});
