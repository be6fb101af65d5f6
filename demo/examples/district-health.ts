// A best-practice dashboard that embeds a data snapshot and falls back to it: it fetches the
// district rollup, and only when live data cannot be had for now (the network, or a 5xx other
// than a system not set up or never synced here) it shows the embedded snapshot instead, says
// why, and calls window.dashboardSnapshot() so the page around the frame says snapshot data is
// shown, and from when. A signed-out viewer, a refusal or a waiting deployment is a state to
// show, never a reason to show the snapshot.

export const SNAPSHOT_TAKEN_AT = "2026-11-20T06:00:00Z";

export const districtHealthExample = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>District health</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 16px; color: #1b1f24; overflow-wrap: break-word; }
  h1 { font-size: 1.3rem; margin: 0 0 4px; }
  .notice { padding: 8px 12px; border-radius: 6px; background: #fff8c5; }
  .error { padding: 8px 12px; border-radius: 6px; background: #ffebe9; color: #b42318; }
  .muted { color: #57606a; }
  .bands { display: flex; flex-wrap: wrap; gap: 6px 16px; list-style: none; padding: 0; margin: 8px 0; }
  .band { display: inline-block; min-width: 6.5em; padding: 0 6px; border-radius: 4px; font-size: 0.8rem; font-weight: 600; }
  .STRONG { background: #dafbe1; color: #116329; }
  .GOOD { background: #ddf4ff; color: #0a3069; }
  .MODERATE { background: #fff8c5; color: #4d2d00; }
  .POOR { background: #ffebe9; color: #82071e; }
  .NO_BASELINE, .NONE { background: #eaeef2; color: #424a53; }
  /* A table wider than a phone scrolls inside its own box, never the whole dashboard sideways. */
  .scroll { overflow-x: auto; margin-top: 8px; }
  .scroll:focus-visible { outline: 2px solid #0b5cad; outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d0d7de; vertical-align: middle; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  td.touch { white-space: nowrap; }
  /* The sparkline is drawn in its own 80×20 units and scales with its column. */
  svg.trend { display: block; width: 100%; max-width: 80px; min-width: 48px; height: auto; }
  @media (max-width: 600px) {
    body { margin: 12px; }
    th, td { padding: 4px 6px; }
    .band { min-width: 0; }
    th[scope="row"] { min-width: 9em; }
  }
</style>
</head>
<body>
<h1>District health</h1>
<div id="status" role="status"></div>
<p id="source" class="muted">Loading…</p>
<p id="window" class="muted"></p>
<ul id="bands" class="bands" aria-label="Districts by health band"></ul>
<div class="scroll" role="region" aria-label="Districts" tabindex="0">
<table>
  <thead>
    <tr>
      <th scope="col">District</th>
      <th scope="col">Health</th>
      <th scope="col">Trend</th>
      <th scope="col">Last touch</th>
      <th scope="col" class="num">Calls · meetings · emails</th>
    </tr>
  </thead>
  <tbody id="rows"></tbody>
</table>
</div>

<script type="application/json" id="dashboard-snapshot" data-taken-at="${SNAPSHOT_TAKEN_AT}">
{"rows":[
{"name":"Birchwood Unified School District","health":{"series":[{"date":"2026-10-23","score":70.5},{"date":"2026-10-30","score":60.3},{"date":"2026-11-06","score":64.8},{"date":"2026-11-13","score":64},{"date":"2026-11-20","score":63.4}],"latest":{"date":"2026-11-20","score":63.4},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-17","daysSinceContact":3,"byKind":{"call":3,"meeting":3,"email":2},"silent30d":false}},
{"name":"Clear Crossing Independent School District","health":{"series":[{"date":"2026-10-23","score":44},{"date":"2026-10-30","score":63.6},{"date":"2026-11-06","score":63},{"date":"2026-11-13","score":61.9},{"date":"2026-11-20","score":67.8}],"latest":{"date":"2026-11-20","score":67.8},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-17","daysSinceContact":3,"byKind":{"call":6,"meeting":2,"email":6},"silent30d":false}},
{"name":"Eagle Hills Unified School District","health":{"series":[{"date":"2026-10-23","score":76},{"date":"2026-10-30","score":69.2},{"date":"2026-11-06","score":66.6},{"date":"2026-11-13","score":67.5},{"date":"2026-11-20","score":70.3}],"latest":{"date":"2026-11-20","score":70.3},"band":"GOOD"},"cadence":{"lastTouchDate":"2026-11-20","daysSinceContact":0,"byKind":{"call":3,"meeting":6,"email":5},"silent30d":false}},
{"name":"Eaglefield Community Schools","health":{"series":[{"date":"2026-10-23","score":64.3},{"date":"2026-10-30","score":60.2},{"date":"2026-11-06","score":60.8},{"date":"2026-11-13","score":65.3},{"date":"2026-11-20","score":59.6}],"latest":{"date":"2026-11-20","score":59.6},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-19","daysSinceContact":1,"byKind":{"call":3,"meeting":2,"email":6},"silent30d":false}},
{"name":"Eagleton School District","health":{"series":[{"date":"2026-10-30","score":57.4},{"date":"2026-11-06","score":51.8},{"date":"2026-11-13","score":60.4},{"date":"2026-11-20","score":56.8}],"latest":{"date":"2026-11-20","score":56.8},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-20","daysSinceContact":0,"byKind":{"call":1,"meeting":3,"email":1},"silent30d":false}},
{"name":"East Falls Community Schools","health":{"series":[{"date":"2026-10-23","score":55},{"date":"2026-10-30","score":67.7},{"date":"2026-11-06","score":63.7},{"date":"2026-11-13","score":64},{"date":"2026-11-20","score":59.7}],"latest":{"date":"2026-11-20","score":59.7},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-14","daysSinceContact":6,"byKind":{"call":0,"meeting":1,"email":3},"silent30d":false}},
{"name":"Elm Ridge Unified School District","health":{"series":[{"date":"2026-10-23","score":74},{"date":"2026-10-30","score":66.3},{"date":"2026-11-06","score":64},{"date":"2026-11-13","score":60.6},{"date":"2026-11-20","score":62.3}],"latest":{"date":"2026-11-20","score":62.3},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-10-30","daysSinceContact":21,"byKind":{"call":0,"meeting":1,"email":1},"silent30d":false}},
{"name":"Elmfield School District","health":{"series":[{"date":"2026-10-23","score":71.5},{"date":"2026-10-30","score":61.3},{"date":"2026-11-06","score":57},{"date":"2026-11-13","score":60.9},{"date":"2026-11-20","score":57.4}],"latest":{"date":"2026-11-20","score":57.4},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-20","daysSinceContact":0,"byKind":{"call":0,"meeting":3,"email":7},"silent30d":false}},
{"name":"Granitefield Unified School District","health":{"series":[{"date":"2026-10-30","score":83},{"date":"2026-11-06","score":98},{"date":"2026-11-13","score":83.5},{"date":"2026-11-20","score":81.5}],"latest":{"date":"2026-11-20","score":81.5},"band":"STRONG"},"cadence":{"lastTouchDate":"2026-11-15","daysSinceContact":5,"byKind":{"call":3,"meeting":4,"email":4},"silent30d":false}},
{"name":"Hazel Point Independent School District","health":{"series":[{"date":"2026-10-30","score":60.3},{"date":"2026-11-06","score":57.3},{"date":"2026-11-13","score":55.8},{"date":"2026-11-20","score":47.7}],"latest":{"date":"2026-11-20","score":47.7},"band":"MODERATE"},"cadence":{"lastTouchDate":"2026-11-07","daysSinceContact":13,"byKind":{"call":1,"meeting":0,"email":3},"silent30d":false}}
]}
</script>

<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  const statusEl = document.getElementById("status");
  const BANDS = ["STRONG", "GOOD", "MODERATE", "POOR", "NO_BASELINE"];

  // The window comes from the page address (?p.days=90 gives DASHBOARD_PARAMS.days "90"), so one
  // dashboard serves several periods. Anyone can write an address: only a whole number of days
  // the API takes is used, anything else falls back to the default, and the page says which.
  const DEFAULT_DAYS = 30;
  const params = window.DASHBOARD_PARAMS || {};
  const asked = typeof params.days === "string" ? params.days : null;
  const askedOk = asked !== null && /^[0-9]{1,3}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= 365;
  const DAYS = askedOk ? Number(asked) : DEFAULT_DAYS;
  document.getElementById("window").textContent = askedOk
    ? "Window: last " + DAYS + " days, from the address (p.days=" + asked + ")."
    : asked !== null
      ? "Window: last " + DAYS + " days, the default: p.days=" + asked + " is not a whole number of days from 1 to 365."
      : "Window: last " + DAYS + " days, the default; add ?p.days=7 (1 to 365) to the page address for another.";

  function say(kind, text) {
    statusEl.className = kind;
    statusEl.textContent = text;
  }

  function reasonFor(status, err) {
    if (status === 401) return "Sign in to see live figures.";
    if (status === 403) return "You may not read the customer-success views" + (err.hint ? " (" + err.hint + ")" : "") + ".";
    return "Live figures are unavailable (" + (err.error || "HTTP " + status) + ")" + (err.hint ? ": " + err.hint : ".");
  }

  // In the dashboard frame, window.dashboardSnapshot() reads the snapshot and tells the page
  // around the frame that snapshot data is shown; opened on its own, the page reads it itself.
  function readSnapshot() {
    if (typeof window.dashboardSnapshot === "function") return window.dashboardSnapshot();
    const el = document.getElementById("dashboard-snapshot");
    try {
      return el ? { data: JSON.parse(el.textContent), takenAt: el.getAttribute("data-taken-at") } : null;
    } catch (e) {
      return null;
    }
  }

  function showState(reason) {
    say("notice", reason);
    document.getElementById("source").textContent = "No figures to show.";
    document.getElementById("bands").replaceChildren();
    document.getElementById("rows").replaceChildren();
  }

  function fallBack(reason) {
    const snapshot = readSnapshot();
    if (!snapshot) {
      say("error", reason);
      document.getElementById("source").textContent = "No figures to show.";
      return;
    }
    const when = snapshot.takenAt ? new Date(snapshot.takenAt).toLocaleString() : "at an unknown time";
    say("notice", reason + " Showing the snapshot taken " + when + " instead.");
    // The snapshot was taken over 30 days, whatever window the address asks for.
    render(snapshot.data.rows, "Snapshot of " + when + ", 30-day window" + (DAYS === 30 ? "." : ", not the " + DAYS + " days asked for."));
  }

  function sparkline(series) {
    const points = series.filter((p) => p.score != null);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 80 20");
    svg.setAttribute("class", "trend");
    svg.setAttribute("aria-hidden", "true");
    if (points.length > 1) {
      const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", "#0b5cad");
      line.setAttribute("stroke-width", "1.5");
      line.setAttribute("points", points.map((p, i) => (i * 78) / (points.length - 1) + 1 + "," + (19 - (p.score / 100) * 18)).join(" "));
      svg.append(line);
    }
    return svg;
  }

  function render(rows, source) {
    document.getElementById("source").textContent = rows.length + " districts. " + source;
    const counts = new Map(BANDS.map((b) => [b, 0]));
    for (const r of rows) if (r.health) counts.set(r.health.band, (counts.get(r.health.band) || 0) + 1);
    const unwired = rows.filter((r) => !r.health).length;
    document.getElementById("bands").replaceChildren(
      ...[...counts].filter(([, n]) => n > 0).map(([band, n]) => {
        const li = document.createElement("li");
        li.textContent = n + " " + band.toLowerCase().replace("_", " ");
        return li;
      }),
      ...(unwired ? [Object.assign(document.createElement("li"), { textContent: unwired + " without a health source" })] : []),
    );

    document.getElementById("rows").replaceChildren(...rows.map((r) => {
      const tr = document.createElement("tr");
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = r.name;
      const health = document.createElement("td");
      const band = document.createElement("span");
      band.className = "band " + (r.health ? r.health.band : "NONE");
      band.textContent = r.health ? r.health.band.replace("_", " ").toLowerCase() : "not wired";
      health.append(band);
      if (r.health && r.health.latest && r.health.latest.score != null) health.append(" " + Math.round(r.health.latest.score));
      const trend = document.createElement("td");
      trend.append(sparkline(r.health ? r.health.series : []));
      const touch = document.createElement("td");
      touch.className = "touch";
      const c = r.cadence;
      // null daysSinceContact means no touch inside the window, not "never touched".
      touch.textContent = !c ? "not wired" : c.daysSinceContact == null ? "none in the window" : c.lastTouchDate + " (" + c.daysSinceContact + " d)";
      if (c && c.silent30d) touch.textContent += " · silent 30 days";
      const kinds = document.createElement("td");
      kinds.className = "num";
      kinds.textContent = c ? [c.byKind.call || 0, c.byKind.meeting || 0, c.byKind.email || 0].join(" · ") : "—";
      tr.append(name, health, trend, touch, kinds);
      return tr;
    }));
  }

  async function load() {
    let res;
    try {
      res = await fetch(API + "/cx/districts?days=" + DAYS);
    } catch (e) {
      fallBack("The dashboard API could not be reached.");
      return;
    }
    if (!res.ok) {
      const err = await res.json().catch(() => ({}));
      // Only an outage falls back: a system never set up or synced here never had these figures.
      const outage = res.status >= 500 && !/_not_configured$|_not_synced$/.test(err.error || "");
      if (outage) fallBack(reasonFor(res.status, err));
      else showState(reasonFor(res.status, err));
      return;
    }
    const body = await res.json();
    if (!body.ok) {
      showState("Live figures are not ready yet: " + body.waitingOn);
      return;
    }
    say("", "");
    render(body.data.rows, "Live data, last " + DAYS + " days.");
  }

  load();
</script>
</body>
</html>
`;
