import { expect, test } from "@playwright/test";
import { districtHealthExample, SNAPSHOT_TAKEN_AT } from "../demo/examples/district-health";
import { expectNoSeriousViolations } from "./support/axe";
import { fence } from "./support/fence";
import { DraftAuthor, WatchPage } from "./support/watch-page";

// A human watches a draft: it renders in the sandboxed frame with demo data read through the
// broker, and each update an agent posts shows up without a reload.

const dashboard = (label: string) => `<!doctype html>
<title>${label}</title>
<h1 id="label">${label}</h1>
<p>Signed in as <span id="email">…</span></p>
<div style="height: 3000px"></div>
<p id="bottom">bottom</p>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("email").textContent = me.email; });
</script>`;

test("a draft renders with demo data through the broker and follows updates live", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const me = await (await request.get("/dashboards/playground/api/me")).json();
  const draft = await author.create(dashboard("First revision"), { dash: "watch-e2e" });
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);

  await expect(watch.heading()).toHaveText("Watching watch-e2e");
  await expect(watch.dashboard().locator("#label")).toHaveText("First revision");
  await expect(watch.dashboard().locator("#email")).toHaveText(me.email);
  await expect(watch.connectionState()).toHaveText("live");
  await expect(watch.provenance()).toContainText("demo data · scenario default");
  await expect(watch.revision()).toHaveText("1");

  await watch.openRequestLog();
  await expect(watch.requestLogEntries().first()).toContainText("/me");
  await expect(watch.requestLogEntries().first()).toContainText("200");

  // The frame takes the dashboard's whole height, so the reader scrolls the page, and where they
  // are survives the update.
  await watch.dashboard().locator("#bottom").scrollIntoViewIfNeeded();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  expect(await watch.dashboard().locator("html").evaluate(() => window.scrollY)).toBe(0);

  // A marker on the host page proves the update arrived over the stream, not by reloading it.
  const before = page.url();
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
  expect(await author.update(draft, dashboard("Second revision"))).toBe(2);
  await expect(watch.dashboard().locator("#label")).toHaveText("Second revision");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  expect(page.url()).toBe(before);
  await expect(watch.revision()).toHaveText("2");
  await expect(watch.dashboard().locator("#email")).toHaveText(me.email);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
});

test("the page names the variants an agent forced, and follows a change of them alone", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(dashboard("Forced"), { examples: { "/me": "signed_out" } });
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.provenance()).toContainText("demo data · scenario default · /me forced to signed_out");

  // Only the examples change: no HTML is sent, and the event brings the new state.
  const cleared = await request.post(new URL(draft.postUrl).pathname, { data: { examples: null } });
  expect(cleared.status()).toBe(200);
  await expect(watch.revision()).toHaveText("2");
  await expect(watch.provenance()).not.toContainText("forced");
  const me = await (await request.get("/dashboards/playground/api/me")).json();
  await expect(watch.dashboard().locator("#email")).toHaveText(me.email);
});

test("each revision starts afresh: nothing of the previous one keeps running, and quick updates end on the latest", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  // Each revision polls a path of its own: the second's requests are the clock that shows the first's have stopped.
  const poller = (label: string, path: string) => `<!doctype html><title>poller</title><h1 id="label">${label}</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  setInterval(() => fetch(API + "${path}").then((r) => r.ok), 100);
</script>`;
  const draft = await author.create(poller("polling", "/me"));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await watch.openRequestLog();
  const firstAsked = () => watch.requestLogEntries().filter({ hasText: "/me" }).count();
  const secondAsked = () => watch.requestLogEntries().filter({ hasText: "/crm/customers/summary" }).count();
  await expect.poll(firstAsked).toBeGreaterThan(3);

  await author.update(draft, poller("Second revision", "/crm/customers/summary"));
  await expect(watch.dashboard().locator("#label")).toHaveText("Second revision");
  // Three of the second's ticks let a request of the first already on its way arrive; eight more
  // are as many chances for the first one's timer, which must be gone with its frame.
  await expect.poll(secondAsked).toBeGreaterThanOrEqual(3);
  const settled = await firstAsked();
  const from = await secondAsked();
  await expect.poll(secondAsked).toBeGreaterThanOrEqual(from + 8);
  expect(await firstAsked()).toBe(settled);

  for (const label of ["Third", "Fourth", "Fifth"]) await author.update(draft, dashboard(label));
  await expect(watch.dashboard().locator("#label")).toHaveText("Fifth");
  await expect(watch.revision()).toHaveText("5");
  await expect(page.locator("iframe:visible")).toHaveCount(1);
  expect(await page.locator("iframe").count()).toBeLessThanOrEqual(2);
  await expect(page.getByTestId("dashboard-frame-standby")).toBeHidden();
});

