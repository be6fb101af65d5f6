import { describe, expect, it } from "vitest";
import { draftWarning } from "@/lib/contract/resources";
import { checkDraft, checkRules, type RuleId } from "./index";

// Each rule: documents that must trigger it and documents that must not, the negatives chosen
// to sit right next to the positives (a local `top`, a link rather than a resource, "/api" as
// the fallback beside DASHBOARD_API_BASE, a district-deduplicated ARR total).

const page = (script: string, body = "") => `<!doctype html>\n<html><body>${body}\n<script>\n${script}\n</script>\n</body></html>\n`;
const API = 'const API = window.DASHBOARD_API_BASE || "/api";\n';

function found(html: string, rule: RuleId) {
  return checkDraft(html).filter((w) => w.rule === rule);
}
function expectRule(html: string, rule: RuleId, count?: number) {
  const hits = found(html, rule);
  if (count === undefined) expect(hits.length, `${rule} in:\n${html}`).toBeGreaterThan(0);
  else expect(hits.length, `${rule} in:\n${html}`).toBe(count);
  return hits;
}
function expectNot(html: string, rule: RuleId) {
  expect(found(html, rule), `${rule} should not fire in:\n${html}`).toEqual([]);
}

/** A careful dashboard: it triggers nothing. */
const GOOD = page(
  `${API}
async function getJson(path) {
  const res = await fetch(API + path);
  if (!res.ok) {
    const err = await res.json().catch(() => ({}));
    throw new Error(err.hint || err.error || "HTTP " + res.status);
  }
  return res.json();
}
async function allCompanies() {
  const out = [];
  let cursor = null;
  do {
    const page = await getJson("/crm/customers/companies?limit=200" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
    out.push(...page.companies);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
async function main() {
  const book = await getJson("/cx/book?owner=" + encodeURIComponent("o-1") + "&basis=activity");
  if (!book.ok) { document.getElementById("notice").textContent = book.waitingOn; return; }
  const perDistrict = new Map(book.data.rows.map((r) => [r.districtName, r.arr ?? 0]));
  let total = 0;
  for (const v of perDistrict.values()) total += v;
  document.getElementById("arr").textContent = String(total);
  document.getElementById("rows").innerHTML = book.data.rows
    .map((r) => \`<tr><td>\${r.schoolName}</td><td>\${r.priority ? r.priority.percentile : ""}</td><td>\${r.priority ? r.priority.reasons.join(", ") : ""}</td></tr>\`)
    .join("");
  const top = document.getElementById("rows").getBoundingClientRect().top;
  window.scrollTo(0, top);
  console.log((await allCompanies()).length);
}
main().catch((e) => { document.getElementById("notice").textContent = e.message; });`,
  `<header><h1>Book</h1><p id="notice"></p><p class="note">Derived from activity: owners inferred from logged touches.</p></header>
<table><thead><tr><th>School</th><th title="Triage rank within this book">Priority rank</th><th>Why</th></tr></thead><tbody id="rows"></tbody></table>
<p>Total ARR <b id="arr"></b></p><a href="/docs" target="_blank">Help</a>
<img alt="logo" src="data:image/png;base64,iVBORw0KGgo=">`,
);

