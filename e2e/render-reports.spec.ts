import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { renderReports, type RenderReports } from "../lib/contract/reports";
import { storedReportCount } from "./support/demo-db";
import { fence } from "./support/fence";
import { DraftAuthor, WatchPage, type CreatedDraft } from "./support/watch-page";

// Render reports against the production server: a browser renders a draft and tells its author
// what happened (errors placed in the HTML, console.error, refused requests, requests), demo
// drafts only; and ?static=1 renders once, with no stream, and says when it is done, so a
// screenshot tool can wait for it.

// The dashboard's lines matter: the report must name line 10 for rows.map and line 7 for the POST.
const broken = `<!doctype html>
<title>broken</title>
<h1 id="who">…</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("who").textContent = me.email; });
  fetch(API + "/me", { method: "POST", body: "{}" });
  console.error("about to fail", { step: 2 });
  const rows = null;
  rows.map((r) => r);
</script>`;

const clean = (label: string) => `<!doctype html>
<title>${label}</title>
<h1 id="label">${label}</h1>
<p id="who">…</p>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.ok ? r.json() : null).then((me) => { if (me) document.getElementById("who").textContent = me.email; });
  fetch(API + "/crm/customers/summary").then((r) => r.ok ? r.json() : null);
</script>`;

/** The reports of a revision once at least `count` have arrived. */
async function reportsOf(author: DraftAuthor, draft: CreatedDraft, revision: number, count = 1): Promise<RenderReports> {
  let last: RenderReports | null = null;
  await expect
    .poll(
      async () => {
        const { status, body } = await author.reports(draft, revision);
        expect(status).toBe(200);
        last = renderReports.parse(body);
        return last.reports.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return last!;
}

/** Every request the page makes, by path. */
function requestsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (r) => seen.push(`${r.method()} ${new URL(r.url()).pathname}`));
  return seen;
}

test("a dashboard that throws and writes is reported with the error's line and the refusal", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(broken);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#who")).toHaveText(/@demo\.test$/);

  // The viewer sees the same, and is told it goes to the author.
  await expect(watch.renderReport()).toContainText("2 errors");
  await watch.renderReport().locator("summary").click();
  await expect(watch.renderReport()).toContainText("sent to the draft's author");
  await expect(page.getByTestId("render-error").first()).toContainText("line 10:8");

  const { reports, revision, currentRevision } = await reportsOf(author, draft, 1);
  expect({ revision, currentRevision }).toEqual({ revision: 1, currentRevision: 1 });
  const report = reports[0]!;
  expect(report).toMatchObject({ page: "watch", settled: true });
  expect(report.errors).toContainEqual({ kind: "error", message: "Uncaught TypeError: Cannot read properties of null (reading 'map')", line: 10, column: 8, count: 1 });
  const rejection = report.errors.find((e) => e.kind === "rejection");
  expect(rejection).toMatchObject({ line: 7, column: 3, count: 1 });
  expect(rejection?.message).toContain("fetch with POST is not allowed");
  expect(report.refusals).toEqual([
    { method: "POST", path: "/dashboards/playground/api/me", error: "method_not_allowed", reason: "Dashboards only read data: fetch with POST is not allowed.", count: 1 },
  ]);
  expect(report.console).toEqual([{ message: "about to fail {step: 2}", count: 1 }]);
  expect(report.requests).toEqual([expect.objectContaining({ method: "GET", path: "/me", status: 200 })]);

  // Anyone with the watch link can post: fifteen forged "clean" reports do not hide the error,
  // and the answer says who sent what.
  const forged = { revision: 1, page: "watch", settled: true, elapsedMs: 120, errors: [], console: [], refusals: [], requests: [], dropped: 0 };
  for (let i = 0; i < 15; i++) {
    const res = await request.post(`/dashboards/playground/draft/${draft.id}/reports`, { data: forged });
    expect(res.status()).toBe(201);
  }
  const after = renderReports.parse((await author.reports(draft, 1)).body);
  expect(after.reports.filter((r) => r.errors.length > 0)).toHaveLength(1);
  expect(after.reports.every((r) => r.source.kind === "watcher")).toBe(true);
  // The browser and the forger share this machine's address: one source, failing by its kept error.
  expect(after.sources).toEqual({ total: 1, failing: 1, clean: 0, unsettled: 0, author: "none", service: "none" });
  expect(after.reports.length).toBeLessThanOrEqual(3);
});

test("a clean dashboard is reported with no errors and its requests, once per revision and page load", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(clean("First"));
  const watch = new WatchPage(page);
  const made = requestsOf(page);
  await watch.open(draft.watchUrl);
  await expect(watch.renderReport()).toContainText("no errors · 2 requests");

  const first = (await reportsOf(author, draft, 1)).reports[0]!;
  expect(first).toMatchObject({ errors: [], console: [], refusals: [], dropped: 0, settled: true });
  expect(first.requests.map((r) => [r.method, r.path, r.status]).sort()).toEqual([
    ["GET", "/crm/customers/summary", 200],
    ["GET", "/me", 200],
  ]);
  expect(first.requests.every((r) => r.ms >= 0)).toBe(true);

  // The next revisions are reported too, and none twice from this page: the third's report comes
  // after anything the page would still send of the first two.
  expect(await author.update(draft, clean("Second"))).toBe(2);
  await expect(watch.dashboard().locator("#label")).toHaveText("Second");
  const second = await reportsOf(author, draft, 2);
  expect(second.reports).toHaveLength(1);
  expect(await author.update(draft, clean("Third"))).toBe(3);
  await expect(watch.dashboard().locator("#label")).toHaveText("Third");
  expect((await reportsOf(author, draft, 3)).reports).toHaveLength(1);
  await fence(page);
  expect((await reportsOf(author, draft, 1)).reports).toHaveLength(1);
  expect((await reportsOf(author, draft, 2)).reports).toHaveLength(1);
  expect(made.filter((r) => r.endsWith("/reports"))).toEqual(Array(3).fill(`POST /dashboards/playground/draft/${draft.id}/reports`));
});

