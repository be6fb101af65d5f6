import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX, DASHBOARD_PARAMS_MAX } from "@/lib/frame/params";
import { checkDraft } from "@/lib/check";
import { endpoints } from "@/lib/contract/endpoints";
import { PLAYGROUND_BASE, draftUpdate, type DraftCreated, type DraftEvent, type DraftUpdated } from "@/lib/contract/playground";
import { describeShape } from "@/lib/contract/describe";
import { LIMIT_DEFAULT, LIMIT_MAX } from "@/lib/contract/query";
import { defaultScenario } from "@/lib/demo-api/data";
import { draftFrame } from "@/lib/live/sse";

// The parts of llms.txt that walk an agent through a task: one draft from creation to the
// event a watcher receives, the update rules, recipes, telling demo data from live, and taking
// a screenshot. Bodies are built from the contract's types and the code that frames events, and
// the example's findings are the static check's own, so the text shows what the service sends.

/** Lines of Markdown; `code` adds a fenced block. */
export class Doc {
  readonly lines: string[] = [];
  push(...lines: string[]): this {
    this.lines.push(...lines);
    return this;
  }
  code(lang: string, text: string): this {
    return this.push("```" + lang, text, "```", "");
  }
}

// Example capability values of the real lengths (16 and 32 random bytes, base64url).
const EXAMPLE_READ_ID = "dR7kQ2vZ1mXo4TbE7hWc9A";
const EXAMPLE_WRITE_TOKEN = "wT3nL0pYx7sK2aQe9VdU5rGm1cJz8bF4oHi6uTnXy0s";
const EXAMPLE_DASH = "my-book";

const dashboard = (title: string, line: string) =>
  [
    `<!doctype html>`,
    `<html lang="en">`,
    `<title>${title}</title>`,
    `<h1>${title}</h1>`,
    `<p id="who">Loading…</p>`,
    `<script>`,
    `  const API = window.DASHBOARD_API_BASE || "/api";`,
    `  fetch(API + "/me").then(async (res) => {`,
    `    const body = await res.json();`,
    `    document.getElementById("who").textContent = res.ok ? ${line} : body.hint || body.error;`,
    `  });`,
    `</script>`,
    `</html>`,
  ].join("\n");

/** The two revisions of the worked example. */
export const exampleHtml = {
  created: dashboard("My book", `"Signed in as " + body.email`),
  updated: dashboard("My book of business", `body.email + " (" + (body.groups || []).join(", ") + ")"`),
} as const;

/** Every body of the worked example, as the service would send it for the given origin. */
export function workedExample(origin: string) {
  const base = `${origin}${PLAYGROUND_BASE}`;
  const urls = { watchUrl: `${base}/watch/${EXAMPLE_READ_ID}`, eventsUrl: `${base}/draft/${EXAMPLE_READ_ID}/events` };
  const createBody = { html: exampleHtml.created, scenario: defaultScenario, dash: EXAMPLE_DASH };
  const created: DraftCreated = {
    id: EXAMPLE_READ_ID,
    postUrl: `${base}/draft/${EXAMPLE_WRITE_TOKEN}`,
    eventsUrl: urls.eventsUrl,
    watchUrl: urls.watchUrl,
    revision: 1,
    warnings: checkDraft(exampleHtml.created),
  };
  const updateBody = { html: exampleHtml.updated, baseRevision: 1 };
  const updated: DraftUpdated = { id: EXAMPLE_READ_ID, revision: 2, warnings: checkDraft(exampleHtml.updated), ...urls };
  const event: DraftEvent = { revision: 2, scenario: defaultScenario, examples: {}, dash: EXAMPLE_DASH, html: exampleHtml.updated };
  return { createBody, created, updateBody, updated, event, frame: new TextDecoder().decode(draftFrame(event)) };
}

