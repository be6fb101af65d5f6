// A best-practice CRM pipeline dashboard: the summary for the totals, every page of deals
// (cursor paging) for the open pipeline, and the sync state so the reader knows how fresh the
// figures are. Each non-200 answer is shown as what it means, not as zeroes.

export const crmPipelineExample = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>CRM pipeline</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 16px; color: #1b1f24; overflow-wrap: break-word; }
  h1 { font-size: 1.3rem; margin: 0 0 4px; }
  h2 { font-size: 1.05rem; margin: 16px 0 4px; }
  .notice { padding: 8px 12px; border-radius: 6px; background: #fff8c5; }
  .error { padding: 8px 12px; border-radius: 6px; background: #ffebe9; color: #b42318; }
  .muted { color: #57606a; }
  .totals { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 8px 0; padding: 0; list-style: none; }
  .totals strong { display: block; font-size: 1.4rem; }
  /* A table wider than a phone scrolls inside its own box, never the whole dashboard sideways. */
  .scroll { overflow-x: auto; }
  .scroll:focus-visible { outline: 2px solid #0b5cad; outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
  caption { text-align: left; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d0d7de; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .share { white-space: nowrap; }
  /* The bar is a share of a track that narrows with the screen. */
  .track { display: inline-block; width: 8em; max-width: 15vw; vertical-align: middle; }
  .bar { display: block; height: 10px; background: #0b5cad; border-radius: 2px; }
  @media (max-width: 600px) {
    body { margin: 12px; }
    th, td { padding: 4px 6px; }
  }
</style>
</head>
<body>
<h1>CRM pipeline</h1>
<p id="freshness" class="muted">Checking how fresh the CRM data is…</p>
<div id="status" role="status"></div>
<ul id="totals" class="totals"></ul>
<h2>Open pipeline by stage</h2>
<div class="scroll" role="region" aria-label="Open pipeline by stage" tabindex="0">
<table>
  <thead><tr><th scope="col">Stage</th><th scope="col" class="num">Deals</th><th scope="col" class="num">Amount</th><th scope="col"><span class="muted">Share</span></th></tr></thead>
  <tbody id="stages"><tr><td colspan="4" class="muted">Loading…</td></tr></tbody>
</table>
</div>
<h2>Largest open deals</h2>
<div class="scroll" role="region" aria-label="Largest open deals" tabindex="0">
<table>
  <caption id="deals-caption" class="muted"></caption>
  <thead><tr><th scope="col">Deal</th><th scope="col">Stage</th><th scope="col">Close date</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody id="deals"><tr><td colspan="4" class="muted">Loading…</td></tr></tbody>
</table>
</div>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  const statusEl = document.getElementById("status");
  const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
  const STAGES = {
    appointmentscheduled: "Appointment scheduled",
    qualifiedtobuy: "Qualified to buy",
    presentationscheduled: "Presentation scheduled",
    decisionmakerboughtin: "Decision maker bought in",
    contractsent: "Contract sent",
    closedwon: "Closed won",
    closedlost: "Closed lost",
  };
  const CLOSED = new Set(["closedwon", "closedlost"]);
  const stageName = (s) => STAGES[s] || s || "No stage";

  function say(kind, text) {
    statusEl.className = kind;
    statusEl.textContent = text;
  }

  // Every non-200 means something different to the reader; none of them is "no deals".
  function explain(status, err) {
    const hint = err.hint ? " " + err.hint : "";
    if (status === 401) return ["error", "Sign in to see the pipeline."];
    if (status === 403) return ["error", "You may not read the customers CRM." + hint];
    if (err.error === "crm_not_synced") return ["notice", "The first CRM sync is still running; figures appear when it finishes." + hint];
    return ["error", "The CRM could not be read (" + (err.error || "HTTP " + status) + ")." + hint];
  }

  function fail(res, err, tbodyId) {
    const [kind, text] = explain(res.status, err);
    say(kind, text);
    message(tbodyId, text);
  }

  /** One row across the table: loading, nothing to show, or why not. */
  function message(tbodyId, text) {
    const td = document.createElement("td");
    td.colSpan = 4;
    td.className = "muted";
    td.textContent = text;
    const tr = document.createElement("tr");
    tr.append(td);
    document.getElementById(tbodyId).replaceChildren(tr);
  }

  /** A table row; the columns at \`numeric\` are right-aligned figures. */
  function tableRow(cells, numeric) {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.append(c);
      if (numeric.includes(i)) td.className = "num";
      tr.append(td);
    });
    return tr;
  }

  async function loadFreshness() {
    const el = document.getElementById("freshness");
    const res = await fetch(API + "/crm/customers/sources");
    if (!res.ok) {
      el.textContent = "Sync state unavailable (HTTP " + res.status + ").";
      return;
    }
    const body = await res.json();
    const src = body.sources[0];
    if (!src) { el.textContent = "No CRM source is wired."; return; }
    const when = src.lastSuccessAt ? new Date(src.lastSuccessAt).toLocaleString() : "never";
    el.textContent = src.status === "failed"
      ? "The last CRM sync failed; figures are from the sync of " + when + "."
      : src.status === "running" && !src.lastSuccessAt
        ? "The first CRM sync is running."
        : "CRM data synced " + when + ".";
  }

  async function loadSummary() {
    const res = await fetch(API + "/crm/customers/summary");
    if (!res.ok) {
      const err = await res.json().catch(() => ({}));
      fail(res, err, "stages");
      return;
    }
    const summary = await res.json();
    const totals = document.getElementById("totals");
    totals.replaceChildren(...[["Companies", summary.totals.companies], ["Contacts", summary.totals.contacts], ["Deals", summary.totals.deals]].map(([label, n]) => {
      const li = document.createElement("li");
      const strong = document.createElement("strong");
      strong.textContent = n.toLocaleString("en-US");
      li.append(strong, label);
      return li;
    }));
    // A non-monetary CRM has no pipeline at all: say so rather than show empty money.
    if (!summary.pipeline) {
      message("stages", "This CRM does not track deal amounts.");
      return;
    }
    const open = summary.pipeline.filter((p) => !CLOSED.has(p.stage));
    const total = open.reduce((s, p) => s + p.amount, 0);
    if (open.length === 0) { message("stages", "No open deals."); return; }
    document.getElementById("stages").replaceChildren(...open.map((p) => {
      const share = total ? p.amount / total : 0;
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = Math.round(share * 100) + "%";
      const track = document.createElement("span");
      track.className = "track";
      track.setAttribute("aria-hidden", "true");
      track.append(bar);
      const cell = document.createElement("span");
      cell.className = "share";
      cell.append(track, " " + Math.round(share * 100) + "%");
      return tableRow([stageName(p.stage), String(p.count), money.format(p.amount), cell], [1, 2]);
    }));
  }

  async function loadDeals() {
    const deals = [];
    let cursor = null;
    do {
      const res = await fetch(API + "/crm/customers/deals?limit=25" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
      if (!res.ok) {
        const err = await res.json().catch(() => ({}));
        fail(res, err, "deals");
        return;
      }
      const page = await res.json();
      deals.push(...page.deals);
      cursor = page.nextCursor;
    } while (cursor);

    const open = deals.filter((d) => !CLOSED.has(d.stage)).sort((a, b) => (b.amount || 0) - (a.amount || 0));
    if (open.length === 0) { message("deals", deals.length ? "Every deal is closed." : "No deals yet."); return; }
    document.getElementById("deals-caption").textContent =
      "The 10 largest of " + open.length + " open deals (" + deals.length + " deals in the CRM, every page read)";
    document.getElementById("deals").replaceChildren(...open.slice(0, 10).map((d) =>
      tableRow([d.name, stageName(d.stage), d.closeDate || "—", d.amount == null ? "—" : money.format(d.amount)], [3])));
  }

  loadFreshness().catch(() => say("error", "The dashboard API could not be reached."));
  loadSummary().catch(() => say("error", "The dashboard API could not be reached."));
  loadDeals().catch(() => say("error", "The dashboard API could not be reached."));
</script>
</body>
</html>
`;