describe("checkDraft", () => {
  it("finds nothing in a careful dashboard", () => {
    expect(checkDraft(GOOD)).toEqual([]);
  });

  it("answers warnings of the contract's shape, sorted by position", () => {
    const ws = checkDraft(page('fetch("/api/me").then((r) => r.json()); localStorage.x = 1;'));
    expect(ws.length).toBeGreaterThan(1);
    for (const w of ws) expect(draftWarning.parse(w)).toEqual(w);
    const order = ws.map((w) => w.line * 1e6 + w.column);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("does not throw on hostile input", () => {
    const inputs = [
      "<script>x = " + "[".repeat(20000) + "]".repeat(20000) + "</script>",
      "<script>x = " + Array(30000).fill("a").join(" + ") + "</script>",
      "<div>".repeat(50000),
      "<script>fetch('/api/me')",
      "<!-- <script>",
      "<constructor src=x></constructor><toString href=y>",
      "<script>\u0000\uffff</script>",
    ];
    for (const html of inputs) expect(() => checkDraft(html)).not.toThrow();
  });
});

describe("the rule list", () => {
  it("has unique ids, a severity and a one-line description each", () => {
    const ids = checkRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of checkRules) {
      expect(["error", "warning", "info"]).toContain(r.severity);
      expect(r.description).not.toMatch(/\n/);
      expect(r.description.length).toBeGreaterThan(20);
    }
    expect(checkRules.find((r) => r.id === "snapshot-without-live")?.severity).toBe("info");
    expect(checkRules.find((r) => r.id === "js-syntax")?.severity).toBe("error");
    expect(checkRules.find((r) => r.id === "empty-document")?.severity).toBe("error");
  });

  it("gives every finding its rule's severity", () => {
    const severity = new Map<string, string>(checkRules.map((r) => [r.id, r.severity]));
    const ws = checkDraft(page('const rows = [{a:1},{a:2},{a:3},{a:4},{a:5}]; document.cookie; fetch("/api/me").then((r) => r.json());'));
    expect(ws.length).toBeGreaterThan(2);
    for (const w of ws) expect(w.severity).toBe(severity.get(w.rule));
  });
});

describe("empty-document", () => {
  it("fires for empty or blank HTML, at 1:1", () => {
    for (const html of ["", "   \n\t  ", "<!-- nothing yet -->", " <!-- a --> \n<!-- b -->", "<!-- never closed <p>x</p>"]) {
      expect(checkDraft(html)).toEqual([expect.objectContaining({ rule: "empty-document", severity: "error", line: 1, column: 1 })]);
    }
  });
  it("does not fire for any content", () => {
    expectNot("<p>hi</p>", "empty-document");
    expectNot("hi", "empty-document");
    expectNot("<!-- a -->x", "empty-document");
  });
});

describe("js-syntax", () => {
  it("reports a broken script at its document line and column", () => {
    const html = "<!doctype html>\n<p>x</p>\n<script>\nconst a = 1;\n  if (a > ) {}\n</script>";
    const [w] = expectRule(html, "js-syntax", 1);
    expect(w).toMatchObject({ line: 5, column: 11, severity: "error" });
    expect(w?.message).toMatch(/does not parse: Unexpected token/);
    expect(w?.message).not.toMatch(/\(\d+:\d+\)/);
  });

  it("counts lines ending in \\r\\n or a lone \\r once", () => {
    expect(expectRule("<p>\r\n</p>\r\n<script>\r\n\r\n  let = ;\r\n</script>", "js-syntax", 1)[0]).toMatchObject({ line: 5, column: 9 });
    expect(expectRule("<p>\r</p>\r<script>\r\r  let = ;\r</script>", "js-syntax", 1)[0]).toMatchObject({ line: 5, column: 9 });
  });

  it("reports a broken event-handler attribute", () => {
    const [w] = expectRule('<button onclick="go(">x</button>', "js-syntax", 1);
    expect(w).toMatchObject({ line: 1, column: 21 });
  });

  it("reports a script that ends too early where it ends", () => {
    expect(expectRule("<script>\nconst a = [1, 2\n</script>", "js-syntax", 1)[0]).toMatchObject({ line: 3, column: 1 });
    expect(expectRule("<script>\nfoo(bar // call\n  </script>", "js-syntax", 1)[0]).toMatchObject({ line: 3, column: 3 });
  });

  it("reports early errors a browser reports: redeclarations, invalid patterns, decorators", () => {
    expect(expectRule(page("let a = 1; let a = 2;"), "js-syntax", 1)[0]).toMatchObject({ line: 4, column: 16 });
    const [re] = expectRule(page("const re = /a(/;"), "js-syntax", 1);
    expect(re).toMatchObject({ line: 4, column: 13 });
    expect(re?.message).toMatch(/Invalid regular expression/);
    expectRule(page("@sealed class A {}"), "js-syntax", 1);
  });

  it("leaves regular expressions of ES2025 alone, whatever engine runs the check", () => {
    expectNot(page("const a = /(?i:x)y/; const b = /(?<d>\\d+)-x|(?<d>\\d+)/; const c = /[\\p{L}--\\p{N}]/v;"), "js-syntax");
  });

  it("reports module syntax in a classic script", () => {
    const [w] = expectRule(page("const x = await Promise.resolve(1);"), "js-syntax", 1);
    expect(w?.message).toMatch(/type="module"/);
    expectNot('<script type="module">const x = await Promise.resolve(1); console.log(x);</script>', "js-syntax");
    expect(expectRule(page("const a = 1;\nimport x from './x.js';\nx(a);"), "js-syntax", 1)[0]).toMatchObject({ line: 5, column: 1 });
  });

  it("reports invalid JSON in a data block", () => {
    const [w] = expectRule('<script type="application/json">\n{"a": 1,}\n</script>', "js-syntax", 1);
    expect(w?.message).toMatch(/not valid JSON/);
    expect(w?.line).toBe(2);
  });

  it("leaves valid code, non-JavaScript scripts, old-style comments and handler `return` alone", () => {
    expectNot(GOOD, "js-syntax");
    expectNot('<script type="text/x-template"><div>{{ not js ( </div></script>', "js-syntax");
    expectNot("<script><!--\nvar a = 1;\n//--></script>", "js-syntax");
    expectNot('<a href="#" onclick="toggle(this); return false">x</a>', "js-syntax");
    expectNot('<script type="application/ld+json">{"@type": "WebPage"}</script>', "js-syntax");
    // `</p>` inside a script is script text, not a tag.
    expectNot('<script>const s = "</p>"; if (1 < 2) console.log(s);</script>', "js-syntax");
  });
});

describe("hardcoded-api-base", () => {
  it("fires for the saved page's base written into a URL, at the literal", () => {
    const [w] = expectRule(page('fetch("/api/me").then((r) => r.ok && r.json());'), "hardcoded-api-base", 1);
    expect(w).toMatchObject({ line: 4, column: 7, severity: "error" });
    expect(w?.message).toContain('"/api/me"');
    expect(w?.hint).toContain("window.DASHBOARD_API_BASE");
    expectRule(page("fetch(`/api/cx/book?owner=${id}`);"), "hardcoded-api-base", 1);
    expectRule(page('const u = "/api" + "/me"; fetch(u);'), "hardcoded-api-base", 1);
    expectRule(page('xhr.open("GET", "/api/crm/customers/summary");'), "hardcoded-api-base", 1);
    expectRule(page('const url = new URL("/api/me", location.href);'), "hardcoded-api-base", 1);
  });

  it("fires for /api as the base without DASHBOARD_API_BASE", () => {
    const [w] = expectRule(page('const API = "/api";\nfetch(API + "/me");'), "hardcoded-api-base", 1);
    expect(w?.message).toMatch(/without reading window.DASHBOARD_API_BASE/);
  });

  it("fires for the playground's base, even as the fallback", () => {
    const [w] = expectRule(page('const API = window.DASHBOARD_API_BASE || "/dashboards/playground/api";'), "hardcoded-api-base", 1);
    expect(w?.message).toMatch(/playground's API base/);
  });

  it("fires for absolute API URLs and for API paths requested without any base", () => {
    expectRule(page('fetch("https://dash.example.com/api/me");'), "hardcoded-api-base", 1);
    expectRule(page('fetch("//dash.example.com/cx/owners");'), "hardcoded-api-base", 1);
    const [w] = expectRule(page('fetch("/cx/book?owner=o-1");'), "hardcoded-api-base", 1);
    expect(w?.message).toMatch(/without the API base/);
  });

  it("fires for /api after the origin or after the base itself", () => {
    expectRule(page('fetch(location.origin + "/api/me");'), "hardcoded-api-base", 1);
    expectRule(page("fetch(`${window.DASHBOARD_API_BASE}/api/cx/owners`);"), "hardcoded-api-base", 1);
    expectRule(page('const API = location.origin + "/api";'), "hardcoded-api-base", 1);
  });

  it("fires for assigning DASHBOARD_API_BASE", () => {
    expectRule(page('window.DASHBOARD_API_BASE = "/api";'), "hardcoded-api-base", 1);
  });

  it("does not fire for the documented fallback, in its usual spellings", () => {
    expectNot(page(`${API}fetch(API + "/me");`), "hardcoded-api-base");
    expectNot(page('const API = window.DASHBOARD_API_BASE ?? "/api/";'), "hardcoded-api-base");
    expectNot(page('fetch(`${window.DASHBOARD_API_BASE || "/api"}/cx/owners`);'), "hardcoded-api-base");
    expectNot(
      page('function apiBase() {\n  if (typeof window.DASHBOARD_API_BASE === "string") return window.DASHBOARD_API_BASE;\n  return "/api";\n}'),
      "hardcoded-api-base",
    );
    expectNot(page('window.DASHBOARD_API_BASE = window.DASHBOARD_API_BASE || "/api";'), "hardcoded-api-base");
  });

  it("does not fire for paths built on a base, look-alikes, text, comments or links", () => {
    expectNot(page(`${API}fetch(API + "/cx/book?owner=o-1"); fetch(\`\${API}/me\`);`), "hardcoded-api-base");
    expectNot(page('fetch(base + "/apiary/list"); const label = "Source: /api/me";'), "hardcoded-api-base");
    expectNot(page('// fetch("/api/me") was the old way\n/* "/api/cx/book" */'), "hardcoded-api-base");
    expectNot(page("", "<p>Data comes from <code>/api/me</code>.</p><a href=\"/api/docs\">docs</a>"), "hardcoded-api-base");
    expectNot(page('fetch("https://example.com/data.json");'), "hardcoded-api-base");
  });
});

describe("scenario-in-code", () => {
  it("fires for scenario in a URL, a URLSearchParams and a link", () => {
    const [w] = expectRule(page(`${API}fetch(API + "/me?scenario=outage");`), "scenario-in-code", 1);
    expect(w?.severity).toBe("warning");
    expect(w?.hint).toMatch(/scenario/);
    expectRule(page(`${API}fetch(\`\${API}/cx/book?owner=o&scenario=\${s}\`);`), "scenario-in-code", 1);
    expectRule(page('const params = new URLSearchParams(); params.set("scenario", "outage");'), "scenario-in-code", 1);
    expectRule(page('const q = new URLSearchParams({ owner: "o", scenario: "new-customer" });'), "scenario-in-code", 1);
    expectRule(page("", '<a href="?scenario=outage">outage</a>'), "scenario-in-code", 1);
  });

  it("does not fire for the word, a variable, a property or a similar parameter", () => {
    expectNot(page('const scenario = "best case"; render(row.scenario); cache.set("scenario", 1);', "<h2>Scenario planning</h2>"), "scenario-in-code");
    expectNot(page(`${API}fetch(API + "/me?scenarios=3&myscenario=2");`), "scenario-in-code");
    expectNot(page('// add ?scenario=outage to try the outage'), "scenario-in-code");
  });
});

describe("unchecked-fetch", () => {
  it("fires for .json() or .text() with no status check in the same function", () => {
    const [w] = expectRule(page(`${API}fetch(API + "/me").then((r) => r.json());`), "unchecked-fetch", 1);
    expect(w?.message).toContain("r.json()");
    expect(w?.message).toContain("r.ok");
    expect(w?.column).toBe(32);
    expectRule(page(`${API}async function f() { const res = await fetch(API + "/me"); const t = await res.text(); }`), "unchecked-fetch", 1);
    expectRule(page(`${API}async function f() { return (await fetch(API + "/me")).json(); }`), "unchecked-fetch", 1);
  });

  it("does not take any helper that receives the response for a check", () => {
    expectRule(page(`${API}async function f() { const res = await fetch(API + "/cx/book"); renderBook(res); lookup(res); return res.json(); }`), "unchecked-fetch", 1);
  });

  it("fires when the check is in another function", () => {
    const html = page(
      `${API}async function a() { const res = await fetch(API + "/me"); if (!res.ok) return; }\nasync function b() { const res = await fetch(API + "/me/home"); return res.json(); }`,
    );
    expect(expectRule(html, "unchecked-fetch", 1)[0]?.line).toBe(6);
  });

  it("does not fire when ok or status is checked, destructured or handed to a checker", () => {
    expectNot(page(`${API}async function f() { const res = await fetch(API + "/me"); if (!res.ok) throw new Error(); return res.json(); }`), "unchecked-fetch");
    expectNot(page(`${API}fetch(API + "/me").then((r) => (r.ok ? r.json() : Promise.reject(r)));`), "unchecked-fetch");
    expectNot(page(`${API}fetch(API + "/me").then((r) => { if (r.status !== 200) return null; return r.json(); });`), "unchecked-fetch");
    expectNot(page(`${API}async function f() { const res = await fetch(API + "/me"); const { ok } = res; if (!ok) return; return res.json(); }`), "unchecked-fetch");
    expectNot(page(`${API}async function f() { const res = await fetch(API + "/me"); ensureOk(res); return res.json(); }`), "unchecked-fetch");
    expectNot(page(`${API}async function f() { const res = await fetch(API + "/me"); checkStatus(res); return res.json(); }`), "unchecked-fetch");
    expectNot(
      page(`${API}async function f() { const res = await fetch(API + "/me"); if (!res.ok) return; return Promise.resolve().then(() => res.json()); }`),
      "unchecked-fetch",
    );
  });

  it("does not fire for jQuery-style .text() or in a document that makes no requests", () => {
    expectNot(page(`${API}fetch(API + "/me").then((r) => r.ok && r.json()); $title.text(); $("#x").text();`), "unchecked-fetch");
    expectNot(page("const t = item.text(); const j = blob.json();"), "unchecked-fetch");
  });
});

describe("cx-waiting-unhandled", () => {
  const reads = `${API}async function f() { const res = await fetch(API + "/cx/book?owner=o-1"); if (!res.ok) return; const body = await res.json();`;
  it("fires for a /cx/ read that never handles waitingOn, at the URL", () => {
    const [w] = expectRule(page(`${reads} render(body.data.rows); }`), "cx-waiting-unhandled", 1);
    expect(w?.message).toContain("waitingOn");
    expect(w?.line).toBe(5);
    expectRule(page(`${API}const u = \`\${API}/cx/districts?days=30\`; fetch(u).then((r) => r.ok && r.json()).then((b) => show(b.data));`), "cx-waiting-unhandled", 1);
  });

  it("does not fire when waitingOn is read or destructured, or for non-CX reads", () => {
    expectNot(page(`${reads} if (!body.ok) { notice(body.waitingOn); return; } render(body.data.rows); }`), "cx-waiting-unhandled");
    expectNot(page(`${reads} const { ok, data, waitingOn } = body; if (!ok) return notice(waitingOn); render(data.rows); }`), "cx-waiting-unhandled");
    expectNot(page(`${API}fetch(API + "/crm/customers/summary").then((r) => r.ok && r.json()).then((b) => show(b.data));`), "cx-waiting-unhandled");
    expectNot(page('// the /cx/book view\nconst data = 1;', "<p>CX / support</p>"), "cx-waiting-unhandled");
  });
});

describe("arr-summed", () => {
  it("fires for reduce, loops, forEach, map-then-reduce and sum helpers", () => {
    const [w] = expectRule(page("const total = rows.reduce((s, r) => s + r.arr, 0);"), "arr-summed", 1);
    expect(w?.message).toContain("s + r.arr");
    expect(w?.hint).toContain("districtName");
    expectRule(page("let total = 0;\nfor (const r of rows) total += r.arr;"), "arr-summed", 1);
    expectRule(page("let total = 0; rows.forEach((r) => { total += (r.arr || 0); });"), "arr-summed", 1);
    expectRule(page("let t = 0; for (let i = 0; i < rows.length; i++) { t = t + Number(rows[i].arr); }"), "arr-summed", 1);
    expectRule(page("const t = rows.map((r) => r.arr).reduce((a, b) => a + b, 0);"), "arr-summed", 1);
    expectRule(page("const t = d3.sum(rows, (d) => d.arr);"), "arr-summed", 1);
    expectRule(page('const t = _.sumBy(rows, "arr");'), "arr-summed", 1);
    expectRule(page("const t = rows.reduce((s, { arr }) => s + arr, 0);"), "arr-summed", 1);
  });

  it("fires for a per-district sum over school rows", () => {
    expectRule(page("const totals = {}; for (const r of rows) totals[r.districtName] = (totals[r.districtName] || 0) + r.arr;"), "arr-summed", 1);
    expectRule(page("const totals = {}; for (const r of rows) totals[r.districtName] += r.arr;"), "arr-summed", 1);
    expectRule(page("const m = new Map(); rows.forEach((r) => m.set(r.districtName, (m.get(r.districtName) || 0) + r.arr));"), "arr-summed", 1);
  });

  it("does not fire for one value per district, district rows, local arrays or string building", () => {
    expectNot(page("const per = new Map(rows.map((r) => [r.districtName, r.arr ?? 0])); let t = 0; for (const v of per.values()) t += v;"), "arr-summed");
    expectNot(
      page("const seen = new Set(); let t = 0; for (const r of rows) { if (seen.has(r.districtName)) continue; seen.add(r.districtName); t += r.arr ?? 0; }"),
      "arr-summed",
    );
    expectNot(page("const t = districts.reduce((s, d) => s + d.arr, 0);"), "arr-summed");
    expectNot(page("const arr = [1, 2, 3]; const t = arr.reduce((s, x) => s + x, 0); let u = 0; for (const x of arr) u += x;"), "arr-summed");
    expectNot(page('let html = ""; for (const r of rows) html += "<td>" + r.arr + "</td>"; rows.reduce((h, r) => h + `<td>${r.arr}</td>`, "");'), "arr-summed");
    expectNot(page("const both = a.arr + b.arr; let max = 0; for (const r of rows) max = Math.max(max, r.arr);"), "arr-summed");
  });
});

describe("activity-basis-unlabelled", () => {
  const activity = `${API}fetch(API + "/cx/book?owner=o-1&basis=activity").then((r) => r.ok && r.json());`;
  it("fires when no visible text says derived, at the request", () => {
    const [w] = expectRule(page(activity), "activity-basis-unlabelled", 1);
    expect(w?.line).toBe(5);
    expect(w?.hint).toMatch(/Derived/);
    expectRule(page('const p = new URLSearchParams(); p.set("basis", "activity");'), "activity-basis-unlabelled", 1);
    expectRule(page('const q = new URLSearchParams({ owner: "o-1", basis: "activity" });'), "activity-basis-unlabelled", 1);
  });

  it("fires when 'derived' is only in a comment or a class name", () => {
    expectRule(page(`${activity} // derived`, '<!-- derived --><div class="derived"></div>'), "activity-basis-unlabelled", 1);
  });

  it("does not fire with a label in the markup, an attribute or a string the script shows", () => {
    expectNot(page(activity, '<p class="note">Derived from activity</p>'), "activity-basis-unlabelled");
    expectNot(page(activity, '<span title="Derived book">Book</span>'), "activity-basis-unlabelled");
    expectNot(page(`${activity} note.textContent = \`Book (derived from \${n} touches)\`;`), "activity-basis-unlabelled");
  });

  it("does not fire for basis=real or for reading the basis", () => {
    expectNot(page(`${API}fetch(API + "/cx/book?owner=o-1&basis=real"); if (book.basis === "activity") show();`), "activity-basis-unlabelled");
    expectNot(page(`${API}fetch(API + "/cx/book?owner=o-1&basis=activity_log");`), "activity-basis-unlabelled");
  });
});

describe("priority-misrepresented", () => {
  it("fires for priority worded as a score, target, guarantee or SLA", () => {
    const [w] = expectRule(page("", "<table><tr><th>Priority score</th></tr></table>"), "priority-misrepresented", 1);
    expect(w).toMatchObject({ line: 2, column: 28 });
    expectRule(page("", "<p>Priority SLA: 2 days</p>"), "priority-misrepresented", 1);
    expectRule(page("", "<p>Guaranteed priority support</p>"), "priority-misrepresented", 1);
    expectRule(page("", '<span title="Priority target">P</span>'), "priority-misrepresented", 1);
    expectRule(page("el.innerHTML = `<th>Priority score</th>`;"), "priority-misrepresented", 1);
  });

  it("fires for score or percentile shown without reasons", () => {
    const [w] = expectRule(page("cell.textContent = row.priority.score;"), "priority-misrepresented", 1);
    expect(w?.message).toContain("reasons");
    expectRule(page("cell.textContent = row.priority?.percentile;"), "priority-misrepresented", 1);
    expectRule(page("const { score } = row.priority; cell.textContent = score;"), "priority-misrepresented", 1);
  });

  it("does not fire for a rank with its reasons, disclaimers, names or other scores", () => {
    expectNot(page("cell.textContent = row.priority.percentile + ' ' + row.priority.reasons.join(', ');"), "priority-misrepresented");
    expectNot(page("", "<p>Priority (a triage rank, not an SLA or a target)</p>"), "priority-misrepresented");
    expectNot(page("", "<th>Health score</th><th>Priority</th><p>Priority and health score</p>"), "priority-misrepresented");
    expectNot(page('const key = "priority.score"; // priority score', '<td class="priority-score"></td>'), "priority-misrepresented");
    expectNot(page("cell.textContent = issue.priorityLabel + issue.priority;"), "priority-misrepresented");
  });
});

describe("paging-ignored", () => {
  it("fires for a paged endpoint read without nextCursor, once per endpoint", () => {
    const html = page(`${API}fetch(API + "/crm/customers/companies?limit=200"); fetch(API + "/crm/customers/companies");`);
    const [w] = expectRule(html, "paging-ignored", 1);
    expect(w?.message).toContain("/crm/:instance/companies");
    expect(w?.hint).toContain("nextCursor");
    expectRule(page(`${API}const inst = "customers"; fetch(\`\${API}/crm/\${inst}/deals\`);`), "paging-ignored", 1);
    expectRule(page(`${API}fetch(API + "/vendors/support/conversations");`), "paging-ignored", 1);
    expectRule(page(`${API}fetch(API + "/crm/users/contacts"); fetch(API + "/vendors/support/conversations");`), "paging-ignored", 2);
  });

  it("does not fire with nextCursor followed, or for unpaged lists", () => {
    expectNot(page(`${API}async function all() { const { companies, nextCursor } = await (await fetch(API + "/crm/customers/companies")).json(); }`), "paging-ignored");
    expectNot(page(`${API}fetch(API + "/vendors/crmportal/companies"); fetch(API + "/crm/customers/summary"); fetch(API + "/crm/customers/sources");`), "paging-ignored");
    expectNot(page("// /crm/customers/companies is paged", "<p>/crm/customers/companies</p>"), "paging-ignored");
  });
});

describe("non-get-request", () => {
  it("fires for fetch with a write method, XHR, beacons, forms and libraries", () => {
    const [w] = expectRule(page(`${API}fetch(API + "/me", { method: "POST", body: "{}" });`), "non-get-request", 1);
    expect(w?.severity).toBe("error");
    expect(w?.message).toContain("POST");
    expectRule(page(`${API}fetch(API + "/me", { method: "delete" });`), "non-get-request", 1);
    expectRule(page(`${API}const opts = { method: "PUT" };\nfetch(API + "/me", opts);`), "non-get-request", 1);
    expectRule(page(`${API}const req = new Request(API + "/me", { method: "PATCH" });`), "non-get-request", 1);
    expectRule(page(`${API}const x = new XMLHttpRequest(); x.open("POST", API + "/me");`), "non-get-request", 1);
    expectRule(page(`${API}navigator.sendBeacon(API + "/me", "x");`), "non-get-request", 1);
    expectRule(page(`${API}axios.post(API + "/me", {});`), "non-get-request", 1);
    expectRule(page("", '<form method="post" action="/save"><button>Save</button></form>'), "non-get-request", 1);
    expectRule(page("", '<form><button formmethod="POST">Save</button></form>'), "non-get-request", 1);
  });

  it("does not fire for GET, unrelated objects or Set/Map deletes", () => {
    expectNot(page(`${API}fetch(API + "/me", { method: "GET" }); const x = new XMLHttpRequest(); x.open("GET", API + "/me");`), "non-get-request");
    expectNot(page('const payment = { method: "card" }; const cfg = { method: "POST" }; seen.delete(1); map.delete("k");'), "non-get-request");
    expectNot(page("", '<form method="get"><input name="q"></form><form method="dialog"></form>'), "non-get-request");
  });
});

describe("external-resource", () => {
  it("fires for scripts, stylesheets, images, frames and media from URLs, at the attribute value", () => {
    const [w] = expectRule('<script src="https://cdn.example.com/chart.js"></script>', "external-resource", 1);
    expect(w).toMatchObject({ line: 1, column: 14, severity: "error" });
    expect(w?.message).toContain("https://cdn.example.com/chart.js");
    expectRule('<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter">', "external-resource", 1);
    expectRule('<img src="https://example.com/logo.png"><img src="//cdn.example.com/a.png">', "external-resource", 2);
    expectRule('<img src="logo.png">', "external-resource", 1);
    expectRule('<img srcset="a.png 1x, https://x.example/b.png 2x">', "external-resource", 1);
    expectRule('<iframe src="https://example.com/embed"></iframe>', "external-resource", 1);
    expectRule('<video src="https://example.com/v.mp4" poster="data:image/png;base64,AA"></video>', "external-resource", 1);
    expectRule('<link rel="icon" href="/favicon.ico">', "external-resource", 1);
    expectRule('<svg><image href="https://example.com/a.png"/></svg>', "external-resource", 1);
  });

  it("fires for CSS imports and url() in style elements and attributes", () => {
    const css = "<style>\n@import url(\"https://fonts.googleapis.com/css?family=Inter\");\n@font-face { font-family: X; src: url(https://example.com/x.woff2); }\n</style>";
    const ws = expectRule(css, "external-resource", 2);
    expect(ws.map((w) => [w.line, w.column])).toEqual([
      [2, 1],
      [3, 35],
    ]);
    expect(ws[1]?.hint).toMatch(/font/);
    expectRule('<div style="background: url(\'https://example.com/bg.png\')"></div>', "external-resource", 1);
  });

  it("fires for loads from code: modules, markup strings, src assignments, workers and other servers", () => {
    expectRule('<script type="module">import { x } from "https://esm.sh/x";</script>', "external-resource", 1);
    expectRule(page('import("https://esm.sh/d3").then((d3) => d3);'), "external-resource", 1);
    expectRule(page("el.innerHTML = '<img src=\"https://example.com/a.png\">' + name;"), "external-resource", 1);
    expectRule(page('const img = new Image(); img.src = "https://example.com/a.png";'), "external-resource", 1);
    expectRule(page('el.style.background = "url(https://example.com/bg.png)";'), "external-resource", 1);
    expectRule(page('const w = new Worker("worker.js");'), "external-resource", 1);
    const [w] = expectRule(page('fetch("https://api.github.com/repos").then((r) => r.ok && r.json());'), "external-resource", 1);
    expect(w?.message).toMatch(/connect-src/);
  });

  it("does not fire for links, data: images, fragments, comments, CSS strings or non-loading links", () => {
    expectNot(
      '<a href="https://example.com">x</a><img src="data:image/png;base64,AA"><svg><use href="#icon"/></svg>' +
        '<link rel="canonical" href="https://example.com/x"><link rel="preconnect" href="https://example.com">' +
        '<style>/* url(https://example.com/a.png) */ .a::before { content: "url(https://example.com)"; background: url(data:image/svg+xml,%3Csvg%3E) }</style>' +
        '<iframe src="about:blank"></iframe>',
      "external-resource",
    );
    expectNot(page('a.href = "https://example.com/docs"; img.src = `data:image/svg+xml,${svg}`; const s = "https://example.com";'), "external-resource");
  });
});

describe("forbidden-api", () => {
  it("fires for cookies, storage, the frame's neighbours, popups and navigation", () => {
    const cases = [
      "document.cookie",
      "localStorage.setItem('a', '1')",
      "window.sessionStorage.clear()",
      "indexedDB.open('x')",
      "window.top.location",
      "top.postMessage('x', '*')",
      "parent.postMessage('x', '*')",
      "window.parent.document",
      "window.open('https://example.com')",
      "location.href = '/x'",
      "window.location = '/x'",
      "document.location.href = '/x'",
      "location.assign('/x')",
      "location.search = '?a=1'",
    ];
    for (const c of cases) {
      const ws = found(page(c), "forbidden-api");
      expect(ws.length, c).toBe(1);
      expect(ws[0]?.severity).toBe("error");
      expect(ws[0]?.line).toBe(4);
    }
    expectRule('<button onclick="window.open(\'/x\')">x</button>', "forbidden-api", 1);
  });

  it("reports each copy of a repeated handler, and nothing for repeated clean ones", () => {
    const rows = (handler: string) => Array.from({ length: 3 }, () => `<tr><td><button onclick="${handler}">x</button></td></tr>`).join("\n");
    const ws = expectRule(`<table>\n${rows("window.open('/x')")}\n</table>`, "forbidden-api", 3);
    expect(ws.map((w) => w.line)).toEqual([2, 3, 4]);
    expect(checkDraft(`<table>\n${rows("this.closest('tr').classList.toggle('open')")}\n</table>`)).toEqual([]);
  });

  it("reports each copy of a repeated script, whatever kind of code the same text is", () => {
    const ws = expectRule(["<script>localStorage.x = 1</script>", "<script>localStorage.x = 1</script>", '<button onclick="localStorage.x = 1">x</button>'].join("\n"), "forbidden-api", 3);
    expect(ws.map((w) => w.line)).toEqual([1, 2, 3]);
    expect(checkDraft(Array.from({ length: 3 }, () => "<script>document.body.classList.add('ready');</script>").join("\n"))).toEqual([]);
  });

  it("does not fire for local variables, properties and reads", () => {
    expectNot(
      page(
        "const top = rect.top + 4; el.style.top = top + 'px';\n" +
          "function place({ top, left }) { return top + left; }\n" +
          "const parent = el.parentElement; parent.appendChild(x); node.parent.children;\n" +
          "const url = new URL(location.href); location.hash = '#tab';\n" +
          "if (typeof localStorage !== 'undefined') {}\n" +
          "const flags = { localStorage: false, cookie: 1 }; const s = 'document.cookie';\n" +
          "// localStorage.setItem('x', 1)",
      ),
      "forbidden-api",
    );
  });
});

describe("snapshot-without-live", () => {
  const rows = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ id: i, name: `School ${i}` })));
  it("fires (as info) for embedded data with no request", () => {
    const [w] = expectRule(`<script type="application/json" id="data">${rows}</script><script>render(JSON.parse(data.textContent));</script>`, "snapshot-without-live", 1);
    expect(w?.severity).toBe("info");
    expect(w?.hint).toContain("DASHBOARD_API_BASE");
    expectRule(page(`const ROWS = ${rows};\nrender(ROWS);`), "snapshot-without-live", 1);
    expectRule(page("const rows = [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { a: 5 }]; render(rows);"), "snapshot-without-live", 1);
  });

  it("does not fire beside live fetching or for small configuration", () => {
    expectNot(page(`const ROWS = ${rows};\n${API}fetch(API + "/cx/owners").then((r) => r.ok && r.json()).then(render, () => render(ROWS));`), "snapshot-without-live");
    expectNot(page('const series = [{ name: "a" }, { name: "b" }];'), "snapshot-without-live");
    expectNot('<script type="application/json">{"theme": "dark"}</script>', "snapshot-without-live");
  });
});