const json = (v: unknown) => JSON.stringify(v, null, 2);
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function workedExampleSection(doc: Doc, origin: string): void {
  const ex = workedExample(origin);
  doc.push(`## Worked example: create, update, watch`, "");
  doc.push(`A dashboard that greets the signed-in person. The ids and tokens below are examples of the real form; yours come in the 201 answer.`, "");
  doc.push(`1. Create it. The HTML:`, "");
  doc.code("html", exampleHtml.created);
  doc.push(`   sent as JSON (\`POST ${origin}${PLAYGROUND_BASE}/draft\`, \`Content-Type: application/json\`):`, "");
  doc.code("json", json(ex.createBody));
  doc.push(`   The answer, 201:`, "");
  doc.code("json", json(ex.created));
  doc.push(`2. Watch it, as the human's page does (\`-N\`: print each event as it arrives). On connect the stream sends the current revision at once:`, "");
  doc.code("sh", `curl -sS -N ${shellQuote(ex.created.eventsUrl)}`);
  doc.push(`3. Update it: \`POST\` to \`postUrl\` (\`Content-Type: application/json\`). \`baseRevision\` makes the update refuse (409) if someone else updated first:`, "");
  doc.code("json", json(ex.updateBody));
  doc.push(`   The answer, 200:`, "");
  doc.code("json", json(ex.updated));
  doc.push(`4. Every watcher receives the new revision at once, as a \`draft\` event whose \`id:\` is the revision and whose \`data\` is one line of JSON:`, "");
  doc.code("text", ex.frame.trimEnd());
}

/**
 * How an update treats each field. Kept in one section so it can follow the update rules as
 * they change.
 */
export function updateSemanticsSection(doc: Doc): void {
  doc.push(`## Update semantics`, "");
  doc.push(
    `\`POST <postUrl>\` (that is \`/dashboards/playground/draft/<write_token>\`) with a JSON body of this shape (or \`text/html\`: the new HTML alone):`,
    "",
  );
  doc.code("ts", `type DraftUpdate = ${describeShape(draftUpdate, "input")};`);
  doc.push(
    "",
    `- Every field is optional, \`html\` included.`,
    `- A field present replaces its value.`,
    `- \`null\` clears a field: \`examples: null\` forces no variants (the scenario's choices apply), \`scenario: null\` goes back to \`${defaultScenario}\`, \`dash: null\` leaves the draft without a suggested name.`,
    `- A field left out keeps its current value.`,
    `- \`dataMode\` is fixed at creation: asking for the other one answers 409 \`data_mode_fixed\`.`,
    `- At least one of \`html\`, \`scenario\`, \`examples\` and \`dash\` is sent; otherwise 400 \`invalid_draft\` ("Nothing to update").`,
    `- A document that is empty, or only whitespace and comments, is refused with 400 \`invalid_draft\` and publishes nothing: watchers keep the last revision. (To see findings without publishing anything, \`POST ${PLAYGROUND_BASE}/check\`.)`,
    `- Example: \`{"scenario": "outage"}\` switches the demo state and keeps the HTML; \`{"examples": null}\` drops every forced variant.`,
    `- \`baseRevision\` (an integer) makes the update refuse with 409 \`revision_conflict\` unless it is the current revision; the current one is in \`hint\`.`,
    `- Each accepted update is the next \`revision\` and reaches every watcher at once. A refused update changes nothing.`,
    "",
  );
}

const helper = [
  `const API = window.DASHBOARD_API_BASE || "/api";`,
  ``,
  `// A non-2xx answer is {error, hint?}: keep its status and code so the page can show the state.`,
  `async function getJson(path) {`,
  `  const res = await fetch(API + path);`,
  `  const body = await res.json().catch(() => ({}));`,
  `  if (!res.ok) throw Object.assign(new Error(body.hint || body.error || "HTTP " + res.status), { status: res.status, code: body.error });`,
  `  return body;`,
  `}`,
].join("\n");

