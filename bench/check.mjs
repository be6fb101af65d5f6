// Times the static check of a draft on a ~1 MiB dashboard, in process:
//
//   npx tsx bench/check.mjs [--runs 40] [--size 1048576] [--dump doc.html]
//
// The document is generated (deterministically): a page of cards and tables, an SVG chart, a
// stylesheet, a JSON data block, an embedded data array and a few large inline scripts of
// ordinary dashboard code (`--dump` writes it out). Beside checkDraft it times, in the same run
// and interleaved:
// - parsers only: htmlparser2's tokenizer over the document plus meriyah, with the check's
//   options, over every inline script and nothing else. The check reads a leading
//   `const DATA = <JSON>;` with a JSON scanner instead of meriyah, so on documents with a large
//   embedded snapshot it can come close to this;
// - JSON.parse of a string of the same size, a familiar yardstick.
// Target: the median check of 1 MiB under 50 ms.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { Tokenizer } from "htmlparser2";
import { parseScript } from "meriyah";
import { checkDraft } from "../lib/check/index.ts";
import { PARSE_OPTIONS } from "../lib/check/js.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "40" },
    size: { type: "string", default: String(1024 * 1024) },
    dump: { type: "string" },
  },
});
const runs = Number(args.runs);
const target = Number(args.size);

// ── A realistic dashboard ────────────────────────────────────────────────────────────────
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const words = ["Springfield", "Riverside", "Oak Hill", "Lakeview", "Maple", "Cedar", "Pine Ridge", "Harbor", "Summit", "Valley"];
const kinds = ["Elementary", "Middle", "High", "Academy", "Prep"];

function school(i) {
  return {
    companyId: `c-${1000 + i}`,
    schoolName: `${pick(words)} ${pick(kinds)} School ${i}`,
    districtName: `${pick(words)} Unified`,
    enrolment: Math.floor(200 + rand() * 1800),
    tier: pick(["gold", "silver", "bronze"]),
    health: { band: pick(["STRONG", "GOOD", "MODERATE", "POOR"]), latest: { date: "2025-05-01", score: Math.round(rand() * 100) } },
  };
}

const appScript = (n) => `
(function () {
  "use strict";
  const API = window.DASHBOARD_API_BASE || "/api";
  const state = { owner: null, rows: [], districts: new Map(), sort: "schoolName", dir: 1 };

  async function getJson(path) {
    const res = await fetch(API + path);
    if (!res.ok) {
      const err = await res.json().catch(() => ({}));
      throw Object.assign(new Error(err.error || "HTTP " + res.status), { hint: err.hint, status: res.status });
    }
    return res.json();
  }

  async function loadPaged(path, key) {
    const out = [];
    let cursor = null;
    do {
      const page = await getJson(path + "?limit=200" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
      out.push(...page[key]);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  function fmtMoney(v) {
    return v == null ? "–" : new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(v);
  }

  function renderRow${n}(r) {
    const reasons = (r.priority && r.priority.reasons) || [];
    return \`<tr data-id="\${r.companyId}"><td>\${r.schoolName}</td><td>\${r.districtName}</td>
      <td class="num">\${r.enrolment ?? "–"}</td><td><span class="band band-\${r.health ? r.health.band : "none"}">\${r.health ? r.health.band : "No data"}</span></td>
      <td>\${reasons.map((x) => "<span class=chip>" + x + "</span>").join("")}</td></tr>\`;
  }

  function districtTotals(rows) {
    const perDistrict = new Map();
    for (const r of rows) if (!perDistrict.has(r.districtName)) perDistrict.set(r.districtName, r.arr ?? 0);
    let total = 0;
    for (const v of perDistrict.values()) total += v;
    return { total, count: perDistrict.size };
  }

  function sortRows(rows, key, dir) {
    return rows.slice().sort((a, b) => (a[key] > b[key] ? dir : a[key] < b[key] ? -dir : 0));
  }

  async function main() {
    const owners = await getJson("/cx/owners");
    if (!owners.ok) { document.getElementById("notice").textContent = owners.waitingOn; return; }
    state.owner = owners.data.owners[0];
    const book = await getJson("/cx/book?owner=" + encodeURIComponent(state.owner.ownerId));
    if (!book.ok) { document.getElementById("notice").textContent = book.waitingOn; return; }
    state.rows = book.data.rows;
    const companies = await loadPaged("/crm/customers/companies", "companies");
    const t = districtTotals(state.rows);
    document.getElementById("arr").textContent = fmtMoney(t.total);
    document.getElementById("tbody").innerHTML = sortRows(state.rows, state.sort, state.dir).map(renderRow${n}).join("");
    document.querySelectorAll("th[data-key]").forEach((th) => th.addEventListener("click", () => {
      state.dir = state.sort === th.dataset.key ? -state.dir : 1;
      state.sort = th.dataset.key;
      document.getElementById("tbody").innerHTML = sortRows(state.rows, state.sort, state.dir).map(renderRow${n}).join("");
    }));
    console.log(companies.length);
  }
  main().catch((e) => { document.getElementById("notice").textContent = e.message + (e.hint ? " — " + e.hint : ""); });
})();
`;

