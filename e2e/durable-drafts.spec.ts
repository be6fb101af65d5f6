import { expect, test, type Page, type Request } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { DRAFT_ADDRESS, PlaygroundPage } from "./support/draft-page";
import { SignInPage } from "./support/pages";
import { SavedDashboardPage, SpacePage } from "./support/saved-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";

// Drafts outlive the tab: a shared draft has its own address (the read id only), the browser
// that created it keeps the write capability and reopens it editable, others can fork it, edits
// not yet shared or saved come back after a reload, and a saved dashboard opened in the editor
// saves back to itself.

const doc = (label: string) => `<!doctype html>
<title>${label}</title>
<h1 id="label">${label}</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
</script>`;

const tokenOf = (postUrl: string) => new URL(postUrl).pathname.split("/").pop() ?? "";
const readIdOf = (page: Page) => DRAFT_ADDRESS.exec(new URL(page.url()).pathname)?.[1] ?? "";

/** Every request the page makes, to look for the write token where it must never be. */
function recordRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => seen.push(r));
  return seen;
}

/** Requests that create a draft: sharing or forking. */
const creations = (requests: Request[]) => requests.filter((r) => r.method() === "POST" && new URL(r.url()).pathname === "/dashboards/playground/draft");

test("sharing moves the editor to the draft's own address; a reload reopens it editable and watchers get the next revision", async ({ page, browser }) => {
  const editor = new PlaygroundPage(page);
  const requests = recordRequests(page);
  await editor.open();
  await editor.replaceWith(doc("Shared, then reloaded"));
  await expect(editor.preview().locator("#label")).toHaveText("Shared, then reloaded");

  const created = await editor.share();
  const token = tokenOf(created.postUrl);
  expect(token.length).toBeGreaterThan(10);
  await expect(page).toHaveURL(DRAFT_ADDRESS);
  expect(readIdOf(page)).toBe(created.id);
  await expect(editor.revision()).toHaveText("1");
  // The capability is kept in this browser, under the public read id; the address and page never hold it.
  expect(await page.evaluate((id) => localStorage.getItem(`dashboards:draft-write:${id}`), created.id)).toContain(token);
  expect(page.url()).not.toContain(token);
  expect(await page.content()).not.toContain(token);

  const watcherContext = await browser.newContext();
  try {
    const watcher = await watcherContext.newPage();
    await new WatchPage(watcher).open(created.watchUrl);
    const watched = new WatchPage(watcher).dashboard();
    await expect(watched.locator("#label")).toHaveText("Shared, then reloaded");
    await expect(new WatchPage(watcher).connectionState()).toHaveText("live");

    await page.reload();
    await expect(page).toHaveURL(DRAFT_ADDRESS);
    expect(readIdOf(page)).toBe(created.id);
    await expect(editor.revision()).toHaveText("1");
    await expect(editor.source()).toContainText("Shared, then reloaded");
    await expect(editor.readOnlyNotice()).toHaveCount(0);
    await expect(editor.restoredNotice()).toHaveCount(0);
    expect(await page.content()).not.toContain(token);
    // What the server sends for the address, before any script runs, holds no token either.
    expect(await (await page.request.get(new URL(page.url()).pathname)).text()).not.toContain(token);

    await editor.replaceWith(doc("Edited after the reload"));
    await expect(editor.revision()).toHaveText("2");
    await expect(watched.locator("#label")).toHaveText("Edited after the reload");
    expect((await new DraftAuthor(page.request).current({ ...created, eventsUrl: "", revision: 1 })).revision).toBe(2);
  } finally {
    await watcherContext.close();
  }

  // The token went only where a write goes: never into the address of a request other than the
  // draft's own write path (and the author's render reports under it), and never into a Referer.
  const writePaths = [new URL(created.postUrl).pathname, `${new URL(created.postUrl).pathname}/reports`];
  // The Referer is read from the headers the page asked to send: allHeaders() waits for the
  // network's answer, which never comes for a request the reload cut off.
  const referers = requests.map((r) => r.headers().referer ?? "");
  requests.forEach((r, i) => {
    if (!writePaths.includes(new URL(r.url()).pathname)) expect(r.url(), r.url()).not.toContain(token);
    expect(referers[i], r.url()).not.toContain(token);
  });
});

