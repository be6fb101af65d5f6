import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { PlaygroundEditorPage } from "./support/editor-page";

// A person writes a dashboard in the playground editor: the preview follows the text, the
// static check's findings show beside it, and once shared every edit reaches watchers.

// The examples and variants live in a drawer the toolbar opens; matrix cells render when first seen.
const EditorPage = PlaygroundEditorPage;

const doc = (label: string) => `<!doctype html>
<title>${label}</title>
<h1 id="label">${label}</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
</script>`;

test("the editor opens on a clean example and its preview follows typing", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await expect(editor.noWarnings()).toBeVisible();
  await expect(editor.preview().locator("h1")).toHaveText("CX book");
  await expect(editor.preview().locator("#summary")).toContainText("counted once per district");
  await expect(editor.preview().locator("#support")).toContainText("support conversations");
  await expect(editor.preview().locator("#rows tr").first()).toBeVisible();

  await editor.replaceWith(doc("Typed in the editor"));
  await expect(editor.preview().locator("#label")).toHaveText("Typed in the editor");
});

test("the example waiting on the first sync checks again by itself and fills in once the data is there", async ({ page }) => {
  // A test double for a sync that finishes while the dashboard is open: the owners view waits
  // until the page has said so, then the demo API answers as usual.
  let syncing = true;
  let askedAfter = 0;
  await page.route("**/dashboards/playground/api/**/cx/owners*", (route) => {
    if (syncing) {
      return route.fulfill({ contentType: "application/json", body: JSON.stringify({ ok: false, waitingOn: "the first CRM portal sync (running, 40% done)" }) });
    }
    askedAfter++;
    return route.fallback();
  });
  const editor = new EditorPage(page);
  await editor.open();
  await expect(editor.preview().locator("#status")).toHaveText("Waiting on the first CRM portal sync (running, 40% done); checking again by itself.");
  await expect(editor.preview().locator("#rows tr")).toHaveCount(0);
  syncing = false;
  // Nothing reloads the preview: the dashboard asks again by itself.
  await expect(editor.preview().locator("#rows tr").first()).toBeVisible({ timeout: 15_000 });
  await expect(editor.preview().locator("#status")).toHaveText("");
  expect(askedAfter).toBeGreaterThan(0);
});

test("a known bad pattern shows up as a finding with its position and hint", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(`<!doctype html>\n<h1>Me</h1>\n<script>\n  fetch("/api/me").then((r) => r.json());\n</script>`);
  const finding = editor.warnings().filter({ has: page.locator('code:text-is("hardcoded-api-base")') });
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText("4:");
  await expect(finding).toContainText("Hint:");
  await expect(page.locator(".cm-lintRange").first()).toBeVisible();
  // The heading counts what the list shows, one noun per count: "1 warning", never "1 warnings".
  const severities = await editor.warnings().locator("strong").allTextContents();
  const count = (severity: string, noun: string) => {
    const n = severities.filter((s) => s === severity).length;
    return `${n} ${n === 1 ? noun : `${noun}s`}`;
  };
  await expect(page.getByRole("heading", { name: /^Check/ })).toHaveText(`Check (${count("error", "error")}, ${count("warning", "warning")}, ${count("info", "note")})`);
  expect(severities.length).toBeGreaterThan(0);
});