test("the standby frame is made only once the shown dashboard is in, so the page starts with one frame", async ({ page, request }) => {
  // Each frame put in the page counts its loads: the bootstrap's, then the one that finishes when
  // the dashboard has written itself. Kept: how many loads the first frame had seen when the
  // second frame arrived.
  await page.addInitScript(() => {
    const loads: number[] = [];
    const state = { loads, firstLoadsAtSecond: -1 };
    (window as unknown as { __frames: typeof state }).__frames = state;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const added of r.addedNodes) {
          if (!(added instanceof Element)) continue;
          // A frame may come inside a larger piece of the page.
          const frames = added instanceof HTMLIFrameElement ? [added] : [...added.querySelectorAll("iframe")];
          for (const frame of frames) {
            const i = loads.push(0) - 1;
            frame.addEventListener("load", () => loads[i]!++);
            if (i === 1) state.firstLoadsAtSecond = loads[0]!;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const author = new DraftAuthor(request);
  const draft = await author.create(dashboard("One frame first"));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#label")).toHaveText("One frame first");
  // The standby arrives afterwards, hidden, and takes the next revision.
  await expect(page.getByTestId("dashboard-frame-standby")).toHaveCount(1);
  const frames = await page.evaluate(() => (window as unknown as { __frames: { loads: number[]; firstLoadsAtSecond: number } }).__frames);
  expect(frames.loads).toHaveLength(2);
  expect(frames.firstLoadsAtSecond).toBeGreaterThanOrEqual(2);
  await author.update(draft, dashboard("Next on the standby"));
  await expect(watch.dashboard().locator("#label")).toHaveText("Next on the standby");
});

test("the frame is sandboxed and its document carries the frame CSP", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(dashboard("Sandboxed"));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.frameElement()).toHaveAttribute("sandbox", "allow-scripts");
  await expect(watch.frameElement()).toHaveAttribute("referrerpolicy", "no-referrer");

  const frame = await request.get("/dashboards/frame");
  const h = frame.headers();
  expect(h["content-security-policy"]).toContain("sandbox allow-scripts");
  expect(h["content-security-policy"]).toContain("connect-src 'none'");
  expect(h["referrer-policy"]).toContain("no-referrer");
  expect(h["cache-control"]).toBe("no-store");
  expect(h["x-content-type-options"]).toContain("nosniff");
});

test("an unknown draft says so, with HTTP 404", async ({ page }) => {
  const watch = new WatchPage(page);
  for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", "not-a-read-id!"]) {
    const res = await page.goto(`/dashboards/playground/watch/${encodeURIComponent(id)}`);
    expect(res?.status(), id).toBe(404);
    await expect(watch.notFound()).toBeVisible();
    await expect(watch.heading()).toHaveText("Draft not found");
  }
  await expectNoSeriousViolations(page);
});

test("host pages refuse to be framed; only the dashboard frame's document may be", async ({ request }) => {
  for (const path of ["/", "/signin", "/connections", "/dashboards/playground/llms.txt"]) {
    const res = await request.get(path);
    expect(res.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(res.headers()["x-frame-options"], path).toBe("DENY");
  }
  const frame = await request.get("/dashboards/frame");
  expect(frame.headers()["x-frame-options"]).toBeUndefined();
  expect(frame.headers()["content-security-policy"]).toContain("sandbox allow-scripts");
});

test("in an outage, a dashboard falls back to its embedded snapshot and the page says from when", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(districtHealthExample, { scenario: "outage", dash: "district-health" });
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);

  await expect(watch.dashboard().locator("#status")).toContainText("internal_error");
  await expect(watch.dashboard().locator("#rows tr")).toHaveCount(10);
  const notice = watch.snapshotNotice();
  await expect(notice).toContainText("Showing snapshot data from");
  await expect(notice.locator("time")).toHaveAttribute("datetime", SNAPSHOT_TAKEN_AT);
  const shown = await page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }), SNAPSHOT_TAKEN_AT);
  await expect(notice.locator("time")).toHaveText(shown);
  await expect(notice).toHaveAttribute("role", "status");

  await watch.openRequestLog();
  await expect(watch.requestLogEntries().filter({ hasText: "/cx/districts" }).first()).toContainText("500");

  // The same dashboard with the API answering: live figures, no notice.
  const healthy = await author.create(districtHealthExample);
  await watch.open(healthy.watchUrl);
  await expect(watch.dashboard().locator("#source")).toContainText("Live data");
  await expect(watch.dashboard().locator("#rows tr")).toHaveCount(25);
  await expect(watch.snapshotNotice()).toHaveText("");
});

const snapshotOnly = (takenAt: string | null) => `<!doctype html>
<title>Snapshot only</title>
<h1>Renewals</h1>
<script type="application/json" id="dashboard-snapshot"${takenAt === null ? "" : ` data-taken-at="${takenAt}"`}>
{"rows": [{"name": "Maple Valley USD", "renewal": "2027-03-01"}, {"name": "Cedar Falls ISD", "renewal": "2027-06-30"}]}
</script>
<ul id="rows"></ul>
<script>
  const snapshot = window.dashboardSnapshot();
  document.getElementById("rows").replaceChildren(...snapshot.data.rows.map((r) => {
    const li = document.createElement("li");
    li.textContent = r.name + " renews " + r.renewal;
    return li;
  }));
  document.title = "taken " + snapshot.takenAt;
</script>`;