/** The recipes' scripts; each passes the static check as it stands. */
export const recipeScripts = {
  myBook: [
    helper,
    ``,
    `async function myBook() {`,
    `  const me = await getJson("/me");`,
    `  const owners = await getJson("/cx/owners");`,
    `  if (!owners.ok) return { waitingOn: owners.waitingOn };`,
    `  const mine = owners.data.owners.find((o) => o.email.toLowerCase() === me.email.toLowerCase());`,
    `  if (!mine) return { rows: [], note: "You have no book of business." };`,
    `  const book = await getJson("/cx/book?owner=" + encodeURIComponent(mine.ownerId));`,
    `  if (!book.ok) return { waitingOn: book.waitingOn };`,
    `  return { rows: book.data.rows };`,
    `}`,
  ].join("\n"),
  everyPage: [
    `const API = window.DASHBOARD_API_BASE || "/api";`,
    ``,
    `async function everyPage(path, listKey) {`,
    `  const items = [];`,
    `  let cursor = null;`,
    `  do {`,
    `    const sep = path.includes("?") ? "&" : "?";`,
    `    const res = await fetch(API + path + (cursor ? sep + "cursor=" + encodeURIComponent(cursor) : ""));`,
    `    const body = await res.json().catch(() => ({}));`,
    `    if (!res.ok) throw Object.assign(new Error(body.hint || body.error || "HTTP " + res.status), { status: res.status, code: body.error });`,
    `    items.push(...body[listKey]);`,
    `    cursor = body.nextCursor;`,
    `  } while (cursor);`,
    `  return items;`,
    `}`,
    ``,
    `const companies = everyPage("/crm/customers/companies?limit=${LIMIT_MAX}", "companies");`,
    `const conversations = everyPage("/vendors/support/conversations", "conversations");`,
  ].join("\n"),
} as const;

