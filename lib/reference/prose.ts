import { errorCatalogue, type ErrorCode } from "@/lib/contract/errors";
import { DRAFT_HTML_MAX_BYTES, PLAYGROUND_API_BASE, PLAYGROUND_BASE, SCENARIO_PARAM, VARIANT_PARAM } from "@/lib/contract/playground";
import { LIMIT_DEFAULT, LIMIT_MAX } from "@/lib/contract/query";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { snapshotPolicy } from "@/lib/frame/snapshot-policy";
import { dashboardParamsConvention } from "@/lib/frame/params";
import { checkRules } from "@/lib/check";
import { defaultPlaygroundSettings } from "@/lib/playground/settings";
import { defaultScenario, scenarios, variantGlossary } from "@/lib/demo-api/data";
import { OPENAPI_PATH, sectionMarkdownPath, type SectionSlug } from "./sections";
import type { Block } from "./types";

// The reference's prose: the conventions every endpoint shares, and the introductions of the
// sections. Facts that live in code (limits, codes, scenario names, check rules) are read from
// it here rather than restated.

const p = (text: string): Block => ({ kind: "p", text });
const h = (text: string, id?: string): Block => (id ? { kind: "h", text, id } : { kind: "h", text });
const list = (...items: string[]): Block => ({ kind: "list", items });
const code = (lang: string, label: string, text: string): Block => ({ kind: "code", lang, label, text });

const rule = (id: (typeof checkRules)[number]["id"]) => `\`${id}\``;

function errorTable(): Block {
  const rows = (Object.entries(errorCatalogue) as [ErrorCode, { status: number; description: string }][])
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([codeName, e]) => [String(e.status), `\`${codeName}\``, e.description]);
  return { kind: "table", caption: "Every error code", head: ["status", "error", "meaning"], rows };
}