test("a dashboard that only embeds a snapshot renders with no broker requests at all", async ({ page, request }) => {
  const apiRequests: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/dashboards/playground/api") || new URL(r.url()).pathname.startsWith("/api")) apiRequests.push(r.url());
  });
  const draft = await new DraftAuthor(request).create(snapshotOnly("2026-10-01"));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#rows li")).toHaveText(["Maple Valley USD renews 2027-03-01", "Cedar Falls ISD renews 2027-06-30"]);
  await expect(watch.snapshotNotice()).toContainText("Showing snapshot data from");
  await expect(watch.snapshotNotice().locator("time")).toHaveAttribute("datetime", "2026-10-01");
  await expect(watch.snapshotNotice().locator("time")).toContainText("2026");
  await fence(page);
  expect(apiRequests).toEqual([]);
  await expect(page.getByTestId("request-log").locator("summary")).toHaveText("Requests (0)");
});

test("a snapshot without a usable time is still announced, as of an unknown time", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const watch = new WatchPage(page);
  for (const takenAt of [null, "2026-11-20T09:00:00", "2026-02-31", "<b>now</b>"]) {
    const draft = await author.create(snapshotOnly(takenAt));
    await watch.open(draft.watchUrl);
    await expect(watch.dashboard().locator("#rows li"), String(takenAt)).toHaveCount(2);
    await expect(watch.snapshotNotice(), String(takenAt)).toHaveText("Showing snapshot data; the dashboard does not say when it was taken");
    await expect(watch.snapshotNotice().locator("time")).toHaveCount(0);
  }
});

const twoPanels = (calls: string) => `<!doctype html>
<title>Two panels</title>
<script type="application/json" id="dashboard-snapshot" data-taken-at="2026-10-01">{"tickets": 7}</script>
<p id="out"></p>
<script>
  ${calls}
  document.getElementById("out").textContent = "drawn";
</script>`;

test("a panel that falls back is named in the page's notice, and the rest is said to be live", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const watch = new WatchPage(page);
  const one = await author.create(twoPanels('window.dashboardSnapshot("Open tickets"); window.dashboardSnapshot("Open tickets");'));
  await watch.open(one.watchUrl);
  await expect(watch.dashboard().locator("#out")).toHaveText("drawn");
  await expect(watch.snapshotNotice()).toContainText(/^Showing snapshot data from .+ in Open tickets; the rest is live$/);
  await expect(watch.snapshotNotice().locator("time")).toHaveAttribute("datetime", "2026-10-01");

  // Names arrive as text: markup, control and bidi characters are neither run nor shown, and a long name is clipped.
  const hostile = "<img src=x onerror=alert(1)>\u202eevil\u0000" + "x".repeat(300);
  const many = await author.create(
    twoPanels(`for (const p of ["Renewals", "Tickets", ${JSON.stringify(hostile)}, "A", "B", "C", "D", "E"]) window.dashboardSnapshot(p);`),
  );
  await watch.open(many.watchUrl);
  await expect(watch.dashboard().locator("#out")).toHaveText("drawn");
  // Each panel's notice is its own message from the frame: the page's text follows the last of them.
  await expect(watch.snapshotNotice()).toContainText(", A, B, C and 2 more; the rest is live");
  const text = (await watch.snapshotNotice().textContent()) ?? "";
  expect(text).toContain("in Renewals, Tickets, <img src=x onerror=alert(1)> evil x");
  expect(text).toContain(", A, B, C and 2 more; the rest is live");
  expect(text).not.toMatch(/[\u0000-\u001f\u202e]/);
  expect(text).not.toContain("x".repeat(60));
  await expect(watch.snapshotNotice().locator("img")).toHaveCount(0);

  // A call naming no panel says the whole dashboard may be the snapshot.
  const whole = await author.create(twoPanels('window.dashboardSnapshot("Renewals"); window.dashboardSnapshot();'));
  await watch.open(whole.watchUrl);
  await expect(watch.dashboard().locator("#out")).toHaveText("drawn");
  await expect(watch.snapshotNotice()).toContainText(/^Showing snapshot data from [^;]+$/);
});

test("the snapshot notice belongs to one revision: the next one starts without it", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(snapshotOnly("2026-10-01"));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.snapshotNotice()).toContainText("Showing snapshot data from");
  await author.update(draft, dashboard("Live again"));
  await expect(watch.dashboard().locator("#label")).toHaveText("Live again");
  await expect(watch.snapshotNotice()).toHaveText("");
});

test("the watch page has no serious accessibility violations", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create(districtHealthExample, { scenario: "outage", dash: "a11y" });
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.connectionState()).toHaveText("live");
  await expect(watch.snapshotNotice()).toContainText("Showing snapshot data from");
  await watch.openRequestLog();
  await expect(watch.requestLogEntries().first()).toBeVisible();
  await expectNoSeriousViolations(page);

  await watch.open("http://x/dashboards/playground/watch/AAAAAAAAAAAAAAAAAAAAAA");
  await expect(watch.notFound()).toBeVisible();
  await expectNoSeriousViolations(page);
});