test("sharing gives a watch link, and a watcher follows each edit", async ({ page, browser }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(doc("Shared first"));
  await expect(editor.preview().locator("#label")).toHaveText("Shared first");

  const created = await editor.share();
  // The address becomes the draft's own: its read id, which the watch link carries too.
  const address = `/dashboards/playground/d/${new URL(created.watchUrl).pathname.split("/").pop()}`;
  await expect(editor.watchLink()).toHaveValue(created.watchUrl);
  await expect(editor.revision()).toHaveText("1");
  await expect(page.getByTestId("editor-status")).toContainText("Shared");
  // The write token stays out of the address and the page.
  const token = new URL(created.postUrl).pathname.split("/").pop() ?? "";
  expect(token.length).toBeGreaterThan(10);
  await expect(page).toHaveURL(address);
  expect(await page.content()).not.toContain(token);

  const watcherContext = await browser.newContext();
  try {
    const watcher = await watcherContext.newPage();
    await watcher.goto(new URL(created.watchUrl).pathname);
    const watched = watcher.frameLocator('[data-testid="dashboard-frame"]');
    await expect(watched.locator("#label")).toHaveText("Shared first");
    await expect(watcher.getByTestId("connection-state")).toHaveText("live");

    await watcher.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await editor.replaceWith(doc("Edited after sharing"));
    await expect(editor.revision()).toHaveText("2");
    await expect(watched.locator("#label")).toHaveText("Edited after sharing");
    expect(await watcher.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(new URL(page.url()).pathname).toBe(address);
  } finally {
    await watcherContext.close();
  }
});

test("the gallery loads an example, and asks before it discards edits", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.openDrawer();
  const gallery = page.getByRole("region", { name: "Examples" });
  await expect(gallery.getByRole("button")).toHaveCount(3);
  await expect(editor.example("cx-book")).toHaveAttribute("aria-current", "true");
  await expect(editor.example("crm-pipeline")).toHaveAccessibleDescription(/cursor/);

  // Nothing edited yet: no question asked.
  const question = page.getByRole("dialog");
  await editor.example("crm-pipeline").click();
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await expect(editor.preview().locator("#stages tr").first()).toContainText("Appointment scheduled");
  await expect(editor.preview().locator("#deals-caption")).toContainText("36 deals in the CRM, every page read");
  await expect(editor.example("crm-pipeline")).toHaveAttribute("aria-current", "true");
  await expect(editor.noWarnings()).toBeVisible();
  await expect(question).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboards\/playground\?example=crm-pipeline$/);

  // Edited: the page's own dialog asks, with focus on the answer that loses nothing.
  await editor.replaceWith(doc("My own edits"));
  await expect(editor.preview().locator("#label")).toHaveText("My own edits");
  await editor.example("district-health").click();
  await expect(question).toHaveAccessibleName("Load the “District health with a snapshot” example?");
  await expect(question.getByRole("button", { name: "Keep my edits" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(editor.example("district-health")).toBeFocused();
  await expect(editor.source()).toContainText("My own edits");
  await expect(editor.preview().locator("#label")).toHaveText("My own edits");
  await expect(page).toHaveURL(/\?example=crm-pipeline$/);

  await editor.example("district-health").click();
  await question.getByRole("button", { name: "Load it" }).click();
  await expect(editor.preview().locator("h1")).toHaveText("District health");
  await expect(editor.source()).not.toContainText("My own edits");

  // A reload opens the example last picked.
  await page.reload();
  await expect(editor.preview().locator("h1")).toHaveText("District health");
  await editor.openDrawer();
  await expect(editor.example("district-health")).toHaveAttribute("aria-current", "true");
});

test("edits this browser cannot keep, neither shared nor saved, ask before the page is left", async ({ page }) => {
  // Storage refused, as with it disabled or full: edits live only in this tab.
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException("refused", "QuotaExceededError");
    };
  });
  const editor = new EditorPage(page);
  await editor.open();
  // The browser's own prompt is the only one a page may use on closing the tab.
  const prompts: string[] = [];
  page.on("dialog", (d) => {
    prompts.push(d.type());
    void d.dismiss();
  });
  const question = page.getByRole("dialog", { name: "Leave the playground?" });
  const nav = page.getByRole("navigation").getByRole("link", { name: "API reference" });

  // Untouched, the example leaves without a question.
  await nav.click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(question).toHaveCount(0);

  await editor.open();
  await editor.replaceWith(doc("Not kept anywhere"));
  await expect(editor.preview().locator("#label")).toHaveText("Not kept anywhere");
  // A link of the site: the page asks; staying keeps the edits.
  await nav.click();
  await expect(question).toBeVisible();
  await question.getByRole("button", { name: "Stay" }).click();
  await expect(question).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboards\/playground$/);
  await expect(editor.source()).toContainText("Not kept anywhere");
  // Closing the tab: the browser's own prompt, declined.
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => prompts).toEqual(["beforeunload"]);
  expect(page.isClosed()).toBe(false);
  // Leaving through the dialog asks nothing more.
  await nav.click();
  await question.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  expect(prompts).toEqual(["beforeunload"]);

  // Once shared, every edit reaches the draft, so leaving asks nothing.
  await editor.open();
  await editor.replaceWith(doc("Shared at once"));
  await editor.share();
  await expect(editor.revision()).toHaveText("1");
  await nav.click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(question).toHaveCount(0);
  expect(prompts).toEqual(["beforeunload"]);
});

