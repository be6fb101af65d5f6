import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoApiResponse } from "@/lib/demo-api/answers";
import { backends } from "../support/backends";
import { DRAFT, create, postJson, startApp, type App } from "./support";

// An agent fixes what a refusal tells it and nothing more, so each refusal of a bad body names
// the field and the form it takes, in words rather than in the validator's own terms.

const CHECK = "/dashboards/playground/check";
const HTML = "<!doctype html><title>t</title><p>x</p>";
/** The validator's own wording, which names neither what the field is for nor what it takes. */
const JARGON = /Invalid input|Invalid option|expected \w+, received|Unrecognized key|expected record/;

type Case = [body: unknown, hint: RegExp];

/** Bad bodies a creation and a check refuse alike. */
const draftCases: Case[] = [
  [[1], /^The body must be a JSON object.*\{"html": /],
  ["<p>x</p>", /^The body must be a JSON object/],
  [{}, /^html: required: .*HTML document.*string/],
  [{ html: 5 }, /^html: must be a string: .*HTML document/],
  [{ html: HTML, colour: "red" }, /^Unrecognized field "colour": .*html, scenario, examples, dash, dataMode and baseRevision/],
  [{ html: HTML, scenario: 3 }, /^scenario: must be a scenario name, a string such as "outage"; GET \/dashboards\/playground\/scenarios lists them/],
  [{ html: HTML, examples: ["/cx/book"] }, /^examples: must be an object of API path → variant name, e\.g\. \{"\/cx\/book": "empty"\}/],
  [{ html: HTML, examples: { "/cx/book": 1 } }, /^examples\["\/cx\/book"\]: must be a variant name, a string such as "empty"/],
  [{ html: HTML, dash: 5 }, /^dash: must be a slug: lowercase letters, digits and hyphens/],
  [{ html: HTML, dash: "My Dash" }, /^dash: must be a slug: lowercase letters, digits and hyphens/],
  [{ html: HTML, dataMode: "prod" }, /^dataMode: must be "demo" or "live"/],
];

/** Bad bodies of an update, where null has a meaning for some fields and not for others. */
const updateCases: Case[] = [
  [[1], /^The body must be a JSON object of the fields to change.*\{"scenario": "outage"\}/],
  [{ html: null }, /^html: must be a string: .*leave html out to keep the current HTML/],
  [{ scenario: 3 }, /^scenario: must be a scenario name, .*or null to go back to "default"/],
  [{ examples: "none" }, /^examples: must be an object of API path → variant name.*or null to force none/],
  [{ scenario: "outage", colour: "red" }, /^Unrecognized field "colour": .*html, scenario, examples, dash, dataMode and baseRevision/],
];

function expectPlain(hint: string, expected: RegExp, body: unknown): void {
  expect(hint, JSON.stringify(body)).toMatch(expected);
  expect(hint, JSON.stringify(body)).not.toMatch(JARGON);
}

describe("refusals of bad draft bodies, in plain words", () => {
  let open: Awaited<ReturnType<(typeof backends)[number]["open"]>>;
  let app: App;

  beforeAll(async () => {
    open = await backends[0]!.open();
    app = await startApp(open, { settings: { createsPerMinute: 10_000, updatesPerMinute: 10_000 } });
  });
  afterAll(async () => {
    await app.close();
    await open.close();
  });

  const refused = async (url: string, body: unknown): Promise<string> => {
    const res = await postJson(url, body);
    const got = (await res.json()) as { error: string; hint: string };
    expect([res.status, got.error], JSON.stringify(body)).toEqual([400, "invalid_draft"]);
    return got.hint;
  };

  it("names the field and the form it takes, at creation and in a check", async () => {
    for (const path of [DRAFT, CHECK]) {
      for (const [body, hint] of draftCases) expectPlain(await refused(`${app.url}${path}`, body), hint, body);
    }
  });

  it("names the field and the form it takes in an update, null included", async () => {
    const created = await create(app, { html: HTML });
    for (const [body, hint] of updateCases) expectPlain(await refused(created.postUrl, body), hint, body);
  });

  it("says what a body that is not JSON should have been", async () => {
    const created = await create(app, { html: HTML });
    for (const url of [`${app.url}${DRAFT}`, `${app.url}${CHECK}`, created.postUrl]) {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"html": ' });
      const got = (await res.json()) as { error: string; hint: string };
      expect([res.status, got.error]).toEqual([400, "invalid_draft"]);
      expect(got.hint).toMatch(/^The body is not JSON: send a JSON object such as \{"html": .*, or the HTML itself with Content-Type: text\/html/);
    }
  });

  it("names the revision a render report needs", async () => {
    const created = await create(app, { html: HTML });
    for (const [body, hint] of [
      [{}, /^revision: required: the revision that rendered, a positive integer/],
      [{ revision: "1" }, /^revision: must be a positive integer: the revision that rendered/],
      [{ revision: 1 }, /^page: must be "watch" or "editor": where the dashboard rendered/],
      [[1], /^The body must be a JSON object: a render report/],
      [{ revision: 1, page: "watch", settled: true, elapsedMs: 1, errors: [], console: [], refusals: [], requests: [], dropped: 0, html: "<p>" }, /^Unrecognized field "html": a render report's fields are revision, page, settled, elapsedMs, errors, console, refusals, requests, dropped, params\./],
    ] as const) {
      const res = await postJson(`${app.url}${DRAFT}/${created.id}/reports`, body);
      const got = (await res.json()) as { error: string; hint: string };
      expect([res.status, got.error], JSON.stringify(body)).toEqual([400, "invalid_report"]);
      expectPlain(got.hint, hint, body);
    }
  });
});

describe("the demo API's refusals of a query", () => {
  it("names owner and where owner ids come from", () => {
    const { status, body } = demoApiResponse({ path: "/cx/book", search: new URLSearchParams() });
    expect(status).toBe(400);
    expect(body).toEqual({ error: "owner_required", hint: expect.stringMatching(/^owner is required: an ownerId from \/cx\/owners, as \?owner=<ownerId>/) });
  });

  it("names the values a parameter takes", () => {
    const { status, body } = demoApiResponse({ path: "/cx/book", search: new URLSearchParams("owner=x&basis=nope") });
    expect(status).toBe(400);
    expect(body).toEqual({ error: "invalid_query", hint: 'basis: must be "real" or "activity", not "nope"' });
  });
});
