import { describe, expect, it } from "vitest";
import { analyseDraft, checkRules } from "@/lib/check";
import { describeShape } from "@/lib/contract/describe";
import { endpoints, errorsOf } from "@/lib/contract/endpoints";
import { PLAYGROUND_API_BASE, draftCreated, draftEvent, draftInput, draftUpdate, draftUpdated } from "@/lib/contract/playground";
import { scenariosBody } from "@/lib/demo-api/answers";
import { scenarios, variantsFor } from "@/lib/demo-api/data";
import { docsSections } from "./sections";
import { exampleHtml, pagedEndpoints, recipeScripts, workedExample } from "./llms-guide";
import { renderAdvice, variantNames } from "./llms-states";
import { LLMS_FULL_PATH, LLMS_INDEX_MAX_BYTES, llmsFullText, llmsText } from "./llms";
import { defaultPlaygroundSettings } from "@/lib/playground/settings";
import { docsModel } from "./model";

const origin = "https://dash.example.test";
const text = llmsFullText(origin);

/** The text of one H2 section, up to the next H2. */
function section(title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of a language, in order. */
const blocks = (lang: string, within = text) => [...within.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```", "g"))].map((m) => m[1] ?? "");

describe("llms.txt, the index", () => {
  const index = llmsText(origin);

  it("is read in one pass: at most 15 KB", () => {
    expect(Buffer.byteLength(index, "utf8")).toBeLessThanOrEqual(LLMS_INDEX_MAX_BYTES);
  });

  it("has the llms.txt form and points at the whole protocol", () => {
    const lines = index.split("\n");
    expect(lines[0]).toBe("# Dashboards playground");
    expect(lines.find((l) => l.trim() !== "" && !l.startsWith("# "))).toMatch(/^> /);
    expect(lines.filter((l) => l.startsWith("## "))).toEqual(["## The loop", "## Writing rules", "## Endpoints", "## Limits", "## States to render", "## MCP"]);
    expect(index).toContain(`${origin}${LLMS_FULL_PATH}`);
  });

  it("gives the loop in five steps", () => {
    const loop = index.split("## The loop")[1]!.split("\n## ")[0]!;
    expect(loop.split("\n").filter((l) => /^\d+\. /.test(l)).map((l) => Number(l.split(".")[0]))).toEqual([1, 2, 3, 4, 5]);
    for (const route of ["/check", "/draft", "/render", "/reports", "/scenarios"]) expect(loop).toContain(route);
  });

  it("names every endpoint in one line, with its reference page", () => {
    const ops = docsModel().sections.flatMap((s) => s.operations);
    for (const e of endpoints) {
      const line = index.split("\n").find((l) => l.startsWith(`- [\`${e.path}`));
      expect(line, e.path).toBeTruthy();
      const op = ops.find((o) => o.registryId === e.id)!;
      expect(line, e.path).toContain(`](/docs/${op.anchor}.md)`);
    }
    // The playground's routes: the loop names the ones an agent calls; none needs a person's session.
    const playgroundRoutes = ops.filter((o) => o.base === "origin" && o.path.startsWith("/dashboards/playground") && o.operationId !== "playground.demoApi");
    for (const op of playgroundRoutes.filter((o) => o.security === "session")) expect(index, op.path).not.toContain(`/${op.path.split("/").pop()!}\``);
    expect(playgroundRoutes.filter((o) => o.security === "session").map((o) => o.path)).toEqual(["/dashboards/playground/draft/:read_id/drawn"]);
  });

  it("gives the limits in numbers, this deployment's own", () => {
    const limits = index.split("## Limits")[1]!.split("\n## ")[0]!;
    expect(limits).toContain(`${defaultPlaygroundSettings.createsPerMinute} creations`);
    const custom = llmsText(origin, { ...defaultPlaygroundSettings, rendersPerMinute: 7, demoReadsPerMinute: 1234 });
    expect(custom).toContain("7 renders");
    expect(custom).toContain("1234 demo API reads");
  });

  it("tabulates every state to render", () => {
    const table = index.split("## States to render")[1]!.split("\n## ")[0]!;
    const [intro = "", rows = ""] = table.split("| variant |");
    for (const [variant, advice] of Object.entries(renderAdvice)) {
      // Data variants are named before the table, as the dashboard itself; every other state is a row.
      if (advice.state === "Data") {
        expect(intro, variant).toContain(`\`${variant}\``);
        expect(rows, variant).not.toContain(`| \`${variant}\` |`);
      } else expect(rows, variant).toContain(`| \`${variant}\` |`);
    }
    expect(intro).toContain("Data (draw the dashboard): `rich`, `shared_districts`.");
  });
});