function conventionsIntro(): Block[] {
  return [
    p(
      "Dashboards read this API from the browser, as the person viewing them. Every endpoint is a `GET` that answers JSON; each one below lists its query parameters, every field of its answer, its errors and an example from the demo data. " +
        `The same facts are served as [OpenAPI 3.1](${OPENAPI_PATH}) and as Markdown ([whole reference](${sectionMarkdownPath("index")}); each section links its own).`,
    ),

    h("API base", "api-base"),
    p(
      "Every API path is relative to the API base. A dashboard reads it from the page and never hard-codes it: in a saved dashboard it is `/api`, in the playground it is " +
        `\`${PLAYGROUND_API_BASE}\`, where the same paths answer canned demo data.`,
    ),
    code("js", "Reading the API base", 'const API = window.DASHBOARD_API_BASE || "/api";\n\nasync function loadMe() {\n  const res = await fetch(`${API}/me`);\n  if (!res.ok) throw new Error((await res.json()).hint || `HTTP ${res.status}`);\n  return res.json();\n}'),
    list(
      "Only `GET` (and `HEAD`) reach the API; any other method answers 405 `method_not_allowed` with `Allow: GET`. A path the API does not know answers 404 `not_found`.",
      "Answers carry `Cache-Control: private, no-store`: they are the viewer's own data.",
      `Inside a dashboard, requests travel through the page's GET-only data broker; the static check (rule ${rule("hardcoded-api-base")}) flags a hard-coded base.`,
    ),

    h("Sign-in", "sign-in"),
    p(
      `The API acts as the signed-in person. The session is an opaque cookie, \`${SESSION_COOKIE}\` (\`HttpOnly\`, \`SameSite=Lax\`, \`Secure\` on https), set by signing in at \`/signin\`. Without a valid session every endpoint answers 401 \`unauthorized\`. A dashboard never handles credentials: the page it runs in sends the viewer's own session.`,
    ),
    p(
      "With the demo sign-in (a deployment without an identity provider), a script can sign in as a demo user and keep the cookie; with an identity provider, sign in with a browser instead.",
    ),
    code("sh", "Signing in with curl (demo sign-in)", "curl -sS -c cookies.txt -d email=csm@demo.test '{origin}/signin/demo'\ncurl -sS -b cookies.txt '{origin}/api/me'"),
    list(
      "Permissions come from groups: everyone may read the `customers` CRM instance; `admin` adds the `users` instance; `cx` adds the customer-success views. Otherwise: 403 `forbidden`.",
      "Connector-backed reads need the viewer to have connected that system at `/connections`: 401 `<slug>_not_connected` otherwise. Call recordings read through one shared credential and need the viewer's opt-in: 403 `calls_not_opted_in`.",
      "A system this deployment has not configured answers 503 `<slug>_not_configured`; one that fails or does not answer in time, 502 `<slug>_upstream_error`.",
    ),

    h("The error envelope", "error-envelope"),
    p(
      "Every non-2xx answer, from the API and the playground alike, is `{error, hint?}`: `error` is a stable code to branch on, `hint` a next step to show a person. Check `res.ok` before reading data, and treat not connected, not configured and not opted in as normal states to render, not failures.",
    ),
    {
      kind: "table",
      caption: "The error envelope",
      head: ["field", "type", "required", "notes"],
      rows: [
        ["`error`", "string", "yes", "Stable error code"],
        ["`hint`", "string", "no", "Optional next step"],
      ],
    },
    code(
      "js",
      "Handling an error",
      'const API = window.DASHBOARD_API_BASE || "/api";\n\nasync function loadIssues() {\n  const res = await fetch(`${API}/vendors/tracker/issues`);\n  if (!res.ok) {\n    const { error, hint } = await res.json();\n    // tracker_not_connected is a state to show, with the hint: connect the tracker.\n    return { error, hint, issues: [] };\n  }\n  return res.json();\n}',
    ),
    errorTable(),

    h("Cursor paging", "cursor-paging"),
    p(
      `The CRM lists (\`/crm/:instance/companies\`, \`contacts\`, \`deals\`) and \`/vendors/support/conversations\` answer one page and \`nextCursor\`. Pass \`nextCursor\` back as \`cursor\` for the next page; it is \`null\` on the last one. \`limit\` (CRM lists) is ${LIMIT_DEFAULT} by default and at most ${LIMIT_MAX}; anything else answers 400 \`invalid_query\`. A cursor the server did not issue answers 400 \`invalid_cursor\`. CRM cursors are keyset cursors: paging stays complete and free of duplicates while records are added. The CRM portal's direct lists (\`/vendors/crmportal/*\`) are not paged: the whole list comes in one answer.`,
    ),
    code(
      "js",
      "Following nextCursor",
      `const API = window.DASHBOARD_API_BASE || "/api";\n\nasync function allCompanies() {\n  const companies = [];\n  let cursor = null;\n  do {\n    const q = new URLSearchParams({ limit: "${LIMIT_MAX}" });\n    if (cursor) q.set("cursor", cursor);\n    const res = await fetch(\`\${API}/crm/customers/companies?\${q}\`);\n    if (!res.ok) throw new Error((await res.json()).hint || \`HTTP \${res.status}\`);\n    const page = await res.json();\n    companies.push(...page.companies);\n    cursor = page.nextCursor;\n  } while (cursor);\n  return companies;\n}`,
    ),

    h("The CX wrapper and waitingOn", "cx-wrapper"),
    p(
      "The three customer-success endpoints answer 200 with either `{ok: true, data}` or `{ok: false, waitingOn}`. The second is not an error: the deployment cannot answer yet (its first CRM sync is still running, say), and the dashboard must show the `waitingOn` text, never zeroes or an empty table.",
    ),
    code(
      "js",
      "Reading a CX answer",
      'const API = window.DASHBOARD_API_BASE || "/api";\n\nasync function loadDistricts() {\n  const res = await fetch(`${API}/cx/districts`);\n  if (!res.ok) throw new Error((await res.json()).hint || `HTTP ${res.status}`);\n  const body = await res.json();\n  if (!body.ok) return { waitingOn: body.waitingOn, rows: null };\n  return { waitingOn: null, rows: body.data.rows };\n}',
    ),
    p(
      `The window of \`/cx/book\` and \`/cx/districts\` is \`days\` (1 to 365, default 30) or \`from\` and \`to\` together (\`YYYY-MM-DD\`, \`from\` not after \`to\`). \`daysSinceContact\` counts to the end of the window, not today, and \`null\` means no touch within the window, which is not the same as never touched.`,
    ),

    p(`One saved dashboard can serve several windows from its address. ${dashboardParamsConvention}`),
    code(
      "js",
      "A window from the address",
      'const API = window.DASHBOARD_API_BASE || "/api";\nconst params = window.DASHBOARD_PARAMS || {};\nconst days = /^[0-9]{1,3}$/.test(params.days || "") ? Number(params.days) : 30;\n\nasync function loadDistricts() {\n  const res = await fetch(`${API}/cx/districts?days=${days}`);\n  if (!res.ok) throw new Error((await res.json()).hint || `HTTP ${res.status}`);\n  return res.json();\n}',
    ),

    p(
      "Above the dashboard, the page shows a labelled input for each parameter the dashboard's code reads and each the address gives, so a person can change the window without writing the address: Apply (or Enter) writes the values into the address as `p.<name>=<value>`, keeps its other parameters and starts the dashboard again with the new `DASHBOARD_PARAMS`; an empty value takes that parameter out. A value the page would not pass is refused beside its input and changes nothing. The static check finds the names read by a literal name: `DASHBOARD_PARAMS.days`, `DASHBOARD_PARAMS[\"from\"]`, `(window.DASHBOARD_PARAMS || {}).team`, and on `const params = window.DASHBOARD_PARAMS || {}` `params.days` or `const { days } = params`. A name computed at run time (`params[key]`) still reads its value but is not offered.",
    ),

    h("District-grain ARR", "district-arr"),
    p(
      `\`arr\` on a \`/cx/book\` row is the district's figure, carried on each school of the district. Never sum it across the schools of one district: take one value per \`districtName\`. Per-district figures are a group-by on \`districtName\` over the rows; the endpoint does not pre-aggregate them. The static check flags a summed \`arr\` (${rule("arr-summed")}).`,
    ),

    h("The derived activity basis", "activity-basis"),
    p(
      `\`/cx/book\` answers the CRM portal's actual book assignment by default (\`basis=real\`). \`basis=activity\` is a stand-in that groups companies by who logged a touch; the answer echoes \`basis\`, and a dashboard that uses it must label the book as derived (${rule("activity-basis-unlabelled")}).`,
    ),

    h("Priority is a heuristic", "priority"),
    p(
      `\`priority\` on a book row is a triage rank: \`score\`, \`percentile\` (1 to 100, within this book) and \`reasons\`. It is not an SLA, a target, a guarantee or an earned score; present it as a suggestion and show its \`reasons\` (${rule("priority-misrepresented")}).`,
    ),

    h("Freshness and caching", "freshness"),
    list(
      "Reads of outside systems (`/vendors/*`) are cached per person, in memory: an answer is fresh for 30 seconds, then served stale for up to 5 minutes while one refresh runs. Failures are never cached; connecting, disconnecting or opting in drops that person's cached answers at once.",
      "CRM data arrives by sync, at start and every 15 minutes by default; `/crm/:instance/sources` tells how fresh it is. Before an instance's first completed sync its data endpoints answer 503 `crm_not_synced`, and the CX views answer `waitingOn`.",
      `A dashboard may embed its own data instead of fetching, or keep an embedded snapshot as a fallback beside live fetching. ${snapshotPolicy} The static check also notes a dashboard that only embeds data (${rule("snapshot-without-live")}), since it will not update.`,
    ),
  ];
}