/** The text a finding points at. */
function at(html: string, w: { line: number; column: number } | undefined): string {
  const lines = html.split("\n");
  return (lines[(w?.line ?? 1) - 1] ?? "").slice((w?.column ?? 1) - 1) + "\n" + lines.slice(w?.line ?? 1).join("\n");
}

describe("the snapshot rules", () => {
  const snap = (attrs: string, body = '{"rows": []}') => `<script type="application/json" id="dashboard-snapshot"${attrs}>${body}</script>`;
  const fallBack = `${API}fetch(API + "/cx/districts").then((r) => { if (!r.ok) { const s = window.dashboardSnapshot("Districts"); render(s && s.data); return; } return r.json(); }, () => render(null));`;

  it("snapshot-undated fires for a missing, zoneless, impossible or padded time, at the attribute", () => {
    const [w] = expectRule(snap("") + page(fallBack), "snapshot-undated", 1);
    expect(w?.message).toContain("has no `data-taken-at`");
    for (const taken of ["2026-11-20T09:00:00", "2026-02-31", " 2026-11-20", "yesterday"]) {
      const html = snap(` data-taken-at="${taken}"`) + page(fallBack);
      const [hit] = expectRule(html, "snapshot-undated", 1);
      expect(hit?.message).toContain(`data-taken-at="${taken}"`);
      expect(at(html, hit).startsWith(taken)).toBe(true);
    }
  });

  it("snapshot-undated is quiet for a date, a UTC time or an offset, and for JSON blocks that are not the snapshot", () => {
    for (const at of ["2026-11-20", "2026-11-20T06:00:00Z", "2026-11-20T07:00+01:00", "2026-11-20T06:00:00.123Z"]) {
      expectNot(snap(` data-taken-at="${at}"`) + page(fallBack), "snapshot-undated");
    }
    expectNot('<script type="application/json" id="config">{"theme": "dark"}</script>' + page(fallBack), "snapshot-undated");
  });

  it("snapshot-helper-without-snapshot fires when the helper has nothing to read, at the call", () => {
    const html = page(fallBack);
    const [w] = expectRule(html, "snapshot-helper-without-snapshot", 1);
    expect(at(html, w).startsWith("dashboardSnapshot(")).toBe(true);
    expectRule(page('const s = window["dashboardSnapshot"]();'), "snapshot-helper-without-snapshot", 1);
    expectNot(snap(' data-taken-at="2026-11-20"') + page(fallBack), "snapshot-helper-without-snapshot");
    // Another element's id is not the snapshot.
    expectRule('<script type="application/json" id="dashboard-snapshots">{}</script>' + page(fallBack), "snapshot-helper-without-snapshot", 1);
  });

  it("snapshot-unannounced fires for a fetching dashboard that reads its snapshot behind the page's back", () => {
    const silent = `${API}fetch(API + "/cx/districts").then((r) => r.json(), () => JSON.parse(document.getElementById("dashboard-snapshot").textContent));`;
    const html = snap(' data-taken-at="2026-11-20"') + page(silent);
    const [w] = expectRule(html, "snapshot-unannounced", 1);
    expect(at(html, w).startsWith('<script type="application/json" id="dashboard-snapshot"')).toBe(true);
    expectNot(snap(' data-taken-at="2026-11-20"') + page(fallBack), "snapshot-unannounced");
    // With no request there is nothing live to fall back from: the snapshot is the dashboard.
    expectNot(snap(' data-taken-at="2026-11-20"') + page('render(JSON.parse(document.getElementById("dashboard-snapshot").textContent));'), "snapshot-unannounced");
  });
});

