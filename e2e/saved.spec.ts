import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { SignInPage } from "./support/pages";
import { ConsentGatePage } from "./support/consent";
import { SavedDashboardPage, SpacePage } from "./support/saved-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";
import { PlaygroundEditorPage } from "./support/editor-page";

// Saved dashboards in people's spaces: viewing on one's own live data, starring, home, source;
// and every way something other than the person at their own page might try to save.

// Saves use names of their own per run, so the suite also passes again on the same storage.
const runSlug = (name: string) => `${name}-${Date.now().toString(36)}`;

async function signIn(page: Page, email: string, next = "/") {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
}

test("a signed-out visitor is sent to sign in and comes back to the dashboard", async ({ page }) => {
  await page.goto("/~/csm/my-book");
  await expect(page).toHaveURL(/\/signin\?next=%2F~%2Fcsm%2Fmy-book$/);
  await new SignInPage(page).signInAs("csm@demo.test");
  await expect(page).toHaveURL(/\/~\/csm\/my-book$/);
  await expect(new SavedDashboardPage(page).heading()).toHaveText("CX book");
});

test("a person's space lists their dashboards and opens one on their live data", async ({ page }) => {
  await signIn(page, "csm@demo.test", "/~/csm");
  const space = new SpacePage(page);
  await expect(space.heading()).toHaveText("Your dashboards");
  await expect(space.entries().filter({ hasText: "CX book" })).toHaveCount(1);
  await expectNoSeriousViolations(page);

  await space.entries().getByRole("link", { name: "CX book" }).click();
  const saved = new SavedDashboardPage(page);
  await expect(saved.heading()).toHaveText("CX book");
  await expect(saved.meta()).toContainText("Casey Morgan");
  await expect(saved.revision()).toHaveText("1");
  // The book comes from /api as the viewer: rows of their own schools.
  await expect(saved.dashboard().locator("#rows tr").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("dashboard-frame")).toHaveAttribute("sandbox", "allow-scripts");
  await expectNoSeriousViolations(page);

  const source = await page.request.get("/~/csm/my-book/source");
  expect(source.headers()["content-type"]).toContain("text/plain");
  expect(await source.text()).toContain("<title>CX book</title>");
});

test("starring and setting home change what the API says, and survive a reload", { tag: "@csm-state" }, async ({ page }) => {
  await signIn(page, "csm@demo.test", "/~/csm/my-book");
  const saved = new SavedDashboardPage(page);
  await expect(saved.heading()).toHaveText("CX book");

  await saved.action("☆ Star").click();
  await expect(saved.action("★ Starred")).toHaveAttribute("aria-pressed", "true");
  expect(await (await page.request.get("/api/me/favourites")).json()).toEqual({ favourites: [{ href: "/~/csm/my-book", label: "CX book" }] });

  await saved.action("Set as home").click();
  await expect(saved.action("Your home")).toHaveAttribute("aria-pressed", "true");
  expect(await (await page.request.get("/api/me/home")).json()).toEqual({ path: "/~/csm/my-book" });

  await page.reload();
  await expect(saved.action("★ Starred")).toBeVisible();
  await saved.action("★ Starred").click();
  await expect(saved.action("☆ Star")).toHaveAttribute("aria-pressed", "false");
  await saved.action("Your home").click();
  await expect(saved.action("Set as home")).toHaveAttribute("aria-pressed", "false");
  expect(await (await page.request.get("/api/me/favourites")).json()).toEqual({ favourites: [] });
  expect(await (await page.request.get("/api/me/home")).json()).toEqual({ path: null });
});

