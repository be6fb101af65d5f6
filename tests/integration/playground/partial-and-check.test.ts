import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftCheck, draftEvent, draftRevisions, draftUpdated, draftView } from "@/lib/contract/playground";
import { backends } from "../support/backends";
import { DRAFT, create, openStream, postJson, startApp, type App } from "./support";

// Partial updates and the check that publishes nothing, over real HTTP on both engines: what a
// field present, null and absent each do, what watchers see, and that nothing an agent only
// wanted checked (or sent blank) becomes a revision.

const CHECK = "/dashboards/playground/check";
const PAGE = '<!doctype html><html><head><title>Book</title></head><body><h1>Book</h1><script>fetch(window.DASHBOARD_API_BASE + "/cx/book?owner=1").then(r => r.json())</script></body></html>';

describe.each(backends)("partial updates and checks on $name", (backend) => {
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

  const view = async (id: string) => draftView.parse(await (await fetch(`${app.url}${DRAFT}/${id}`)).json());
  const history = async (id: string) => draftRevisions.parse(await (await fetch(`${app.url}${DRAFT}/${id}/revisions`)).json()).revisions;

  it("changes the scenario without resending the HTML, reaching watchers as a new revision", async () => {
    const created = await create(app, { html: PAGE, examples: { "/cx/book": "empty" }, dash: "book" });
    const stream = await openStream(`${app.url}${DRAFT}/${created.id}/events`);
    try {
      const first = draftEvent.parse(JSON.parse((await stream.next()).data));
      expect(first).toMatchObject({ revision: 1, scenario: "default", examples: { "/cx/book": "empty" }, dash: "book" });

      const res = await postJson(created.postUrl, { scenario: "outage" });
      expect(res.status).toBe(200);
      const updated = draftUpdated.parse(await res.json());
      expect(updated.revision).toBe(2);
      // The HTML kept its check result: the same findings as at creation.
      expect(updated.warnings).toEqual(created.warnings);

      const event = draftEvent.parse(JSON.parse((await stream.next()).data));
      // Fields left out keep their values: the forced example stays in force.
      expect(event).toEqual({ revision: 2, scenario: "outage", examples: { "/cx/book": "empty" }, dash: "book", html: PAGE });
      expect(await view(created.id)).toMatchObject({ revision: 2, html: PAGE, scenario: "outage", examples: { "/cx/book": "empty" }, dash: "book" });
      expect((await view(created.id)).warnings).toEqual(created.warnings);

      // null clears: scenario back to default, no forced examples, no dash.
      expect((await postJson(created.postUrl, { scenario: null, examples: null, dash: null })).status).toBe(200);
      const cleared = draftEvent.parse(JSON.parse((await stream.next()).data));
      expect(cleared).toEqual({ revision: 3, scenario: "default", examples: {}, dash: null, html: PAGE });
      expect((await history(created.id)).map((r) => [r.revision, r.scenario, r.examples, r.dash, r.html === PAGE])).toEqual([
        [3, "default", {}, null, true],
        [2, "outage", { "/cx/book": "empty" }, "book", true],
        [1, "default", { "/cx/book": "empty" }, "book", true],
      ]);
    } finally {
      stream.kill();
    }
  });

  it("takes text/html alone as an update of the HTML, keeping scenario and examples", async () => {
    const created = await create(app, { html: "<p>one</p>", scenario: "outage", examples: { "/cx/book": "empty" } });
    const res = await fetch(created.postUrl, { method: "POST", headers: { "content-type": "text/html" }, body: "<p>two</p>" });
    expect(res.status).toBe(200);
    expect(await view(created.id)).toMatchObject({ revision: 2, html: "<p>two</p>", scenario: "outage", examples: { "/cx/book": "empty" } });
  });

  it("refuses a blank document at creation and update, publishing nothing", async () => {
    for (const html of ["", "  \n ", "<!-- soon -->", "<!-- a -->\n<!-- b"]) {
      const refusedCreate = await postJson(`${app.url}${DRAFT}`, { html });
      expect([refusedCreate.status, (await refusedCreate.json()).error]).toEqual([400, "invalid_draft"]);
    }
    const created = await create(app, { html: "<p>kept</p>" });
    const stream = await openStream(`${app.url}${DRAFT}/${created.id}/events`);
    try {
      await stream.next();
      for (const body of [JSON.stringify({ html: "<!-- x -->" }), JSON.stringify({ html: " ", scenario: "outage" })]) {
        const refused = await fetch(created.postUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
        expect(refused.status).toBe(400);
        expect((await refused.json()).hint).toMatch(/^html: the document is empty/);
      }
      const blankText = await fetch(created.postUrl, { method: "POST", headers: { "content-type": "text/html" }, body: "\n\n" });
      expect(blankText.status).toBe(400);
      expect(await view(created.id)).toMatchObject({ revision: 1, html: "<p>kept</p>", scenario: "default" });
      expect(stream.messages).toHaveLength(1);
    } finally {
      stream.kill();
    }
  });

  it("checks a draft body, JSON or text/html, and creates nothing", async () => {
    const before = await open.db.selectFrom("playground_drafts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    const json = await postJson(`${app.url}${CHECK}`, { html: PAGE, scenario: "outage" });
    expect(json.status).toBe(200);
    const checked = draftCheck.parse(await json.json());
    expect(checked.reads.paths).toContain("/cx/book");

    const broken = await fetch(`${app.url}${CHECK}`, { method: "POST", headers: { "content-type": "text/html" }, body: "<script>if (x > ) {}</script>" });
    expect(broken.status).toBe(200);
    const findings = draftCheck.parse(await broken.json()).warnings;
    expect(findings).toEqual([expect.objectContaining({ rule: "js-syntax", severity: "error", line: 1 })]);

    // A blank document is a finding here, not a refusal: nothing would be published anyway.
    const blank = draftCheck.parse(await (await postJson(`${app.url}${CHECK}`, { html: "" })).json());
    expect(blank.warnings.map((w) => w.rule)).toEqual(["empty-document"]);

    // The same validation as a draft: bad fields are named.
    for (const [body, error, hint] of [
      [{ html: "<p/>", scenario: "nope" }, "unknown_scenario", /nope/],
      [{ html: "<p/>", examples: { "/cx/nope": "empty" } }, "unknown_example", /no API path "\/cx\/nope"/],
      [{ html: 5 }, "invalid_draft", /^html/],
      [{ html: "<p/>", colour: "red" }, "invalid_draft", /colour/],
    ] as const) {
      const res = await postJson(`${app.url}${CHECK}`, body);
      const got = (await res.json()) as { error: string; hint: string };
      expect([res.status, got.error]).toEqual([400, error]);
      expect(got.hint).toMatch(hint);
    }
    expect((await fetch(`${app.url}${CHECK}`)).status).toBe(405);
    const after = await open.db.selectFrom("playground_drafts").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe("checks are rate limited like creations", () => {
  it("answers 429 with Retry-After past the allowance, per address", async () => {
    const open = await backends[0]!.open();
    const app = await startApp(open, { settings: { createsPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postJson(`${app.url}${CHECK}`, { html: "<p/>" })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await postJson(`${app.url}${CHECK}`, { html: "<p/>" });
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await limited.json()).error).toBe("rate_limited");
      // Creations have their own allowance, untouched by checks.
      expect((await postJson(`${app.url}${DRAFT}`, { html: "<p/>" })).status).toBe(201);
    } finally {
      await app.close();
      await open.close();
    }
  });
});