function apiSectionIntro(slug: SectionSlug): Block[] {
  switch (slug) {
    case "me":
      return [p("Who is signed in, what they pinned, and where their home page is. Every answer is the calling person's own.")];
    case "connections":
      return [
        p(
          "Runs one connector's read-only probe as the calling person. Branch on `ok`: it is true exactly when the probe succeeded; `status` says why not (`not-configured`, `not-connected`, `failed`).",
        ),
      ];
    case "crm":
      return [
        p(
          "The CRM portal's data, normalised and synced into this deployment. `:instance` is `customers` (external customers, monetary) or `users` (internal staff, admin-only, non-monetary: no deals, no pipeline, `arr` null). Any other instance answers 404 `no_such_instance`.",
        ),
      ];
    case "vendors":
      return [
        p(
          "Direct reads of outside systems, as the viewer: the issue tracker, code hosting and call recordings (trailing 30 days, one shared credential, opt-in per viewer). Customer messaging and the CRM portal's own lists are on the next page.",
        ),
      ];
    case "messaging":
      return [
        p(
          "Direct reads, as the viewer: customer messaging (the conversation list, cursor-paged, and one conversation with its opening message, replies, internal notes and close; each person connects their own account) and the CRM portal's own lists (unpaged; the normalised, paged view with ARR and hierarchy is `/crm/customers/companies`).",
        ),
      ];
    case "cx":
      return [
        p(
          "Customer-success views over the CRM, product usage and health. Every answer is wrapped (see [the CX wrapper](#cx-wrapper)); `arr` is district grain, `basis=activity` is derived, and `priority` is a heuristic (see Conventions).",
        ),
      ];
    default:
      return [];
  }
}

