import { expect, test } from "@playwright/test";
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

  // The reader's scroll position survives the update.
  await watch.dashboard().locator("#bottom").scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);

  const before = page.url();
  const started = Date.now();
  expect(await author.update(draft, dashboard("Second revision"))).toBe(2);
  await expect(watch.dashboard().locator("#label")).toHaveText("Second revision", { timeout: 1_000 });
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(page.url()).toBe(before);
  await expect(watch.revision()).toHaveText("2");
  await expect(watch.dashboard().locator("#email")).toHaveText(me.email);
  await expect
    .poll(() => watch.dashboard().locator("html").evaluate(() => window.scrollY))
    .toBeGreaterThan(1000);
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

test("an unknown draft says so", async ({ page }) => {
  const watch = new WatchPage(page);
  await watch.open("http://x/dashboards/playground/watch/AAAAAAAAAAAAAAAAAAAAAA");
  await expect(watch.notFound()).toBeVisible();
  await expect(watch.heading()).toHaveText("Draft not found");
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