test("another browser opening a draft's address can read it and fork it, but never write it", async ({ page, request }) => {
  const original = await new DraftAuthor(request).create(doc("Someone else's draft"), { scenario: "empty" });
  const editor = new PlaygroundPage(page);
  const requests = recordRequests(page);
  await editor.open(`/dashboards/playground/d/${original.id}`);
  await expect(editor.readOnlyNotice()).toBeVisible();
  await expect(editor.source()).toHaveAttribute("aria-readonly", "true");
  await expect(editor.preview().locator("#label")).toHaveText("Someone else's draft");
  await expect(editor.revision()).toHaveText("not shared");
  await expectNoSeriousViolations(page);

  // Typing changes nothing, and nothing is sent.
  await editor.append("\n<!-- not mine to write -->");
  await expect(editor.source()).not.toContainText("not mine to write");
  expect(requests.filter((r) => r.method() === "POST" && r.url().includes("/dashboards/playground/draft"))).toEqual([]);

  const fork = await editor.fork();
  expect(fork.id).not.toBe(original.id);
  // The page already stands on a draft's address (the original's), so wait for the fork's own.
  await expect.poll(() => readIdOf(page)).toBe(fork.id);
  await expect(editor.readOnlyNotice()).toHaveCount(0);
  await expect(editor.source()).not.toHaveAttribute("aria-readonly", "true");
  await expect(editor.revision()).toHaveText("1");
  const author = new DraftAuthor(page.request);
  const forked = (await (await page.request.get(`/dashboards/playground/draft/${fork.id}`)).json()) as { html: string; scenario: string };
  expect(forked.html).toBe(doc("Someone else's draft"));
  expect(forked.scenario).toBe("empty");

  await editor.replaceWith(doc("My fork"));
  await expect(editor.revision()).toHaveText("2");
  expect((await author.current(original)).revision).toBe(1);
  expect((await author.current(original)).html).toBe(doc("Someone else's draft"));
});