test("a live draft sends nothing back: the viewer sees the report, the server stores none", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(clean("Live"), { dataMode: "live" });
  const watch = new WatchPage(page);
  const made = requestsOf(page);
  // Signed out, the frame runs at once, on the viewer's own (401) answers.
  await watch.open(draft.watchUrl);
  await expect(watch.renderReport()).toContainText("2 requests");
  await watch.renderReport().locator("summary").click();
  await expect(watch.renderReport()).toContainText("Shown to you only");
  // The report is shown when it is made, which is when a demo draft's is sent.
  await fence(page);
  expect(made.filter((r) => r.includes("/reports"))).toEqual([]);
  expect(storedReportCount(draft.id)).toBe(0);
  const asked = await author.reports(draft);
  expect(asked).toMatchObject({ status: 409, body: { error: "reports_demo_only" } });
});

test("?static=1 renders the current revision once, opens no stream, and marks the page rendered before its load event", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const draft = await author.create(clean("Static"));
  await author.update(draft, clean("Static, revision 2"));
  const watch = new WatchPage(page);
  const made = requestsOf(page);
  // The render latch and the page's own markup hydrate without a complaint.
  const complaints: string[] = [];
  page.on("pageerror", (e) => complaints.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") complaints.push(m.text());
  });
  await watch.openStatic(draft.watchUrl);
  // goto waits for the load event, which the page holds until the dashboard has settled.
  expect(await page.locator("html").getAttribute("data-rendered")).toBe("true");
  await expect(page.locator('html[data-rendered="true"]')).toHaveCount(1);
  await expect(watch.dashboard().locator("#label")).toHaveText("Static, revision 2");
  await expect(watch.dashboard().locator("#who")).toHaveText(/@demo\.test$/);
  await expect(watch.connectionState()).toHaveText("rendered once, not following updates");
  expect(made.filter((r) => r.includes("/events"))).toEqual([]);
  expect(complaints).toEqual([]);
  expect(await page.evaluate(() => performance.getEntriesByType("resource").filter((e) => e.name.includes("/events")).length)).toBe(0);

  // A new revision does not reach a static render: it has no stream to arrive by.
  await author.update(draft, clean("Static, revision 3"));
  await fence(page);
  expect(made.filter((r) => r.includes("/events"))).toEqual([]);
  await expect(watch.dashboard().locator("#label")).toHaveText("Static, revision 2");
  expect((await reportsOf(author, draft, 2)).reports[0]).toMatchObject({ errors: [], settled: true });
});

test("?static=1 of an unknown draft is rendered at once as not found", async ({ page }) => {
  const watch = new WatchPage(page);
  await watch.openStatic("http://x/dashboards/playground/watch/AAAAAAAAAAAAAAAAAAAAAA");
  await expect(page.locator("html")).toHaveAttribute("data-rendered", "true");
  await expect(watch.notFound()).toBeVisible();
});

test("chromium --headless --screenshot of a static render finishes, with the dashboard in the picture's page", async ({ request, baseURL }) => {
  test.setTimeout(60_000);
  const author = new DraftAuthor(request);
  const draft = await author.create(clean("Screenshot"));
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "shot-")), "x.png");
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      ["--headless", `--screenshot=${out}`, "--no-sandbox", "--disable-gpu", "--window-size=1440,900", `${baseURL}/dashboards/playground/watch/${draft.id}?static=1`],
      { stdio: "ignore" },
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  // Killed at 45 s, a browser that never finished exits with a signal, not 0.
  expect(code).toBe(0);
  expect(fs.statSync(out).size).toBeGreaterThan(10_000);
  // The screenshot was taken after the render settled: that browser's report is already there.
  const { reports } = await reportsOf(author, draft, 1);
  expect(reports[0]).toMatchObject({ errors: [], settled: true });
});

test("the editor's preview of a shared demo draft reports each revision, and shows its report", async ({ page, request }) => {
  const author = new DraftAuthor(request);
  await page.goto("/dashboards/playground");
  const source = page.getByRole("textbox", { name: "Dashboard HTML" });
  await expect(source).toBeVisible();
  const replaceWith = async (html: string) => {
    await source.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(html);
  };
  await replaceWith(broken);
  const preview = page.frameLocator('iframe[title="Dashboard preview"]');
  await expect(preview.locator("#who")).toHaveText(/@demo\.test$/);
  // The editor's console counts every error line it lists: the console.error, the thrown error and
  // the refused POST's rejection; the refusal itself is counted apart.
  await expect(page.getByTestId("render-report")).toContainText("3 errors · 1 refused request");

  const created = page.waitForResponse((r) => r.url().endsWith("/dashboards/playground/draft") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Share" }).click();
  const draft = (await (await created).json()) as CreatedDraft;
  const first = (await reportsOf(author, draft, 1)).reports[0]!;
  expect(first.page).toBe("editor");
  expect(first.errors).toContainEqual(expect.objectContaining({ kind: "error", line: 10, column: 8 }));

  await replaceWith(clean("Fixed in the editor"));
  await expect(page.getByTestId("editor-revision")).toHaveText("2");
  await expect(page.getByTestId("render-report")).toContainText("no errors");
  const second = (await reportsOf(author, draft, 2)).reports[0]!;
  expect(second).toMatchObject({ page: "editor", errors: [], refusals: [] });
});