test("?example= starts from that example; an unknown one says so and starts from the first", async ({ page }) => {
  const editor = new EditorPage(page);
  await page.goto("/dashboards/playground?example=crm-pipeline");
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await editor.openDrawer();
  await expect(editor.example("crm-pipeline")).toHaveAttribute("aria-current", "true");
  await expect(editor.exampleNotice()).toHaveCount(0);

  await page.goto("/dashboards/playground?example=no-such-thing");
  await expect(editor.exampleNotice()).toContainText("no example called “no-such-thing”");
  await expect(editor.exampleNotice()).toContainText("CX book");
  await expect(editor.preview().locator("h1")).toHaveText("CX book");
  await editor.openDrawer();
  await expect(editor.example("cx-book")).toHaveAttribute("aria-current", "true");
});

test("the state matrix renders the dashboard under every state side by side and follows edits", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.showMatrix();
  await expect(page.locator('iframe[title="Dashboard preview"]')).toHaveCount(0);
  const labels = ["Rich data", "Empty", "Not connected", "Waiting on the first sync", "Signed out", "Outage"];
  await expect(page.getByTestId("matrix-cell")).toHaveCount(labels.length);
  for (const [i, label] of labels.entries()) await expect(page.getByTestId("matrix-cell").nth(i)).toContainText(label);

  await expect((await editor.seenCellFrame("rich")).locator("#summary")).toContainText("counted once per district");
  await expect((await editor.seenCellFrame("empty")).locator("#status")).toHaveText("No owners yet.");
  await expect((await editor.seenCellFrame("not-connected")).locator("#support")).toContainText("support_not_connected");
  await expect((await editor.seenCellFrame("waiting")).locator("#status")).toContainText("sync");
  await expect((await editor.seenCellFrame("signed-out")).locator("#status")).toHaveText("Sign in to see this dashboard.");
  await expect((await editor.seenCellFrame("outage")).locator("#status")).toContainText("internal_error");
  await expect(page.locator('[data-testid="matrix-cell"] iframe')).toHaveCount(labels.length);

  await editor.replaceWith(doc("Edited in the matrix"));
  for (const state of ["rich", "outage"]) await expect((await editor.seenCellFrame(state)).locator("#label")).toHaveText("Edited in the matrix");

  await page.getByRole("radio", { name: "Single" }).check();
  await expect(editor.preview().locator("#label")).toHaveText("Edited in the matrix");
  await expect(page.getByTestId("state-matrix")).toHaveCount(0);
});