test("a draft address that names no draft is a missing page", async ({ page }) => {
  const res = await page.goto(`/dashboards/playground/d/${"A".repeat(22)}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("watch-not-found")).toBeVisible();
  expect((await page.request.get("/dashboards/playground/d/not-a-read-id!")).status()).toBe(404);
});

test("unsaved edits in the plain editor survive a reload and leaving, ask nothing, and can be discarded", async ({ page }) => {
  // Three reloads and a visit to the reference: about 9 s on an idle machine, three times that on a busy one.
  test.slow();
  const editor = new PlaygroundPage(page);
  const requests = recordRequests(page);
  const asked: string[] = [];
  page.on("dialog", (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await editor.open("/dashboards/playground?example=crm-pipeline");
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await expect(editor.restoredNotice()).toHaveCount(0);
  await editor.replaceWith(doc("Kept in this browser"));
  await expect(editor.preview().locator("#label")).toHaveText("Kept in this browser");

  await page.reload();
  await expect(editor.restoredNotice()).toContainText("Restored your unsaved edits");
  await expect(editor.source()).toContainText("Kept in this browser");
  await expect(editor.preview().locator("#label")).toHaveText("Kept in this browser");
  await expect(editor.revision()).toHaveText("not shared");
  await expectNoSeriousViolations(page);

  // The undo history came back with the text: undo takes the edit back, redo puts it again.
  await editor.source().click();
  await page.keyboard.press("ControlOrMeta+Z");
  await expect(editor.source()).not.toContainText("Kept in this browser");
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await page.keyboard.press("ControlOrMeta+Shift+Z");
  await expect(editor.source()).toContainText("Kept in this browser");
  await expect(editor.preview().locator("#label")).toHaveText("Kept in this browser");

  // Kept locally, so leaving asks nothing; coming back brings them back again.
  await page.getByRole("navigation").getByRole("link", { name: "API reference" }).click();
  // The reference is a large page, slow to render on a busy machine.
  await expect(page).toHaveURL(/\/docs$/, { timeout: 15_000 });
  await editor.open("/dashboards/playground?example=crm-pipeline");
  await expect(editor.restoredNotice()).toContainText("Restored your unsaved edits");
  await expect(editor.source()).toContainText("Kept in this browser");

  await editor.discardRestored();
  await expect(editor.restoredNotice()).toHaveCount(0);
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await expect(editor.source()).not.toContainText("Kept in this browser");
  await page.reload();
  await expect(editor.preview().locator("h1")).toHaveText("CRM pipeline");
  await expect(editor.source()).not.toContainText("Kept in this browser");
  await expect(editor.restoredNotice()).toHaveCount(0);

  expect(asked).toEqual([]);
  expect(creations(requests)).toEqual([]);
});

test("the notice of restored edits goes once they are shared, and a status line goes at the next keystroke", async ({ page }) => {
  const editor = new PlaygroundPage(page);
  await editor.open("/dashboards/playground?example=crm-pipeline");
  await editor.replaceWith(doc("Restored, then shared"));
  await expect(editor.preview().locator("#label")).toHaveText("Restored, then shared");
  await page.reload();
  await expect(editor.restoredNotice()).toContainText("Restored your unsaved edits");
  await expect(editor.status()).toHaveText("Restored your unsaved edits.");
  await editor.share();
  await expect(editor.revision()).toHaveText("1");
  await expect(editor.restoredNotice()).toHaveCount(0);

  await editor.format();
  await expect(editor.status()).toContainText(/Formatted|Already formatted/);
  await editor.append("\n");
  await expect(editor.status()).toHaveText("");
});

test("on a draft's address, edits that never reached the draft come back after a reload and then go out", async ({ page }) => {
  const editor = new PlaygroundPage(page);
  await editor.open();
  await editor.replaceWith(doc("Pushed once"));
  const created = await editor.share();
  await expect(page).toHaveURL(DRAFT_ADDRESS);
  await expect(editor.revision()).toHaveText("1");

  // The playground cannot be reached for writes: the edit stays only in this browser.
  const writePath = new URL(created.postUrl).pathname;
  await page.route((url) => url.pathname === writePath, (route) => route.abort());
  await editor.replaceWith(doc("Not yet pushed"));
  await expect(editor.status()).toContainText("not sent to watchers");
  await page.unrouteAll();

  await page.reload();
  await expect(editor.source()).toContainText("Not yet pushed");
  await expect(editor.revision()).toHaveText("2");
  // Pushed as revision 2, they are no longer unsaved edits: the notice says nothing untrue.
  await expect(editor.restoredNotice()).toHaveCount(0);
  const author = new DraftAuthor(page.request);
  expect(await author.current({ ...created, eventsUrl: "", revision: 1 })).toMatchObject({ revision: 2, html: doc("Not yet pushed") });
});

test("Open in playground keeps the dashboard's name and data; Save adds a revision to it and nothing is shared", { tag: "@csm-state" }, async ({ page }) => {
  // A title of its own per run, so the space holds exactly one dashboard by it unless a save duplicates.
  const title = `Team book ${Date.now().toString(36)}`;
  const slug = title.toLowerCase().replace(/ /g, "-");
  const signIn = new SignInPage(page);
  await signIn.open("/dashboards/playground?example=crm-pipeline");
  await signIn.signInAs("csm@demo.test");
  const editor = new PlaygroundPage(page);
  await expect(editor.source()).toBeVisible();
  await editor.replaceWith(doc(title));
  await expect(editor.preview().locator("#label")).toHaveText(title);
  // A fresh dashboard's suggested title and address come from its <title>.
  let form = await editor.openSaveForm();
  await expect(form.getByRole("textbox", { name: "Title" })).toHaveValue(title);
  await expect(form.getByRole("textbox", { name: "Address" })).toHaveValue(slug);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/csm/${slug}`);

  const requests = recordRequests(page);
  const saved = new SavedDashboardPage(page);
  await saved.open(`/~/csm/${slug}`);
  await expect(saved.revision()).toHaveText("1");
  await saved.action("Open in playground").click();
  await expect(page).toHaveURL(/\/dashboards\/playground$/);
  await expect(editor.source()).toContainText(title);
  await expect(editor.dataMode()).toHaveValue("live");
  await expect(editor.revision()).toHaveText("not shared");

  await editor.append("\n<!-- second revision -->");
  form = await editor.openSaveForm();
  await expect(form.getByRole("textbox", { name: "Address" })).toHaveValue(slug);
  await expect(form.getByRole("status")).toHaveText(`Unsaved changes since revision 1 of /~/csm/${slug}`);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 2 to /~/csm/${slug}`);
  await expect(editor.revision()).toHaveText("not shared");

  expect(await (await page.request.get(`/~/csm/${slug}/source`)).text()).toContain("<!-- second revision -->");
  expect(await (await page.request.get(`/~/csm/${slug}/source?revision=1`)).text()).not.toContain("<!-- second revision -->");
  const space = new SpacePage(page);
  await space.open("csm");
  await expect(space.entries().filter({ hasText: title })).toHaveCount(1);
  expect(creations(requests)).toEqual([]);
});