function playgroundIntro(): Block[] {
  const s = defaultPlaygroundSettings;
  return [
    p(
      `The playground at \`${PLAYGROUND_BASE}\` is public and needs no credentials. An author (a person in [the editor](${PLAYGROUND_BASE}), or a program) creates a draft dashboard, updates it, and hands a human the read-only \`watchUrl\`, where it renders live. The agent protocol is also served as plain text at [llms.txt](${PLAYGROUND_BASE}/llms.txt).`,
    ),
    list(
      "`postUrl` carries the draft's secret write token: whoever holds it can update the draft. Keep it; never show it to the human.",
      "`watchUrl` carries only the read id and can never overwrite the draft. Unknown tokens and unknown ids both answer 404 `no_such_draft`, so neither can be probed.",
      "`revision` is 1 at creation and grows by exactly 1 with each accepted update. Send `baseRevision` to refuse an update when someone else updated first (409 `revision_conflict`, the current revision in `hint`).",
      "`dataMode` is fixed at creation (409 `data_mode_fixed`): `demo` (default) answers canned demo data; `live` reads the watching person's own API as them, GET only, so a signed-out watcher sees their own 401s.",
      "`dash` is the dashboard's suggested name (a slug); the watch page proposes it when the person saves.",
      "Browsers may not write to a draft from another site or from a dashboard's frame: 403 `cross_site_write`. Programs (which send no such headers) are unaffected.",
    ),
    h("Scenarios and variants", "scenarios"),
    p(
      `In demo mode each API path answers a variant: \`rich\` by default, or an empty, error or waiting state. A scenario is a preset over the variants; a draft's \`examples\` picks a variant per path, and variants mix freely. To try one on a single request, add \`?${SCENARIO_PARAM}=<name>\` or \`?${VARIANT_PARAM}=<name>\` to a demo API request: both are playground controls and never belong in dashboard code (${rule("scenario-in-code")}). Precedence: \`?${VARIANT_PARAM}\`, then \`?${SCENARIO_PARAM}\`, then the draft's \`examples\`, then its \`scenario\`, then the default (\`${defaultScenario}\`: every path \`rich\`).`,
    ),
    {
      kind: "table",
      caption: "Scenarios",
      head: ["scenario", "what it shows"],
      rows: scenarios.map((sc) => [`\`${sc.name}\``, sc.description]),
    },
    {
      kind: "table",
      caption: "Variants",
      head: ["variant", "meaning"],
      rows: Object.entries(variantGlossary).map(([name, description]) => [`\`${name}\``, description]),
    },
    h("Limits", "playground-limits"),
    list(
      `\`html\` is at most ${DRAFT_HTML_MAX_BYTES / 1024 / 1024} MiB (413 \`draft_too_large\`); bodies are JSON or \`text/html\` in UTF-8 (415 \`unsupported_media_type\`).`,
      `Rate limits (429 \`rate_limited\` with \`Retry-After\`), by default: ${s.createsPerMinute} creations per client address per minute, ${s.updatesPerMinute} updates per draft per minute, ${s.readsPerMinute} anonymous reads (draft, revisions, events) and ${s.demoReadsPerMinute} demo API reads per client address per minute, ${s.streamsPerDraft} open event streams per draft and ${s.streamsPerAddress} in all per client address.`,
      `A draft not updated for ${s.draftIdleDays} days (by default) is deleted and answers 404 \`no_such_draft\`, like an unknown one; the last ${s.historyKeep} revisions are kept.`,
    ),
    h("Static check", "static-check"),
    p("Every create and update answers `warnings`: the same static check the editor runs. Fix `error` and `warning` findings; `info` is advice."),
    {
      kind: "table",
      caption: "Static check rules",
      head: ["rule", "severity", "what it finds"],
      rows: checkRules.map((r) => [`\`${r.id}\``, r.severity, r.description]),
    },
  ];
}

