// A best-practice dashboard the playground editor starts from: every rule of the static check
// is satisfied, so a new author sees what a clean draft looks like before changing it.

export const cxBookExample = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>CX book</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 16px; color: #1b1f24; overflow-wrap: break-word; }
  h1 { font-size: 1.3rem; margin: 0 0 8px; }
  .toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; }
  .toolbar select { max-width: 100%; font: inherit; }
  /* A table wider than a phone scrolls inside its own box, never the whole dashboard sideways. */
  .scroll { overflow-x: auto; margin-top: 12px; }
  .scroll:focus-visible { outline: 2px solid #0b5cad; outline-offset: 2px; }
  .notice { padding: 8px 12px; border-radius: 6px; background: #fff8c5; }
  .error { padding: 8px 12px; border-radius: 6px; background: #ffebe9; color: #b42318; }
  .muted { color: #57606a; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d0d7de; vertical-align: top; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  td.why { min-width: 14em; }
  @media (max-width: 600px) {
    body { margin: 12px; }
    th, td { padding: 4px 6px; }
    /* Room for names to read as names; the box scrolls for the rest. */
    table { min-width: 36rem; }
  }
</style>
</head>
<body>
<h1 id="title">CX book</h1>
<div class="toolbar"><label for="owner">Owner</label><select id="owner"></select></div>
<div id="status" role="status"></div>
<p id="summary"></p>
<p id="support" class="muted"></p>
<div class="scroll" role="region" aria-label="Schools in the book" tabindex="0">
<table>
  <thead>
    <tr>
      <th scope="col">School</th>
      <th scope="col">District</th>
      <th scope="col" class="num">District ARR</th>
      <th scope="col">Triage rank (heuristic, not a target)</th>
      <th scope="col">Why</th>
    </tr>
  </thead>
  <tbody id="rows"></tbody>
</table>
</div>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  const statusEl = document.getElementById("status");
  const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

  function showError(res, body) {
    statusEl.className = "error";
    statusEl.textContent = res.status === 401
      ? "Sign in to see this dashboard."
      : (body.error || "Request failed (" + res.status + ")") + (body.hint ? ": " + body.hint : "");
  }

  function showWaiting(text) {
    statusEl.className = "notice";
    statusEl.textContent = text;
  }

  // A CX view answers {ok: true, data} or {ok: false, waitingOn}; any non-200 is the error envelope.
  // Waiting (say, on the first CRM sync) passes by itself, so the view asks again until it can
  // answer: a dashboard left open fills in once the data is there.
  const RECHECK_MS = 5000;
  async function readCx(path) {
    for (;;) {
      const res = await fetch(API + path);
      if (!res.ok) {
        showError(res, await res.json().catch(() => ({})));
        return null;
      }
      const body = await res.json();
      if (body.ok) return body.data;
      showWaiting("Waiting on " + body.waitingOn + "; checking again by itself.");
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
    }
  }

  async function loadOwners() {
    const data = await readCx("/cx/owners?activeOnly=true");
    if (!data) return;
    const select = document.getElementById("owner");
    select.replaceChildren(...data.owners.map((o) => new Option(o.name, o.ownerId)));
    select.addEventListener("change", () => loadBook(select.value));
    if (data.owners.length > 0) loadBook(data.owners[0].ownerId);
    else showWaiting("No owners yet.");
  }

  async function loadBook(owner) {
    const data = await readCx("/cx/book?owner=" + encodeURIComponent(owner));
    if (!data) return;
    statusEl.className = "";
    statusEl.textContent = "";
    render(data.rows);
  }

  function render(rows) {
    // ARR is district grain: each school carries its district's figure, so take it once per district.
    const perDistrict = new Map(rows.map((r) => [r.districtName, r.arr ?? 0]));
    let total = 0;
    for (const v of perDistrict.values()) total = total + v;
    document.getElementById("summary").textContent =
      rows.length + " schools in " + perDistrict.size + " districts · ARR " + money.format(total) + " (counted once per district)";

    const seen = new Set();
    const tbody = document.getElementById("rows");
    tbody.replaceChildren(...rows.map((r) => {
      const tr = document.createElement("tr");
      const first = !seen.has(r.districtName);
      seen.add(r.districtName);
      const cells = [
        r.schoolName,
        r.districtName,
        first && r.arr != null ? money.format(r.arr) : "",
        r.priority ? "top " + (101 - r.priority.percentile) + "%" : "—",
        r.priority ? r.priority.reasons.join("; ") : "",
      ];
      cells.forEach((text, i) => {
        const td = document.createElement("td");
        td.textContent = text;
        if (i === 2) td.className = "num";
        if (i === 4) td.className = "why";
        tr.append(td);
      });
      return tr;
    }));
  }

  async function loadSupport() {
    let cursor = null;
    let count = 0;
    do {
      const res = await fetch(API + "/vendors/support/conversations" + (cursor ? "?cursor=" + encodeURIComponent(cursor) : ""));
      if (!res.ok) {
        const err = await res.json().catch(() => ({}));
        document.getElementById("support").textContent = "Support: " + (err.error || res.status) + (err.hint ? " (" + err.hint + ")" : "");
        return;
      }
      const page = await res.json();
      count += page.conversations.length;
      cursor = page.nextCursor;
    } while (cursor);
    document.getElementById("support").textContent = count + " support conversations";
  }

  loadOwners();
  loadSupport();
</script>
</body>
</html>
`;