function buildDocument(size) {
  const parts = [];
  parts.push(`<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Book of business</title>\n<style>\n`);
  for (let i = 0; i < 300; i++) {
    parts.push(`.card-${i} { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; padding: 12px; border-radius: 8px; background: #f${i % 10}f${i % 10}f${i % 10}; }\n`);
    parts.push(`.card-${i} h3 { font: 600 14px/1.3 system-ui, sans-serif; color: #333; } /* card ${i} */\n`);
  }
  parts.push(`</style>\n</head>\n<body>\n<header><h1>Book of business</h1><p id="notice" role="status"></p><p>Priority is a triage rank, not an SLA.</p></header>\n`);
  // Big inline scripts: application code and an embedded fallback snapshot.
  const rows = Array.from({ length: 900 }, (_, i) => school(i));
  parts.push(`<script type="application/json" id="snapshot">${JSON.stringify({ rows: rows.slice(0, 300) })}</script>\n`);
  parts.push(`<script>\nconst FALLBACK_ROWS = ${JSON.stringify(rows, null, 1)};\n</script>\n`);
  for (let k = 0; k < 6; k++) parts.push(`<script>\n${appScript(k).repeat(12)}\n</script>\n`);
  // Markup until the target size: cards, tables and an SVG chart per section.
  let i = 0;
  let length = parts.reduce((n, p) => n + p.length, 0);
  while (length < size - 200) {
    const r = school(i);
    const section =
      `<section class="card-${i % 300}" aria-label="${r.schoolName}">\n` +
      `  <h3 title="${r.districtName}">${r.schoolName} &middot; ${r.tier}</h3>\n` +
      `  <table><thead><tr><th data-key="schoolName">School</th><th data-key="enrolment">Enrolment</th><th>Health</th></tr></thead>\n` +
      `  <tbody><tr><td>${r.schoolName}</td><td class="num">${r.enrolment}</td><td><span class="band band-${r.health.band}">${r.health.band}</span></td></tr>\n` +
      `  <tr><td colspan="3"><button type="button" onclick="this.closest('section').classList.toggle('open')">Details</button></td></tr></tbody></table>\n` +
      `  <svg viewBox="0 0 120 24" width="120" height="24"><polyline fill="none" stroke="#4a7" points="${Array.from({ length: 12 }, (_, x) => `${x * 10},${Math.round(rand() * 24)}`).join(" ")}"/></svg>\n` +
      `</section>\n`;
    parts.push(section);
    length += section.length;
    i++;
  }
  parts.push(`<table><tbody id="tbody"></tbody></table><p>Total ARR: <b id="arr"></b></p>\n</body>\n</html>\n`);
  return parts.join("");
}

const html = buildDocument(target);
if (args.dump) fs.writeFileSync(args.dump, html);
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const scriptBytes = scripts.reduce((n, s) => n + s.length, 0);
const jsonText = JSON.stringify(Array.from({ length: Math.ceil(html.length / 60) }, (_, i) => ({ id: i, name: `row ${i}`, v: i * 3 }))).slice(0, html.length);
const jsonInput = `${jsonText.slice(0, jsonText.lastIndexOf("},") + 1)}]`;

function parsersOnly() {
  const noop = () => {};
  const t = new Tokenizer(
    { decodeEntities: true },
    {
      onattribdata: noop, onattribentity: noop, onattribend: noop, onattribname: noop, oncdata: noop, onclosetag: noop,
      oncomment: noop, ondeclaration: noop, onend: noop, onopentagend: noop, onopentagname: noop,
      onprocessinginstruction: noop, onselfclosingtag: noop, ontext: noop, ontextentity: noop,
    },
  );
  t.write(html);
  t.end();
  for (const s of scripts) parseScript(s, PARSE_OPTIONS);
}

const warnings = checkDraft(html);
console.log(
  `document ${(html.length / 1024).toFixed(0)} KiB (${(scriptBytes / 1024).toFixed(0)} KiB in ${scripts.length} inline scripts), ` +
    `${warnings.length} findings: ${[...new Set(warnings.map((w) => w.rule))].join(", ") || "none"}`,
);

const cases = {
  checkDraft: () => checkDraft(html),
  "parsers only": parsersOnly,
  "JSON.parse same size": () => JSON.parse(jsonInput),
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < 5; i++) for (const fn of Object.values(cases)) fn(); // warm up the JIT
for (let r = 0; r < runs; r++) {
  // Interleaved, so drift in machine load moves every case alike.
  for (const [name, fn] of Object.entries(cases)) {
    const t0 = performance.now();
    fn();
    samples[name].push(performance.now() - t0);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const p95 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
};
const check = median(samples.checkDraft);
for (const [name, xs] of Object.entries(samples)) {
  const m = median(xs);
  const ratio = name === "checkDraft" ? "" : `  checkDraft is ${(check / m).toFixed(2)}× this`;
  console.log(`${name.padEnd(22)} median ${m.toFixed(2).padStart(7)} ms  p95 ${p95(xs).toFixed(2).padStart(7)} ms${ratio}`);
}
const perMiB = check / (html.length / (1024 * 1024));
console.log(`checkDraft: ${perMiB.toFixed(1)} ms per MiB — target under 50 ms: ${perMiB < 50 ? "met" : "NOT met"}`);