describe("llms-full.txt", () => {
  it("has the llms.txt form: one H1, a summary blockquote, then H2 sections", () => {
    const lines = text.split("\n");
    expect(lines[0]).toBe("# Dashboards playground");
    expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
    expect(lines.find((l) => l.trim() !== "" && !l.startsWith("# "))).toMatch(/^> /);
    const h2 = lines.filter((l) => l.startsWith("## "));
    expect(h2).toEqual([
      "## Protocol",
      "## Worked example: create, update, watch",
      "## Update semantics",
      "## Writing the dashboard",
      "## Snapshot fallback",
      "## Task recipes",
      "## Seeing it",
      "## A screenshot of a draft",
      "## Render reports",
      "## Scenarios and variants",
      "## States to render",
      "## Endpoints",
      "## Static check rules",
      "## Limits",
      "## MCP",
      "## API reference",
      "## Optional",
    ]);
  });

  it("names every endpoint with its errors, every scenario and variant, and every check rule", () => {
    for (const e of endpoints) {
      expect(text).toContain(`### GET ${e.path}\n`);
      for (const code of errorsOf(e)) expect(text).toContain(`\`${code}\``);
      for (const v of variantsFor(e.path)) expect(text).toContain(`\`${v}\``);
    }
    for (const s of scenarios) expect(text).toContain(`\`${s.name}\``);
    for (const r of checkRules) expect(text).toContain(`\`${r.id}\``);
  });

  it("prints every shape from the contract, with no unknown where the contract has a shape", () => {
    for (const ts of blocks("ts")) expect(ts.replace(/ \/\/ .*$/gm, "")).not.toMatch(/\bunknown\b/);
    const endpointsPart = section("Endpoints");
    for (const e of endpoints) {
      const at = endpointsPart.indexOf(`### GET ${e.path}\n`);
      expect(blocks("ts", endpointsPart.slice(at))[0], e.path).toBe(describeShape(e.response));
    }
    const protocol = section("Protocol");
    for (const shape of [describeShape(draftInput, "input"), describeShape(draftCreated), describeShape(draftUpdated), describeShape(draftEvent)]) {
      expect(blocks("ts", protocol)).toContain(shape);
    }
  });

  it("names a draft's path values read_id and write_token, never a bare id or token", () => {
    expect(text).toContain("/draft/<read_id>/events");
    expect(text).toContain("/draft/<write_token>");
    expect(text).not.toMatch(/<id>|<token>|:token\b/);
  });

  it("walks one draft from creation to the event a watcher receives, with bodies the contract accepts", () => {
    const part = section("Worked example: create, update, watch");
    const ex = workedExample(origin);
    const [createBody, created, updateBody, updated] = blocks("json", part).map((b) => JSON.parse(b) as unknown);
    expect(createBody).toEqual(ex.createBody);
    expect(draftInput.parse(createBody)).toEqual(ex.createBody);
    expect(draftCreated.parse(created)).toEqual(ex.created);
    expect(draftUpdate.parse(updateBody)).toEqual(ex.updateBody);
    expect(draftUpdated.parse(updated)).toEqual(ex.updated);
    // The example's documents are clean, so the answers' empty warnings are the check's own.
    for (const html of Object.values(exampleHtml)) expect(analyseDraft(html).warnings).toEqual([]);
    const frame = blocks("text", part)[0] ?? "";
    expect(frame).toMatch(/^id: 2\nevent: draft\ndata: \{.*\}$/);
    expect(draftEvent.parse(JSON.parse(frame.split("\ndata: ")[1] ?? ""))).toEqual({ revision: 2, scenario: "default", examples: {}, dash: "my-book", html: exampleHtml.updated });
    expect(ex.created.postUrl).toMatch(/^https:\/\/dash\.example\.test\/dashboards\/playground\/draft\/[A-Za-z0-9_-]{43}$/);
    expect(ex.created.watchUrl).toBe(`${origin}/dashboards/playground/watch/${ex.created.id}`);
  });

  it("offers the check without publishing, with its answer's shape", () => {
    const part = section("Protocol");
    expect(part).toContain("POST https://dash.example.test/dashboards/playground/check");
    expect(part).toMatch(/warnings: \{[\s\S]*rule: [\s\S]*reads: \{[\s\S]*paths: string\[\]/);
  });

  it("states the update semantics in one section", () => {
    const part = section("Update semantics");
    for (const phrase of [
      "Every field is optional, `html` included.",
      "A field present replaces its value.",
      "`examples: null`",
      "`scenario: null` goes back to `default`",
      "`dash: null`",
      "A field left out keeps its current value.",
      "`dataMode` is fixed at creation",
      "only whitespace and comments, is refused with 400 `invalid_draft` and publishes nothing",
      "`{\"scenario\": \"outage\"}` switches the demo state and keeps the HTML",
      "type DraftUpdate = {",
      "409 `revision_conflict` unless it is the current revision",
    ]) {
      expect(part).toContain(phrase);
    }
  });

  it("gives recipes that pass the static check and read the paths they name", () => {
    const part = section("Task recipes");
    expect(blocks("js", part)).toEqual(expect.arrayContaining([recipeScripts.myBook, recipeScripts.everyPage]));
    const book = analyseDraft(`<!doctype html><title>t</title><script>${recipeScripts.myBook}\nmyBook();</script>`);
    expect(book.warnings).toEqual([]);
    expect(book.reads).toEqual({ paths: ["/cx/book", "/cx/owners", "/me"], complete: true });
    const pages = analyseDraft(`<!doctype html><title>t</title><script>${recipeScripts.everyPage}</script>`);
    expect(pages.warnings).toEqual([]);
    expect(pages.reads).toEqual({ paths: ["/crm/customers/companies", "/vendors/support/conversations"], complete: true });
    const paged = endpoints.filter((e) => "pagedList" in e);
    expect(pagedEndpoints().map((p) => p.path)).toEqual(paged.map((e) => e.path));
    for (const e of paged) expect(part).toContain(`- \`${e.path}\`: list \`${e.pagedList}\``);
  });

  it("tells demo data from live by the API base the demo API itself answers", () => {
    const part = section("Task recipes");
    expect(scenariosBody().apiBase).toBe(PLAYGROUND_API_BASE);
    expect(part).toContain(`const onDemoData = window.DASHBOARD_DATA_MODE === "demo";`);
    expect(part).toContain("No answer says which it is");
  });

  it("shows how to screenshot a draft: the static watch page and the attribute to wait for", () => {
    const part = section("A screenshot of a draft");
    expect(part).toContain("/dashboards/playground/watch/<read_id>?static=1");
    expect(part).toContain('data-rendered="true"');
    expect(part).toContain(`chromium --headless --screenshot=draft.png --window-size=1440,900`);
    expect(part).toContain(`await page.waitForSelector('html[data-rendered="true"]');`);
  });

  it("has a row of the states table for every demo variant, with what it answers and what to render", () => {
    const part = section("States to render");
    const names = variantNames();
    expect(Object.keys(renderAdvice).sort()).toEqual([...names].sort());
    const rows = part.split("\n").filter((l) => /^\| [^-|]/.test(l)).slice(1);
    expect(rows.map((r) => /^\| [^|]+ \| `([^`]+)` \|/.exec(r)?.[1])).toEqual(Object.keys(renderAdvice));
    const row = (v: string) => rows.find((r) => r.includes(`| \`${v}\` |`)) ?? "";
    expect(row("signed_out")).toContain("| every path | 401 `unauthorized` | `signed-out` |");
    expect(row("not_connected")).toContain("401 `<slug>_not_connected`");
    expect(row("waiting")).toContain("200 `{ok: false, waitingOn}`");
    expect(row("server_error")).toContain("500 `internal_error`");
  });

  it("falls back to the snapshot only in an outage; 401, 403, not configured and not synced are states", () => {
    const part = section("Snapshot fallback");
    expect(part).not.toMatch(/any non-200/);
    expect(part).toContain("only when live data cannot be had for now: the request failed on the network, or the answer is a 5xx other than a system not set up or synced here");
    expect(part).toContain("Never for 401 or 403");
    expect(part).toContain("never for a 503 `*_not_configured` or `crm_not_synced`");
    // What a live viewer of a saved dashboard meets, and the check's rules, are said.
    expect(part).toContain("a snapshot taken while drafting on demo data holds demo figures");
    for (const rule of ["snapshot-undated", "snapshot-helper-without-snapshot", "snapshot-unannounced"]) expect(part).toContain(rule);
    const [html] = blocks("html", part);
    expect(html).toContain('<script type="application/json" id="dashboard-snapshot" data-taken-at="2026-11-20T06:00:00Z">');
    expect(html).toContain('window.dashboardSnapshot("Districts")');
    // In the example, the outage branch comes before the one that turns every other refusal into a state.
    const code = html ?? "";
    const outage = code.indexOf('if (res.status >= 500 && !/_not_configured$|_not_synced$/.test(body.error || "")) return fallBack(');
    expect(outage).toBeGreaterThan(-1);
    expect(outage).toBeLessThan(code.indexOf("if (!res.ok) return showState("));
    expect(code).toContain('}, () => fallBack("The API could not be reached."));');
    expect(part).toContain("Showing snapshot data from <time> in <panels>; the rest is live");
  });

  it("mentions both ?scenario= and ?variant= where it describes the demo API", () => {
    const part = section("Scenarios and variants");
    expect(part).toContain(`${origin}/dashboards/playground/api/<api path>`);
    expect(part).toContain("`?scenario=<name>`");
    expect(part).toContain("`?variant=<name>`");
    expect(part).toContain(scenariosBody().usage.precedence);
  });

  it("states the rules that trip authors up, and that saving is a human action", () => {
    for (const phrase of ["DISTRICT grain", "waitingOn", "derived", "not an SLA", "not \"never touched\"", "Nothing you hold can save", "window.DASHBOARD_API_BASE"]) {
      expect(text).toContain(phrase);
    }
    expect(text).toContain("https://dash.example.test/dashboards/playground/draft");
  });

  it("links each section of the API reference as Markdown, the whole reference and the OpenAPI document", () => {
    const links = [...text.matchAll(/^- \[[^\]]+\]\((https:\/\/[^)]+)\)/gm)].map((m) => m[1]);
    for (const s of docsSections) expect(links).toContain(`https://dash.example.test/docs/${s.slug}.md`);
    expect(links).toContain("https://dash.example.test/docs/index.md");
    expect(links).toContain("https://dash.example.test/openapi.json");
    // The llms.txt convention: "Optional" is the last section.
    expect(text.lastIndexOf("\n## ")).toBe(text.indexOf("\n## Optional\n"));
  });
});