describe("dead-link", () => {
  it("fires for hard-coded addresses of other sites in links, as markup or code writes them", () => {
    const [w] = expectRule('<a href="https://tracker.example.com/issue/ENG-1" target="_blank">ENG-1</a>', "dead-link", 1);
    expect(w?.severity).toBe("warning");
    expect(w?.message).toContain("https://tracker.example.com/issue/ENG-1");
    expect(w?.message).toContain("URL from an API answer");
    expect(w?.hint).toContain("issue.url");
    expectRule('<a href="//cdn.example.com/x">x</a><area href="http://example.com/map">', "dead-link", 2);
    expectRule('<svg><a xlink:href="https://example.com/x"><text>x</text></a></svg>', "dead-link", 1);
    expectRule(page('const a = document.createElement("a"); a.href = "https://example.com/docs";'), "dead-link", 1);
    expectRule(page('link.setAttribute("href", "https://example.com/docs");'), "dead-link", 1);
    expectRule(page(`el.innerHTML = '<a href="https://example.com/help">help</a>' + name;`), "dead-link", 1);
  });

  it("places the finding at the address", () => {
    const html = '<p>x</p><a href="https://example.com/a">a</a>';
    const [w] = expectRule(html, "dead-link", 1);
    expect(at(html, w).startsWith("https://example.com/a")).toBe(true);
  });

  it("stays quiet for links built from data, pages of this site and fragments", () => {
    expectNot(page('a.href = issue.url; b.setAttribute("href", call.url); c.href = "https://tracker.example.com/" + key;'), "dead-link");
    expectNot(page("el.innerHTML = `<a href=\"${repo.url}\" target=\"_blank\">${repo.nameWithOwner}</a>`;"), "dead-link");
    expectNot('<a href="/docs">docs</a><a href="/~/csm/book?p.district=North">book</a><a href="#top">top</a><a href="?x=1">x</a>', "dead-link");
    // Not links: a resource has its own rule, and location has forbidden-api.
    expectNot('<link rel="canonical" href="https://example.com/x"><img src="data:image/png;base64,AA">', "dead-link");
    expectNot(page('location.href = "https://example.com";'), "dead-link");
  });

  it("says what works when a dashboard opens a window", () => {
    const [w] = expectRule(page("window.open(issue.url);"), "forbidden-api", 1);
    expect(w?.hint).toContain("URL from the data");
  });
});

describe("coverage of the rule list", () => {
  it("has a document above that triggers every rule", () => {
    const docs = [
      "",
      "<script>if (</script>",
      page('fetch("/api/me?scenario=x&basis=activity").then((r) => r.json()); document.cookie; rows.reduce((s, r) => s + r.arr, 0); row.priority.score;'),
      page('fetch(API + "/cx/book", { method: "POST", body: "" }).then((b) => b.data); fetch(API + "/crm/customers/deals");', '<img src="https://x.example/a.png">'),
      page("const rows = [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { a: 5 }]; const d = rows.data;"),
      page("new RTCPeerConnection();"),
      '<script type="application/json" id="dashboard-snapshot">{}</script>' + page(`${API}fetch(API + "/me");`),
      page("dashboardSnapshot();"),
      '<a href="https://example.com/help">Help</a>',
      page("fetch(API + atob(\"L21l\"));"),
    ];
    const seen = new Set(docs.flatMap((d) => checkDraft(d).map((w) => w.rule)));
    expect([...seen].sort()).toEqual(checkRules.map((r) => r.id).sort());
  });
});