function eventsIntro(): Block[] {
  return [
    p(
      "The draft stream is the only event stream. It carries the latest snapshot, not a queue: on connect the current draft is sent at once, and each accepted update is sent to every watcher immediately.",
    ),
    list(
      "Each event is named `draft`; its `id:` is the revision and its `data:` one line of JSON: `{revision, scenario, dash, html}`. The HTML arrives byte-identical.",
      "A reconnecting client sends `Last-Event-ID`; when it equals the current revision nothing is re-sent.",
      "Heartbeats (`:` comment lines) arrive every 15 seconds; a watcher that stops reading is dropped rather than buffered without bound.",
      "Headers: `Content-Type: text/event-stream`, `Cache-Control: no-cache, no-store, no-transform`, `X-Accel-Buffering: no`.",
    ),
    code("text", "One event on the wire", 'id: 3\nevent: draft\ndata: {"revision":3,"scenario":"default","dash":"my-book","html":"<!doctype html>…"}'),
    code(
      "js",
      "Watching a draft from a page",
      'const events = new EventSource(eventsUrl);\nevents.addEventListener("draft", (e) => {\n  const { revision, html } = JSON.parse(e.data);\n  render(revision, html);\n});',
    ),
    code("sh", "Watching a draft with curl", "curl -sS -N '{origin}/dashboards/playground/draft/<read_id>/events'"),
  ];
}

function savingIntro(): Block[] {
  return [
    p(
      "Saving puts a dashboard into a person's own space under `/~`. It is a signed-in human's action, taken on their own page (**Save to my space** on the watch page or in the editor): nothing an agent holds, a draft's write token included, can save.",
    ),
    list(
      "The request must be a same-origin request from the signed-in person's own page: a matching `Origin`, `Sec-Fetch-Site: same-origin`, and the page's CSRF token. Anything else answers 403 `forbidden`, as does saving into another person's space.",
      "`handle` is the signed-in person's handle (the local part of their email, lowercased); `slug` matches `[a-z0-9][a-z0-9-]{0,63}`.",
      "The first save answers 201, a later one 200; every save keeps the earlier revisions.",
      "The save form asks for a **Title** and an **Address** (the slug, proposed from the title until you edit it). The title is what the saved page, your space and the tab show: it is written into the dashboard's `<title>`, which is where a saved dashboard's title always comes from. In the editor, once the dashboard is in your space (saved there, or opened from it), Ctrl/Cmd+S adds the source as its next revision at once, and the editor says whether the newest edit is saved (\"Unsaved changes since revision 3\").",
      "No curl or `fetch` snippet is offered for saving: a script has no CSRF token of the person's page, so the request is refused by design.",
      "A saved dashboard's page offers its revision history; restoring an earlier revision saves it again as a new revision, so nothing is ever overwritten.",
      "Someone else's saved dashboard opens drawn by this site on the signed-in viewer's own data: the service runs its code in its own contained browser, answering only the API paths the code names, and shows the viewer an inert copy (no script, no address but `data:` images), so nothing it reads can leave and no question is asked. **Make it interactive** runs it in the viewer's browser, where a dashboard can send what it reads out, so it asks first (the author and the paths); the viewer's own dashboards and those of authors they trust run interactively at once. Demo data needs neither.",
      "Starring a dashboard adds it to `/me/favourites` (reorder them on the start page); **Set as home** makes `/` open it and sets `/me/home`. Both are actions of the person's own pages, under the same rules as saving.",
      "**Freeze a snapshot** on your own saved dashboard has this site draw it on your data and keep that drawing at an address nobody can guess, `/snapshots/<token>`: private to you until you share it with anyone signed in or anyone holding the link, for 7 days unless you choose up to 90, or until you revoke it (on the snapshot or on `/account`); after that its address answers 410 `snapshot_gone`. A snapshot runs no code and reads nobody's data when opened; its page offers its picture as **Download picture**. Making, sharing and revoking one are actions of your own pages, under the same rules as saving.",
    ),
  ];
}

