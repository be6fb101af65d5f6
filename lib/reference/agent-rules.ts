import { DASHBOARD_PARAM_NAME, DASHBOARD_PARAM_VALUE_MAX } from "@/lib/frame/params";
import { SNAPSHOT_ELEMENT_ID, SNAPSHOT_HELPER, SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/protocol";
import { LIMIT_DEFAULT, LIMIT_MAX } from "@/lib/contract/query";
import { PLAYGROUND_API_BASE, PLAYGROUND_BASE, SCENARIO_PARAM, VARIANT_PARAM } from "@/lib/contract/playground";
import { STATES_URI } from "@/lib/agent/mcp-app";
import { renderAdvice } from "./llms-states";

// The rules an agent needs to write a dashboard that passes the check and survives every state,
// said once: llms.txt prints them, and the MCP server serves the same text as its rules resource
// and prompt (handed to it by the composition root), so neither surface can teach another rule.
// Short on purpose: an agent reads them whole before its first write.

/** The writing rules, one Markdown bullet each. */
export function writingRules(): string[] {
  return [
    `- ONE self-contained HTML document: inline scripts and styles. Nothing else leaves the frame: no external scripts, styles, fonts or images, no storage or cookies, no navigation; only GET requests to the API. A link opens (in a new tab, on a click) only when its \`href\` is exactly a URL an answer gave, e.g. \`a.href = issue.url\`.`,
    `- \`const API = window.DASHBOARD_API_BASE || "/api"\` (\`${PLAYGROUND_API_BASE}\` on demo data, \`/api\` on a viewer's own), and write every API path literally (\`fetch(API + "/cx/book?owner=" + id)\`): on a viewer's own data only the paths the check lists in \`reads\` are answered (403 \`read_not_agreed\` otherwise). Someone else's dashboard opens drawn by this site (interactive once they agree or trust its author): draw everything into the page.`,
    `- Check \`res.ok\`: every non-2xx answer is \`{error, hint?}\`; show the hint. 401, 403, \`*_not_connected\`, \`*_not_configured\` and \`waitingOn\` are states to render (the table below), not failures.`,
    `- \`/cx/*\` answers \`{ok: true, data}\` or \`{ok: false, waitingOn}\`: show the \`waitingOn\` text, never zeroes. Paged lists answer \`nextCursor\`: pass it back as \`cursor\` until null; \`limit\` (1 to ${LIMIT_MAX}, default ${LIMIT_DEFAULT}) only where the endpoint lists it.`,
    `- \`window.DASHBOARD_DATA_MODE\` is \`"demo"\` or \`"live"\`: label demo data as such ("Demo data"). Never compare URLs.`,
    `- \`window.DASHBOARD_PARAMS\`: the page address's \`?p.<name>=<value>\` as strings (\`{}\` when none; names ${DASHBOARD_PARAM_NAME.source}, values up to ${DASHBOARD_PARAM_VALUE_MAX} characters), e.g. \`?p.days=90\`. Check each value and fall back to a default; a render takes the same \`params\`.`,
    `- Meanings: \`arr\` in CX book rows is district grain (the same figure on each school: never sum it across a district's schools); \`daysSinceContact: null\` is no touch in the window, not "never"; \`priority\` is a heuristic rank: show its \`reasons\`; \`basis=activity\` is derived: label it so.`,
    `- A snapshot (\`<script type="application/json" id="${SNAPSHOT_ELEMENT_ID}" ${SNAPSHOT_TAKEN_AT_ATTRIBUTE}="…">\`) stands in only for a network failure or a 5xx outage: \`window.${SNAPSHOT_HELPER}("<panel>")\`.`,
    `- Never put \`${SCENARIO_PARAM}\` or \`${VARIANT_PARAM}\` in dashboard code: they are playground controls.`,
  ];
}

/** What to show in each demo state: variant, state and what to render, one table row each. */
export function statesTable(): string[] {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const entries = Object.entries(renderAdvice);
  // The variants that answer the dashboard's data need no advice beyond "draw it".
  const data = entries.filter(([, a]) => a.state === "Data").map(([variant]) => `\`${variant}\``);
  return [
    `Data (draw the dashboard): ${data.join(", ")}. The other states:`,
    "",
    `| variant | state | render |`,
    `|---|---|---|`,
    ...entries.filter(([, a]) => a.state !== "Data").map(([variant, a]) => `| \`${variant}\` | ${a.state} | ${cell(a.render)} |`),
  ];
}

/** The rules as one Markdown document: the MCP server's rules resource and prompt. */
export function agentRulesMarkdown(): string {
  return [
    `# Writing a dashboard`,
    "",
    `describe_endpoint gives an endpoint's query and answer; list_scenarios the demo states.`,
    "",
    ...writingRules(),
    "",
    `What to show in each demo state (empty, waiting, signed out, no access, not connected, outage…): the resource ${STATES_URI}. Everything else (shapes, recipes, limits): GET ${PLAYGROUND_BASE}/llms-full.txt on this server.`,
    "",
  ].join("\n");
}

/** The states table as one Markdown document: the MCP server's states resource. */
export function agentStatesMarkdown(): string {
  return [`# States to render`, "", `Force one with a draft's \`scenario\` or \`examples: {"<path>": "<variant>"}\`.`, "", ...statesTable(), ""].join("\n");
}