test("another person sees the dashboard on their own data, without the owner's restore", async ({ page }) => {
  await signIn(page, "member@demo.test", "/~/csm/my-book");
  const saved = new SavedDashboardPage(page);
  await expect(saved.heading()).toHaveText("CX book");
  // Someone else's code: drawn by the site on the member's data, then, made interactive, asked first.
  await expect(saved.drawn().locator("body")).toContainText(/forbidden|403|permission/i, { timeout: 30_000 });
  await saved.makeInteractive();
  await new ConsentGatePage(page).runWithMyData();
  // The member may not read CX views: the dashboard shows its own answer to a 403.
  await expect(saved.dashboard().locator("#status")).toContainText(/forbidden|403|permission/i, { timeout: 15_000 });
  await saved.openHistory();
  await expect(saved.historyEntries()).toHaveCount(1);
  await expect(page.getByText("History (1 revision)", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Restore/ })).toHaveCount(0);
});

test("until the page is interactive, its actions are disabled rather than dead", { tag: "@csm-state" }, async ({ browser, baseURL }) => {
  // Server markup as a person sees it before the scripts run: a click there would do nothing.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    expect((await context.request.post("/signin/demo", { form: { email: "csm@demo.test" }, maxRedirects: 0 })).status()).toBe(303);
    const page = await context.newPage();
    await page.goto("/~/csm/my-book");
    const saved = new SavedDashboardPage(page);
    await expect(saved.heading()).toHaveText("CX book");
    for (const name of ["☆ Star", "Set as home", "Open in playground"]) await expect(saved.action(name)).toBeDisabled();

    await page.goto("/dashboards/playground");
    await expect(page.getByRole("heading", { name: "Dashboard playground" })).toBeVisible();
    for (const name of ["Share", "Save to my space", "Examples & data"]) await expect(page.getByRole("button", { name, exact: true })).toBeDisabled();
  } finally {
    await context.close();
  }
  // Someone else's dashboard opens drawn; its way to the interactive view waits for the script too.
  const member = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    expect((await member.request.post("/signin/demo", { form: { email: "member@demo.test" }, maxRedirects: 0 })).status()).toBe(303);
    const page = await member.newPage();
    await page.goto("/~/csm/my-book");
    await expect(page.getByTestId("safe-view")).toBeVisible();
    await expect(page.getByTestId("make-interactive")).toBeDisabled();
    await expect(page.getByTestId("safe-view").getByRole("button", { name: "Refresh" })).toBeDisabled();
  } finally {
    await member.close();
  }
});

test("saving from the watch page keeps every revision, and a restore adds one", { tag: "@csm-state" }, async ({ page, request }) => {
  const author = new DraftAuthor(request);
  const html = (label: string) => `<!doctype html><title>Team health</title><h1 id="label">${label}</h1>`;
  const slug = runSlug("team-health");
  const draft = await author.create(html("First"), { dash: slug });

  // Signed out, the action is not there at all.
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#label")).toHaveText("First");
  await expect(page.getByRole("button", { name: "Save to my space" })).toHaveCount(0);

  await signIn(page, "csm@demo.test", new URL(draft.watchUrl).pathname);
  await page.getByRole("button", { name: "Save to my space" }).click();
  const form = page.getByRole("form", { name: "Save to my space" });
  await expect(form.getByRole("textbox", { name: "Title" })).toHaveValue("Team health");
  await expect(form.getByRole("textbox", { name: "Address" })).toHaveValue(slug);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/csm/${slug}`);

  // A newer revision of the draft is not what was saved, and the form says so.
  await author.update(draft, html("Second"));
  await expect(watch.dashboard().locator("#label")).toHaveText("Second");
  await expect(form.getByRole("status")).toHaveText(`Unsaved changes since revision 1 of /~/csm/${slug}`);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 2 to /~/csm/${slug}`);
  await form.getByRole("link", { name: `/~/csm/${slug}` }).click();

  const saved = new SavedDashboardPage(page);
  await expect(saved.heading()).toHaveText("Team health");
  await expect(saved.revision()).toHaveText("2");
  await expect(saved.dashboard().locator("#label")).toHaveText("Second");
  await saved.openHistory();
  await expect(saved.historyEntries()).toHaveCount(2);
  await expect(saved.historyEntries().first()).toContainText("From playground draft revision 2");

  await page.getByRole("button", { name: "Restore revision 1" }).click();
  await expect(saved.revision()).toHaveText("3");
  await expect(saved.dashboard().locator("#label")).toHaveText("First");
  await saved.openHistory();
  await expect(saved.historyEntries()).toHaveCount(3);
  await expect(saved.historyEntries().first()).toContainText("Restored from revision 1");
  expect(await (await page.request.get(`/~/csm/${slug}/source?revision=1`)).text()).toBe(html("First"));

  // The space lists it first, newest first.
  await new SpacePage(page).open("csm");
  await expect(new SpacePage(page).entries().first()).toContainText("Team health");
});

