import { PLAYGROUND_API_BASE, PLAYGROUND_BASE } from "@/lib/contract/playground";
import type { OperationDoc } from "./types";

// Copyable code for an operation. The fetch snippets are dashboard code: they read the API base
// from the page, check `res.ok`, follow `nextCursor` and handle `waitingOn`, and a test holds
// them to the static check. curl lines use the address the reference was served from.

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function functionName(op: OperationDoc): string {
  const words = (op.registryId ?? op.operationId).split(/[^a-zA-Z0-9]+/).filter(Boolean);
  return `load${words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join("")}`;
}

/** A `fetch` of an API endpoint, as a dashboard would write it; none for other routes. */
export function fetchSnippet(op: OperationDoc): string | null {
  if (op.base !== "api" || !op.example) return null;
  const name = functionName(op);
  const [path = "", query = ""] = op.example.request.split("?");
  const head = `const API = window.DASHBOARD_API_BASE || "/api";\n\n`;
  const fail = `    if (!res.ok) {\n      const { error, hint } = await res.json();\n      throw new Error(hint ? \`\${error}: \${hint}\` : error);\n    }\n`;
  if (op.pagedList) {
    const params = new URLSearchParams(query);
    params.delete("cursor");
    const init = [...params.entries()].map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ");
    return (
      head +
      `async function ${name}() {\n` +
      `  const all = [];\n  let cursor = null;\n  do {\n` +
      `    const q = new URLSearchParams({ ${init} });\n    if (cursor) q.set("cursor", cursor);\n` +
      `    const res = await fetch(\`\${API}${path}?\${q}\`);\n` +
      fail +
      `    const page = await res.json();\n    all.push(...page.${op.pagedList});\n    cursor = page.nextCursor;\n  } while (cursor);\n  return all;\n}`
    );
  }
  const url = query ? `${path}?${query}` : path;
  const body =
    op.section === "cx"
      ? `  const body = await res.json();\n  // Not an error: show this text instead of zeroes.\n  if (!body.ok) return { waitingOn: body.waitingOn, data: null };\n  return { waitingOn: null, data: body.data };\n`
      : `  return res.json();\n`;
  return head + `async function ${name}() {\n  const res = await fetch(\`\${API}${url}\`);\n` + fail.replace(/^ {2}/gm, "") + body + `}`;
}

/** curl lines for an operation, or null where a script cannot make the request (saving). */
export function curlSnippet(op: OperationDoc, origin: string): string | null {
  if (!op.curl) return null;
  if (op.base === "api") {
    if (!op.example) return null;
    return [
      "# Demo data, no sign-in:",
      `curl -sS ${shellQuote(`${origin}${PLAYGROUND_API_BASE}${op.example.request}`)}`,
      "# Your own data, with the session cookie from signing in (see Sign-in):",
      `curl -sS -b cookies.txt ${shellQuote(`${origin}/api${op.example.request}`)}`,
    ].join("\n");
  }
  const at = (path: string) => shellQuote(`${origin}${path}`);
  switch (op.operationId) {
    case "playground.createDraft":
      return [
        "# JSON body:",
        `curl -sS -X POST ${at(`${PLAYGROUND_BASE}/draft`)} -H 'Content-Type: application/json' \\\n  --data '{"html": "<!doctype html><title>My dashboard</title>", "dash": "my-dashboard"}'`,
        "# Or the HTML itself:",
        `curl -sS -X POST ${at(`${PLAYGROUND_BASE}/draft?dash=my-dashboard`)} -H 'Content-Type: text/html' --data-binary @dashboard.html`,
      ].join("\n");
    case "playground.updateDraft":
      return `curl -sS -X POST "$POST_URL" -H 'Content-Type: text/html' --data-binary @dashboard.html`;
    case "playground.demoApi":
      return `curl -sS ${at(`${PLAYGROUND_API_BASE}/cx/book?owner=<ownerId>&scenario=first-sync`)}`;
    case "playground.draftEvents":
      return `curl -sS -N ${at(`${PLAYGROUND_BASE}/draft/<read_id>/events`)}`;
    default:
      return `curl -sS ${at(op.path.replace(/:read_id/, "<read_id>"))}`;
  }
}

/** The request the "try it" control starts from, relative to the demo API's base. */
export function tryItRequest(op: OperationDoc): string | null {
  return op.base === "api" && op.example ? op.example.request : null;
}