test("in the matrix, the snapshot example falls back to its snapshot in an outage only, and says from when", async ({ page }) => {
  const editor = new EditorPage(page);
  await page.goto("/dashboards/playground?example=district-health");
  await editor.showMatrix();
  const rich = await editor.seenCellFrame("rich");
  await expect(rich.locator("#source")).toContainText("Live data");
  await expect(editor.cell("rich").getByTestId("snapshot-notice")).toHaveText("");

  const outage = await editor.seenCellFrame("outage");
  await expect(outage.locator("#status")).toContainText("internal_error");
  await expect(outage.locator("#rows tr")).toHaveCount(10);
  const notice = editor.cell("outage").getByTestId("snapshot-notice");
  await expect(notice).toContainText("Showing snapshot data from");
  await expect(notice.locator("time")).toHaveAttribute("datetime", "2026-11-20T06:00:00Z");
  await expect(notice).toContainText("2026");

  // Signed out is a state for this viewer, never a reason to show the snapshot's figures.
  const signedOut = await editor.seenCellFrame("signed-out");
  await expect(signedOut.locator("#status")).toContainText("Sign in to see live figures.");
  await expect(signedOut.locator("#rows tr")).toHaveCount(0);
  await expect(editor.cell("signed-out").getByTestId("snapshot-notice")).toHaveText("");
  // The cells say so in their labels: only the outage fell back.
  await expect(editor.cell("outage").getByTestId("cell-mark")).toHaveText(["snapshot"]);
  await expect(editor.cell("rich").getByTestId("cell-mark")).toHaveCount(0);
});

test("the state matrix marks the states where the dashboard threw", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(
    `<!doctype html>\n<title>Me</title>\n<p id="out">…</p>\n<script>\n  const API = window.DASHBOARD_API_BASE || "/api";\n  fetch(API + "/me").then((r) => { document.getElementById("out").textContent = String(r.status); if (!r.ok) throw new Error("no me: " + r.status); });\n</script>`,
  );
  await editor.showMatrix();
  const signedOut = await editor.seenCellFrame("signed-out");
  await expect(signedOut.locator("#out")).toHaveText("401");
  await expect(editor.cell("signed-out").getByTestId("cell-mark")).toHaveText(["threw"]);
  const rich = await editor.seenCellFrame("rich");
  await expect(rich.locator("#out")).toHaveText("200");
  await expect(editor.cell("rich").getByTestId("cell-mark")).toHaveCount(0);
});

test("the demo state is in sight beside the preview, and the drawer lists the draft's own reads first", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(
    `<!doctype html>\n<title>Book</title>\n<p id="out">…</p>\n<script>\n  const API = window.DASHBOARD_API_BASE || "/api";\n  fetch(API + "/me").then((r) => { document.getElementById("out").textContent = "read " + r.status; });\n</script>`,
  );
  await expect(editor.preview().locator("#out")).toHaveText("read 200");
  const state = page.getByRole("list", { name: "Demo state" });
  await expect(state.getByTestId("active-scenario")).toHaveText(/Scenario\s*default/);
  await expect(state.getByTestId("active-variant")).toHaveCount(0);

  await editor.openDrawer();
  const paths = editor.drawer().getByTestId("variant-path");
  // The one path this draft reads heads the list, under its own heading.
  await expect(paths.first()).toContainText("/me");
  await expect(paths.first()).toHaveAttribute("data-read", "");
  await expect(paths.nth(1)).not.toHaveAttribute("data-read", "");
  await expect(editor.drawer().getByRole("heading", { name: "Read by this draft" })).toBeVisible();
  await paths.first().getByRole("combobox").selectOption("server_error");
  await page.keyboard.press("Escape");
  await expect(editor.drawer()).toBeHidden();

  // Closed, the drawer's choice still shows, and the chip takes it back.
  const chip = state.getByTestId("active-variant");
  await expect(chip).toHaveText(/\/me\s*server_error/);
  await expect(editor.preview().locator("#out")).toHaveText("read 500");
  await chip.getByRole("button", { name: "Back to the scenario for /me" }).click();
  await expect(state.getByTestId("active-variant")).toHaveCount(0);
  await expect(editor.preview().locator("#out")).toHaveText("read 200");
  await expectNoSeriousViolations(page);
});