/** Paged endpoints, from the registry: path, list key and whether `limit` is taken. */
export function pagedEndpoints(): { path: string; list: string; limit: boolean }[] {
  return endpoints.flatMap((e) => {
    const list = "pagedList" in e ? e.pagedList : undefined;
    if (!list) return [];
    const shape = (e.query as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    return [{ path: e.path, list, limit: "limit" in shape }];
  });
}

export function recipesSection(doc: Doc, origin: string): void {
  const base = `${origin}${PLAYGROUND_BASE}`;
  doc.push(`## Task recipes`, "");

  doc.push(`### The signed-in CSM's own book of business`, "");
  doc.push(
    `1. \`GET /me\` → \`email\`.`,
    `2. \`GET /cx/owners\` → the owner whose \`email\` matches (compare case-insensitively) → its \`ownerId\`. No match: this person has no book; say so.`,
    `3. \`GET /cx/book?owner=<ownerId>\` → \`data.rows\`, one per company. Add \`days\` (1 to 365, default 30) or \`from\`/\`to\` (YYYY-MM-DD) for another window.`,
    `Both CX answers may be \`{ok: false, waitingOn}\`: show that text, not an empty book. Without the \`cx.read\` permission they answer 403 \`forbidden\`: a state to show.`,
    "",
  );
  doc.code("js", recipeScripts.myBook);

  doc.push(`### Every page of a paged list`, "");
  const paged = pagedEndpoints();
  doc.push(
    `These endpoints answer one page at a time, as \`{<list>, nextCursor}\`:`,
    "",
    ...paged.map((p) => `- \`${p.path}\`: list \`${p.list}\`${p.limit ? `; \`limit\` 1 to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}` : `; no \`limit\``}`),
    "",
    `Pass \`nextCursor\` back as \`cursor\` (keeping the other query parameters) until it is \`null\`. A cursor the server did not issue answers 400 \`invalid_cursor\`. Every other endpoint answers its whole list at once. A draft's own revisions page the same way: \`GET ${base}/draft/<read_id>/revisions\`.`,
    "",
  );
  doc.code("js", recipeScripts.everyPage);

  doc.push(`### Demo data or live data`, "");
  doc.push(
    `No answer says which it is: demo answers have the same shapes and status codes as live ones, and the frame hands the dashboard only an answer's status, content type and body, so no field or header tells them apart. The frame says it instead: \`window.DASHBOARD_DATA_MODE\` is \`"demo"\` whenever the dashboard runs on demo data (a demo-mode draft, the editor's preview, the service's renders, or a live draft or saved dashboard whose viewer chose demo data) and \`"live"\` when it reads the viewer's own data. Compare that, never the API base (a URL written in code is a \`hardcoded-api-base\` finding):`,
    "",
  );
  doc.code("js", `const API = window.DASHBOARD_API_BASE || "/api";\nconst onDemoData = window.DASHBOARD_DATA_MODE === "demo";`);
  doc.push(`Label the page "Demo data" when \`onDemoData\` is true. Do not guess from the data itself: the demo viewer looks like a real person.`, "");

  doc.push(`### Windows from the address`, "");
  doc.push(
    `A watch page or saved dashboard opened with \`?p.<name>=<value>\` hands the dashboard those values as \`window.DASHBOARD_PARAMS\`: \`/~/<handle>/<slug>?p.days=90&p.from=2026-01-01\` gives \`{days: "90", from: "2026-01-01"}\`, so one saved dashboard serves several windows (a link per team, a wall screen on the last quarter). Anyone can write an address, so the page passes on only names of lower-case letters, digits and \`_\` (${DASHBOARD_PARAM_NAME.source}), values of at most ${DASHBOARD_PARAM_VALUE_MAX} characters without control characters, the first of a repeated name and at most ${DASHBOARD_PARAMS_MAX} of them; it says above the frame which it left out. Values are always strings, the object is frozen and has no prototype, and it is \`{}\` when the address has none (the editor's preview and the service's renders pass none). Check each value against the shape you expect and fall back to a default; write it into the page as text, never as markup:`,
    "",
  );
  doc.code(
    "js",
    `const params = window.DASHBOARD_PARAMS || {};\nconst days = /^[0-9]{1,3}$/.test(params.days || "") ? Number(params.days) : 30;\nconst from = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(params.from || "") ? params.from : null;`,
  );
  doc.push(
    `The page shows a labelled input above the frame for each parameter the code reads and each the address gives; applying writes them into the address and starts the dashboard again with them, and an empty value takes one out. Read each by a literal name (\`params.days\`, \`params["from"]\`, \`const { days } = params\` on \`const params = window.DASHBOARD_PARAMS || {}\`) so the page can offer it: a name computed at run time (\`params[key]\`) is read but not offered.`,
    "",
  );
  doc.push(`Pass the window on in the query the API takes (the CX views with a window take \`days\`, or \`from\` and \`to\`: \`API + "/cx/districts?days=" + days\`), and say it on the page ("Last 90 days").`, "");
}

export function screenshotSection(doc: Doc, origin: string): void {
  const watch = `${origin}${PLAYGROUND_BASE}/watch/<read_id>?static=1`;
  doc.push(`## A screenshot of a draft`, "");
  doc.push(
    `\`${PLAYGROUND_BASE}/watch/<read_id>?static=1\` (\`watchUrl\` plus \`?static=1\`) renders the current revision once, with no event stream, and sets \`data-rendered="true"\` on the document root once the dashboard's requests have settled. Take the picture then. With Chromium (\`--virtual-time-budget\` lets the page's requests finish before the picture is taken):`,
    "",
  );
  doc.code("sh", `chromium --headless --screenshot=draft.png --window-size=1440,900 --virtual-time-budget=10000 '${watch}'`);
  doc.push(`With Playwright (your own script, not dashboard code):`, "");
  doc.code(
    "ts",
    [
      `await page.setViewportSize({ width: 1440, height: 900 });`,
      `await page.goto(watchUrl + "?static=1");`,
      `await page.waitForSelector('html[data-rendered="true"]');`,
      `await page.screenshot({ path: "draft.png", fullPage: true });`,
    ].join("\n"),
  );
}