/** Connecting the hosts people use, and what signing in through one of them grants. */
function mcpHostsHowTo(): Block[] {
  const url = `https://dashboards.example.com${PLAYGROUND_BASE}/mcp`;
  return [
    h("Connecting Claude, ChatGPT and VS Code", "mcp-hosts"),
    p(
      `Every host takes the MCP endpoint's URL, \`<your origin>${PLAYGROUND_BASE}/mcp\`; hosts that run in the cloud (Claude, ChatGPT) need it reachable over HTTPS, so set \`PUBLIC_ORIGIN\` to the address people reach the service at. The draft tools work at once. The first call of \`show_dashboard\` is answered 401, and the host opens this service's sign-in in a browser: sign in, check the app's name and where it will send you back, and choose **Approve**. From then on the host shows your saved dashboards inline on your own data; disconnect it under **Connected apps** on /account.`,
    ),
    list(
      `**Claude** (claude.ai and the desktop app): Settings → Connectors → Add custom connector, with the URL. **Claude Code**: \`claude mcp add --transport http dashboards ${url}\`, then \`/mcp\` to sign in.`,
      "**ChatGPT**: Settings → Apps & Connectors → Advanced settings → Developer mode, then Create, with the URL and OAuth as the authentication; the rest is discovered.",
      "**VS Code**: the workspace's `.vscode/mcp.json` below (or MCP: Add Server… → HTTP); VS Code asks to sign in when a tool needs it.",
    ),
    code("json", "VS Code: .vscode/mcp.json", JSON.stringify({ servers: { dashboards: { type: "http", url } } }, null, 2)),
    code("json", "Other clients configured by JSON", JSON.stringify({ mcpServers: { dashboards: { type: "http", url } } }, null, 2)),
    p(
      "What an approved app may do: show your saved dashboards, and others', on your live data, read only. It cannot save, change or delete anything. Its access token lasts 15 minutes and is bound to this MCP endpoint; its refresh token changes at every use, and a refresh token used twice ends the connection. Someone else's dashboard is shown drawn by this site on your data, as in the browser: its code runs only in the service's own contained browser, the view gets an inert copy with no script, and only the API paths its code names are read. To use it interactively, open it on this site, where you decide; authors you trust there run in the view too.",
    ),
  ];
}

function operationsIntro(): Block[] {
  return [
    p(
      "For whoever runs the service: a proxy or orchestrator asks `/healthz` whether to restart an instance and `/readyz` whether to send it traffic; Prometheus scrapes `/metrics` on each instance. They sit at the origin, outside `/api`, and need no session.",
    ),
    p(
      "Every request is also logged as one JSON line on standard output with a request id (sent back as `X-Request-Id`), the route template, the status and the duration; never a token, a cookie or a draft id. Running several instances behind nginx, limits shared through PostgreSQL and graceful shutdown are described in the repository's `docs/operations.md`.",
    ),
  ];
}

export function sectionIntro(slug: SectionSlug): Block[] {
  switch (slug) {
    case "operations":
      return operationsIntro();
    case "conventions":
      return conventionsIntro();
    case "playground":
      return playgroundIntro();
    case "demo-api":
      return [
        p(
          `What a dashboard reads while it is drafted, and what a program reads to learn the playground. The demo API at \`${PLAYGROUND_BASE}/api\` answers every endpoint from canned data, shaped by scenarios and per-endpoint variants; \`/endpoints\` lists them, llms.txt explains the loop, and the MCP tools do the same over MCP. All public, no credentials.`,
        ),
        ...mcpHostsHowTo(),
      ];
    case "oauth":
      return [
        p(
          "A host that shows a person's saved dashboards inline (the MCP tool `show_dashboard`) acts as that person, so it connects through OAuth 2.1 with this service's own sign-in as the authorization server, as the MCP specification's authorization describes. A host finds everything from the MCP endpoint's 401; nobody configures a client by hand. The steps for Claude, ChatGPT and VS Code are in [Demo API and agent tools](/docs/demo-api#mcp-hosts).",
        ),
        p(
          "A host identifies itself by a Client ID Metadata Document, as hosts now do: its `client_id` is the https URL of a JSON document it serves, which names its `client_name` and `redirect_uris`; nothing is registered ahead of time, and the consent page shows the document's host. Registering at `/oauth/register` (RFC 7591) stays for older hosts and is deprecated.",
        ),
        p("These addresses answer OAuth's own error format, `{error, error_description}`, which every OAuth client reads, with the API envelope's `hint` beside it in the same words."),
      ];
    case "renders":
      return [
        p(
          "A watch page or the editor sends a render report for each revision it rendered: its errors with their lines, the requests it made and those refused. The service can also draw a demo draft itself in headless Chromium and answer with a picture of the whole dashboard.",
        ),
      ];
    case "events":
      return eventsIntro();
    case "saving":
      return savingIntro();
    default:
      return apiSectionIntro(slug);
  }
}
