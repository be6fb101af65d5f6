import { describeShape } from "@/lib/contract/describe";
import { endpoints, errorsOf } from "@/lib/contract/endpoints";
import { errorCatalogue } from "@/lib/contract/errors";
import { DRAFT_HTML_MAX_BYTES, PLAYGROUND_API_BASE, PLAYGROUND_BASE, draftCreated, draftInput } from "@/lib/contract/playground";
import { checkRules } from "@/lib/check";
import { SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/protocol";
import { defaultScenario, scenarios, variantsFor } from "@/lib/playground/demo-data";
import { DOCS_PATH, OPENAPI_PATH, docsSections, sectionMarkdownPath } from "./sections";

// /dashboards/playground/llms.txt: the agent protocol, in the llms.txt format (an H1, a
// summary blockquote, then sections). Everything about endpoints, scenarios, variants and check
// rules is generated from the same registry as /endpoints, so the text cannot drift from the
// service.

function queryLine(path: string): string {
  const e = endpoints.find((x) => x.path === path);
  const shape = (e?.query as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const keys = Object.keys(shape);
  return keys.length ? `query: ${keys.join(", ")}` : "no query";
}

export function llmsText(origin: string): string {
  const base = `${origin}${PLAYGROUND_BASE}`;
  const out: string[] = [];
  const code = (lang: string, text: string) => out.push("```" + lang, text, "```", "");
  out.push(`# Dashboards playground`, "");
  out.push(
    `> Draft a data dashboard as ONE self-contained HTML document, let a human watch it render live against realistic demo data (or their own data), and keep improving it. No credentials are needed. You hold a secret write URL; the human gets a read-only watch URL. Saving a dashboard into someone's space is their own signed-in action: you cannot do it for them.`,
    "",
  );
  out.push(`## Protocol`, "");
  out.push(`1. Create a draft: \`POST ${base}/draft\` with \`Content-Type: application/json\` and a body of this shape (only \`html\` is required):`, "");
  code("ts", describeShape(draftInput));
  out.push(`   Or send the HTML itself with \`Content-Type: text/html\` (other fields as query parameters: \`scenario\`, \`dash\`, \`dataMode\`, \`baseRevision\`):`, "");
  code("sh", `curl -sS -X POST '${base}/draft?scenario=${defaultScenario}&dash=my-dashboard' -H 'Content-Type: text/html' --data-binary @dashboard.html`);
  out.push(`2. The answer (201):`, "");
  code("ts", describeShape(draftCreated));
  out.push(`   Keep \`postUrl\` to yourself: it carries the write token. Give the human \`watchUrl\`; it can only read.`);
  out.push(
    `3. Update: \`POST\` the same kind of body to \`postUrl\`. Each accepted update gets the next \`revision\` (1 at creation, then +1) and reaches every watcher at once. Send \`baseRevision\` to refuse the update when someone else updated first (409 \`revision_conflict\`, current revision in \`hint\`). \`dataMode\` is fixed at creation (409 \`data_mode_fixed\`).`,
  );
  out.push(`4. Read \`warnings\` in every answer: the same static check the editor runs. Fix \`error\` and \`warning\` findings; \`info\` is advice.`);
  out.push(
    `5. Watch like the human does: \`GET ${base}/draft/<id>/events\` is a server-sent event stream; each \`draft\` event's data is \`{revision, scenario, dash, html}\` and its \`id:\` is the revision. \`GET ${base}/draft/<id>\` answers the current draft as JSON, and \`GET ${base}/draft/<id>/revisions\` the kept revisions, newest first, a page at a time (\`?limit=\` 1 to 50, default 10; a page also stops before 8 MiB of JSON): follow \`nextCursor\` as \`?cursor=\` until it is null.`,
  );
  out.push(`6. When the human likes it, they press "Save to my space" on the watch page. Nothing you hold can save.`, "");
  out.push(`## Writing the dashboard`, "");
  out.push(
    `- Read the API base from the page: \`const API = window.DASHBOARD_API_BASE || "/api";\` and fetch \`API + "/me"\`, never a hard-coded \`/api\` or playground URL. In the playground it is \`${PLAYGROUND_API_BASE}\`; in a saved dashboard it is \`/api\`.`,
    `- Only GET requests reach the API. Nothing else leaves the dashboard's frame: no external scripts, styles, fonts or images (inline everything), no cookies or storage, no navigation of the top page.`,
    `- Every non-2xx answer is \`{error, hint?}\`. Check \`res.ok\` before reading data, and show the human the \`hint\`. Not connected (401 \`<vendor>_not_connected\`), not configured (503) and not opted in (403) are normal states: render them as such.`,
    `- Paged endpoints answer \`nextCursor\`; pass it back as \`cursor\` until it is null.`,
    `- The CX endpoints answer \`{ok: true, data}\` or \`{ok: false, waitingOn}\`: when \`ok\` is false, show the \`waitingOn\` text, not zeroes.`,
    `- \`arr\` in CX book rows is DISTRICT grain: the same figure is carried on each school of a district. Never sum it across schools; take one value per \`districtName\`.`,
    `- \`basis=activity\` is a derived stand-in (grouped by who logged a touch): label it "derived" on the page.`,
    `- \`priority\` is a heuristic triage rank, not an SLA, target, guarantee or earned score: show its \`reasons\`.`,
    `- \`daysSinceContact: null\` means no touch within the window, not "never touched".`,
    `- Embedding a data snapshot is allowed, and useful as a fallback beside live fetching: see "Snapshot fallback" below.`,
    `- Never put \`scenario\` in dashboard code: it is a playground control.`,
    "",
  );
  out.push(`## Snapshot fallback`, "");
  out.push(
    `Embed the data in a JSON block with the time it was taken (\`${SNAPSHOT_TAKEN_AT_ATTRIBUTE}\`: an ISO-8601 date, or a date and time with \`Z\` or an offset). A dashboard with only a snapshot needs no API at all. One that fetches falls back to its snapshot when a fetch fails (network error, any non-200, or \`waitingOn\`): it calls \`window.${SNAPSHOT_HELPER}()\`, which answers \`{data, takenAt}\` (null when there is no snapshot or it is not JSON; \`takenAt\` null when the time is missing or not ISO-8601) and makes the page around the dashboard say "Showing snapshot data from <time>". Say on the page why live data is missing, too. Outside the dashboard frame the function does not exist; read the element directly there.`,
    "",
  );
  code(
    "html",
    [
      `<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="2026-11-20T06:00:00Z">{"rows": [...]}</script>`,
      `<script>`,
      `  const API = window.DASHBOARD_API_BASE || "/api";`,
      `  function fallBack(reason) {`,
      `    const snap = typeof window.${SNAPSHOT_HELPER} === "function" ? window.${SNAPSHOT_HELPER}() : null;`,
      `    if (!snap) return showError(reason);`,
      `    showNotice(reason + " Showing the snapshot taken " + snap.takenAt + ".");`,
      `    render(snap.data.rows);`,
      `  }`,
      `  fetch(API + "/cx/districts").then(async (res) => {`,
      `    if (!res.ok) return fallBack((await res.json().catch(() => ({}))).error || "HTTP " + res.status);`,
      `    const body = await res.json();`,
      `    if (!body.ok) return fallBack(body.waitingOn);`,
      `    render(body.data.rows);`,
      `  }, () => fallBack("The API could not be reached."));`,
      `</script>`,
    ].join("\n"),
  );
  out.push(`## Scenarios and variants`, "");
  out.push(
    `Demo mode (the default) answers canned responses. Pick a scenario per draft (\`scenario\`), and a variant per API path (\`examples\`: path → variant); variants mix freely. Default scenario: \`${defaultScenario}\` (every endpoint at its richest variant). A path with no example answers 404 \`no_example\`. To try one variant on a single request, add \`?variant=<name>\` to that request (playground only; it never belongs in dashboard code). Full list as JSON: ${base}/scenarios`,
    "",
  );
  for (const s of scenarios) out.push(`- \`${s.name}\`: ${s.description}`);
  out.push("", `Variants by path:`, "");
  for (const e of endpoints) out.push(`- \`${e.path}\`: ${variantsFor(e.path).map((v) => `\`${v}\``).join(", ")}`);
  out.push(
    "",
    `\`live\` data mode reads the watching human's own API as them, GET only; a signed-out watcher sees their own 401s. Only demo mode can show empty, not-connected and outage states.`,
    "",
    `Before a live draft (or someone else's saved dashboard) runs on a signed-in human's data, they are asked, and shown the API paths your code reads; nothing runs until they agree, and they may choose demo data instead. After they agree, only those paths are answered: any other read gets 403 \`read_not_agreed\`. The paths are read from your code, so write every API path literally (\`API + "/crm/customers/companies"\`, or \`"/cx/book"\` handed to a helper); a path built at run time (from data, atob, arrays joined) cannot be shown and is refused. \`GET ${base}/draft/<read_id>\` answers the list as \`reads\` (\`paths\`, and \`complete: false\` when some request's path cannot be read ahead). A revision that reads more than was agreed asks again. WebRTC is removed from the frame.`,
    "",
  );
  out.push(`## Endpoints`, "", `All GET, relative to the API base. Full JSON Schemas: ${base}/endpoints`);
  for (const e of endpoints) {
    out.push("", `### GET ${e.path}`, "", `${e.summary}. ${queryLine(e.path)}.`, "");
    code("ts", describeShape(e.response));
    out.push(`Errors: ${errorsOf(e).map((c) => `${errorCatalogue[c].status} \`${c}\``).join(", ")}.`);
  }
  out.push("", `## Static check rules`, "");
  for (const r of checkRules) out.push(`- \`${r.id}\` (${r.severity}): ${r.description}`);
  out.push("", `## Limits`, "");
  out.push(
    `- \`html\` at most ${DRAFT_HTML_MAX_BYTES / 1024 / 1024} MiB (413 \`draft_too_large\`). JSON or text/html only (415 \`unsupported_media_type\`).`,
    `- Creations per client address, updates per draft and open event streams are rate-limited: 429 \`rate_limited\` with \`Retry-After\`.`,
    `- Drafts expire after a period without updates; an expired draft answers 404 \`no_such_draft\`, like an unknown one.`,
    `- Browsers may not write to a draft from another site (403 \`cross_site_write\`); call from your own process.`,
    "",
  );
  out.push(`## API reference`, "", `The reference at ${origin}${DOCS_PATH}, section by section as Markdown:`, "");
  for (const s of docsSections) out.push(`- [${s.title}](${origin}${sectionMarkdownPath(s.slug)}): ${s.summary}`);
  out.push(`- [The whole reference](${origin}${sectionMarkdownPath("index")}): every section in one document`, "");
  out.push(
    `## Optional`,
    "",
    `- [Scenarios as JSON](${base}/scenarios)`,
    `- [Endpoint schemas as JSON](${base}/endpoints)`,
    `- [OpenAPI 3.1 document](${origin}${OPENAPI_PATH})`,
    "",
  );
  return out.join("\n");
}