test("the editor saves its source into the space, and a saved dashboard opens in the editor, not shared", { tag: "@csm-state" }, async ({ page }) => {
  await signIn(page, "csm@demo.test", "/dashboards/playground?example=crm-pipeline");
  // The preview running means the page is interactive.
  await expect(page.frameLocator('iframe[title="Dashboard preview"]').locator("h1")).toContainText("CRM pipeline");
  // An edit of the author's own, which the save keeps: leaving afterwards asks nothing.
  await page.getByRole("textbox", { name: "Dashboard HTML" }).click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText("\n<!-- kept in my space -->");
  const asked: string[] = [];
  page.on("dialog", (d) => {
    asked.push(d.type());
    void d.dismiss();
  });
  await page.getByRole("button", { name: "Save to my space" }).click();
  const form = page.getByRole("form", { name: "Save to my space" });
  await expect(form.getByRole("textbox", { name: "Address" })).toHaveValue("crm-pipeline");
  await form.getByRole("textbox", { name: "Address" }).fill("Bad Name");
  await expect(form.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  const slug = runSlug("pipeline-from-editor");
  await form.getByRole("textbox", { name: "Address" }).fill(slug);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/csm/${slug}`);

  const source = await (await page.request.get(`/~/csm/${slug}/source`)).text();
  expect(source).toContain("<title>CRM pipeline</title>");
  expect(source).toContain("<!-- kept in my space -->");

  await page.goto(`/~/csm/${slug}`);
  expect(asked).toEqual([]);
  await page.getByRole("button", { name: "Open in playground" }).click();
  // The editor takes it up and drops the handover from the address, so a reload keeps the edits instead.
  await expect(page).toHaveURL(/\/dashboards\/playground$/);
  await expect(page.getByTestId("editor-status")).toContainText("nothing is shared until you share");
  await expect(page.getByRole("textbox", { name: "Dashboard HTML" })).toContainText("<title>CRM pipeline</title>");
  await expect(page.getByTestId("editor-revision")).toHaveText("not shared");
  // The person's own dashboard goes on on their own data, asking nothing.
  await expect(page.getByRole("combobox", { name: /^Data/ })).toHaveValue("live");
  await expect(page.frameLocator('iframe[title="Dashboard preview"]').locator("h1")).toContainText("CRM pipeline");
  await expect(page.getByTestId("consent-gate")).toHaveCount(0);
  // The handed-over HTML is gone from the tab once read.
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
});

test("Ctrl+S in the editor: the first asks for a title, the saved page is headed with it, and later ones add revisions at once", { tag: "@csm-state" }, async ({ page }) => {
  await signIn(page, "csm@demo.test", "/dashboards/playground?example=crm-pipeline");
  const editor = new PlaygroundEditorPage(page);
  await editor.codeMirrorTookOver();
  await expect(editor.preview().locator("h1")).toContainText("CRM pipeline");
  const run = Date.now().toString(36);
  const title = `Renewals board ${run}`;
  const slug = `renewals-board-${run}`;
  const path = `/~/csm/${slug}`;

  // Nothing is in the space yet: Ctrl+S opens the form, at its title.
  await editor.source().click();
  await editor.pressSave();
  await expect(editor.saveTitle()).toBeFocused();
  await expect(editor.saveTitle()).toHaveValue("CRM pipeline");
  await expect(editor.saveAddress()).toHaveValue("crm-pipeline");
  await expect(editor.saveState()).toHaveCount(0);

  // The address follows the title, under the save route's rules, until it is edited.
  await editor.saveTitle().fill(title);
  await expect(editor.saveAddress()).toHaveValue(slug);
  const save = editor.saveForm().getByRole("button", { name: "Save", exact: true });
  await editor.saveTitle().fill("   ");
  await expect(editor.saveForm()).toContainText("Give the dashboard a title.");
  await expect(save).toBeDisabled();
  await editor.saveTitle().fill(`Q3\u202e ${title}`);
  await expect(editor.saveForm()).toContainText("invisible or direction-changing characters");
  await expect(save).toBeDisabled();
  await editor.saveTitle().fill(title);
  await editor.saveAddress().fill("-nope");
  await expect(editor.saveForm()).toContainText("Use 1–64 lowercase letters, digits and hyphens for the address");
  await expect(save).toBeDisabled();
  await editor.saveTitle().fill(`${title} edited`);
  await expect(editor.saveAddress()).toHaveValue("-nope");
  await editor.saveAddress().fill(slug);
  await editor.saveTitle().fill(title);
  await expectNoSeriousViolations(page);
  // Nothing was saved while the input was refused.
  expect((await page.request.get(`${path}/source`)).status()).toBe(404);

  await save.click();
  await expect(editor.saveForm().getByRole("status")).toHaveText(`Saved revision 1 to ${path}`);
  // The title went into the source's <title>, which the saved page reads (at the top of the
  // source: CodeMirror draws the lines in sight).
  await editor.source().evaluate((el) => el.closest(".cm-scroller")?.scrollTo(0, 0));
  await expect(editor.source()).toContainText(`<title>${title}</title>`);
  expect(await (await page.request.get(`${path}/source`)).text()).toContain(`<title>${title}</title>`);
  await editor.saveForm().getByRole("button", { name: "Close" }).click();
  await expect(editor.saveState()).toHaveText(`Saved revision 1 to ${path}`);

  // An edit after the save is not in the space, and the page says so.
  await editor.append("\n<!-- second revision -->");
  await expect(editor.saveState()).toHaveText(`Unsaved changes since revision 1 of ${path}`);
  await editor.pressSave();
  await expect(editor.status()).toHaveText(`Saved revision 2 to ${path}`);
  await expect(editor.saveForm()).toHaveCount(0);
  await expect(editor.saveState()).toHaveText(`Saved revision 2 to ${path}`);
  expect(await (await page.request.get(`${path}/source?revision=2`)).text()).toContain("<!-- second revision -->");
  await expectNoSeriousViolations(page);

  const saved = new SavedDashboardPage(page);
  await saved.open(path);
  await expect(saved.heading()).toHaveText(title);
  await expect(saved.revision()).toHaveText("2");
  await saved.openHistory();
  await expect(saved.historyEntries()).toHaveCount(2);

  // Opened again from the space, the dashboard is already there: Ctrl+S adds revision 3 at once.
  await page.getByRole("button", { name: "Open in playground" }).click();
  await expect(page).toHaveURL(/\/dashboards\/playground$/);
  await editor.codeMirrorTookOver();
  await expect(editor.saveState()).toHaveText(`Saved revision 2 to ${path}`);
  await editor.append("\n<!-- third revision -->");
  await expect(editor.saveState()).toHaveText(`Unsaved changes since revision 2 of ${path}`);
  await editor.pressSave();
  await expect(editor.status()).toHaveText(`Saved revision 3 to ${path}`);
  await expect(editor.saveForm()).toHaveCount(0);
  await saved.open(path);
  await expect(saved.revision()).toHaveText("3");
  await expect(saved.heading()).toHaveText(title);
});

// ------------------------------------------------------------------------------------------
// Refusals: nothing but the person at their own page may save.

async function spaceOf(page: Page): Promise<string[]> {
  const res = await page.request.get("/~/csm");
  const html = await res.text();
  return [...html.matchAll(/href="(\/~\/csm\/[a-z0-9-]+)"/g)].map((m) => m[1]!);
}

test("a dashboard in the frame cannot save, by fetch or by form", { tag: "@csm-state" }, async ({ page, request }) => {
  await signIn(page, "csm@demo.test", "/~/csm");
  const before = await spaceOf(page);
  const hostile = `<!doctype html><title>hostile</title><p id="done">…</p>
<form id="f" method="post" action="/~/csm/stolen-form" enctype="text/plain"><input name="<html>" value="x"></form>
<script>
  fetch("/~/csm/stolen-fetch", { method: "POST", headers: { "content-type": "text/html" }, body: "<p>x</p>", credentials: "include" }).catch(() => {});
  fetch((window.DASHBOARD_API_BASE || "/api") + "/../../~/csm/stolen-broker", { method: "POST", body: "<p>x</p>" }).catch(() => {});
  document.getElementById("f").submit();
  document.getElementById("done").textContent = "tried";
</script>`;
  const draft = await new DraftAuthor(request).create(hostile, { dataMode: "live" });
  await new WatchPage(page).open(draft.watchUrl);
  // Reads nothing the check can name, so there is nothing to agree to: it runs at once.
  await expect(new WatchPage(page).dashboard().locator("#done")).toHaveText("tried", { timeout: 15_000 });
  for (const slug of ["stolen-form", "stolen-fetch", "stolen-broker"]) {
    expect((await page.request.get(`/~/csm/${slug}/source`)).status(), slug).toBe(404);
  }
  expect(await spaceOf(page)).toEqual(before);
});

test("another origin on the same site cannot save with the person's cookie", { tag: "@csm-state" }, async ({ page, baseURL }) => {
  await signIn(page, "csm@demo.test", "/~/csm");
  const before = await spaceOf(page);
  // A page served from another port of 127.0.0.1: same site, other origin, so the browser
  // sends the SameSite=Lax cookie along and only the origin checks stand in the way.
  const target = `${baseURL}/~/csm/stolen-sibling`;
  const server = http.createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(`<!doctype html><p id="out">…</p>
<form id="f" method="post" action="${target}" enctype="text/plain"><input name="<html>" value="x"></form>
<script>
  fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: "<p>x</p>" })
    .then(() => { document.getElementById("out").textContent = "sent"; document.getElementById("f").submit(); })
    .catch(() => { document.getElementById("out").textContent = "failed"; document.getElementById("f").submit(); });
</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = page.waitForResponse((r) => r.url() === target && r.request().method() === "POST");
    await page.goto(`http://127.0.0.1:${port}/`);
    const res = await answer;
    expect(res.status()).toBe(403);
  } finally {
    server.close();
  }
  expect((await page.request.get("/~/csm/stolen-sibling/source")).status()).toBe(404);
  expect(await spaceOf(page)).toEqual(before);
});

test("the cookie alone, as a script or curl would send it, cannot save", async ({ page }) => {
  await signIn(page, "csm@demo.test", "/~/csm");
  const res = await page.request.post("/~/csm/stolen-curl", { headers: { "content-type": "text/html" }, data: "<p>x</p>" });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error: "forbidden" });
  expect((await page.request.get("/~/csm/stolen-curl/source")).status()).toBe(404);

  // The route saves are rewritten to cannot be reached around the rewrite.
  const direct = await page.request.post("/dashboards/save/csm/stolen-direct", { headers: { "content-type": "text/html" }, data: "<p>x</p>" });
  expect(direct.status()).toBe(404);
  expect(await direct.json()).toMatchObject({ error: "not_found" });
  expect((await page.request.get("/~/csm/stolen-direct/source")).status()).toBe(404);
});
