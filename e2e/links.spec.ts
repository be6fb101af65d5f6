import { expect, test, type BrowserContext, type FrameLocator, type Page } from "@playwright/test";
import { Canaries } from "./support/canary";
import { describeCounts, LoopbackListeners, reached, type ListenerTarget } from "./support/listeners";
import { SignInPage } from "./support/pages";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";

// A dashboard links to what its data names. A real click on a link whose address is exactly a URL
// an answer relayed to the frame opens it in a new tab, with no opener and no referrer; the frame
// itself keeps `sandbox="allow-scripts"` and opens nothing. Refused, with a console line, and
// nothing opened or connected to: the dashboard's own a.click() without a gesture, a link to an
// address no answer named, and window.open — on the watch page, the saved page and the safe view.
//
// The repositories' `url` fields (https://code.demo.test/…) name no real server: the browser
// context answers them itself, so every request for one is counted and none leaves. The address
// no answer named is a loopback listener's, counted at the socket once the canaries are heard.

let listeners: LoopbackListeners;
let canaries: Canaries;
let foreign: ListenerTarget;

test.beforeEach(async ({ browser }) => {
  listeners = new LoopbackListeners();
  canaries = new Canaries(browser, listeners);
  foreign = await listeners.target("links");
});
test.afterEach(async () => {
  await canaries.close();
  await listeners.close();
});

async function expectSilence(): Promise<void> {
  await canaries.send([foreign]);
  const c = listeners.counts("links");
  expect(reached(c), describeCounts(c)).toBe(false);
}

/**
 * Reads the viewer's repositories and links the first one by its `url`; links the listener,
 * which no answer names; clicks a link to the repository itself once the data is in, with no one
 * clicking; and has a button that asks window.open for the repository.
 */
function linking(title: string, listener: string): string {
  return `<!doctype html><title>${title}</title>
<p id="state">waiting</p>
<p><span id="data-slot"></span> · <a id="foreign" href="${listener}/not-from-the-data" target="_blank">elsewhere</a> · <button id="open">Open in a window</button></p>
<script>
(async () => {
  const API = window.DASHBOARD_API_BASE || "/api";
  const res = await fetch(API + "/vendors/coderepo/repos");
  if (!res.ok) { document.getElementById("state").textContent = "status " + res.status; return; }
  const repo = (await res.json()).repos[0];
  const a = document.createElement("a");
  a.id = "data";
  a.href = repo.url;
  a.target = "_blank";
  a.textContent = repo.nameWithOwner;
  document.getElementById("data-slot").append(a);
  document.getElementById("open").addEventListener("click", () => window.open(repo.url, "_blank"));
  const scripted = document.createElement("a");
  scripted.href = repo.url;
  scripted.target = "_blank";
  scripted.hidden = true;
  document.body.append(scripted);
  setTimeout(() => {
    scripted.click();
    document.getElementById("state").textContent = repo.url;
  }, 100);
})();
</script>`;
}

/** Every request the context made to the repositories' host, answered here so none leaves. */
async function answerRepositories(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.route(
    (url) => url.hostname.endsWith(".demo.test"),
    async (route) => {
      seen.push(route.request().url());
      expect(route.request().headers()["referer"]).toBeUndefined();
      await route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Repository</title><p>repository</p>" });
    },
  );
  return seen;
}

function warnings(page: Page): string[] {
  const lines: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "warning" && m.text().startsWith("Link refused")) lines.push(m.text());
  });
  return lines;
}

/** Clicks what must open nothing, then the link to the data, which must open exactly its address, once. */
async function clickThrough(page: Page, frame: FrameLocator, seen: string[], refused: string[]): Promise<void> {
  // First of all the dashboard's own click, with nothing of the test's in the page meanwhile: the
  // test's evaluations count as user gestures, so reading the page would lend the script one.
  await expect.poll(() => refused.some((l) => l.includes("no one clicked it")), { timeout: 30_000 }).toBe(true);
  const state = frame.locator("#state");
  await expect(state).toHaveText(/^https?:\/\//, { timeout: 30_000 });
  const url = (await state.textContent()) ?? "";
  const context = page.context();
  const before = context.pages().length;

  await frame.locator("#foreign").click();
  await frame.locator("#open").click();
  await expect.poll(() => refused.some((l) => l.includes("not a URL from this dashboard's data"))).toBe(true);
  await expect.poll(() => refused.some((l) => l.includes("window.open() never opens"))).toBe(true);
  expect(context.pages()).toHaveLength(before);
  expect(seen).toEqual([]);

  const [tab] = await Promise.all([context.waitForEvent("page"), frame.locator("#data").click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(url);
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  expect(seen).toEqual([url]);
  expect(context.pages()).toHaveLength(before + 1);
  await tab.close();
  await expectSilence();
}

test("on the watch page, a real click on a link to a URL from an answer opens it in a new tab; a scripted click, another address and window.open open nothing", async ({ page, request }) => {
  const seen = await answerRepositories(page.context());
  const refused = warnings(page);
  const draft = await new DraftAuthor(request).create(linking("Repos", foreign.httpOrigin));
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await clickThrough(page, watch.dashboard(), seen, refused);
  // The frame still may open nothing by itself.
  await expect(watch.frameElement()).toHaveAttribute("sandbox", "allow-scripts");
  // Each refusal said once, and only the refusals.
  expect(refused).toHaveLength(3);
});

test("on the saved page, the owner's dashboard on live data opens a link to a URL from their answer, and nothing else", { tag: "@csm-state" }, async ({ page }) => {
  const seen = await answerRepositories(page.context());
  const refused = warnings(page);
  const slug = `links-${Date.now().toString(36)}`;
  const draft = await new DraftAuthor(page.request).create(linking("Repos", foreign.httpOrigin), { dash: slug });
  await new SignInPage(page).open(new URL(draft.watchUrl).pathname);
  await new SignInPage(page).signInAs("csm@demo.test");
  // The watch page runs it too (on demo data): its own click is refused before anything here.
  await expect.poll(() => refused.length, { timeout: 30_000 }).toBe(1);
  await page.getByRole("button", { name: "Save to my space" }).click();
  const form = page.getByRole("form", { name: "Save to my space" });
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/csm/${slug}`);
  refused.length = 0;

  const saved = new SavedDashboardPage(page);
  await saved.open(`/~/csm/${slug}`);
  await clickThrough(page, saved.dashboard(), seen, refused);
  await expect(page.getByTestId("dashboard-frame")).toHaveAttribute("sandbox", "allow-scripts");
  expect(refused).toHaveLength(3);
});

test("the safe view keeps a link to a URL from the viewer's answer as a link that opens a new tab, and writes every other as text", async ({ page, request }) => {
  const seen = await answerRepositories(page.context());
  const draft = await new DraftAuthor(request).create(linking("Repos", foreign.httpOrigin), { dataMode: "live" });
  await new SignInPage(page).open(new URL(draft.watchUrl).pathname);
  await new SignInPage(page).signInAs("csm@demo.test");
  const watch = new WatchPage(page);
  await expect(watch.safeView()).toBeVisible();
  const drawn = watch.drawn();
  const html = (await page.getByTestId("safe-view-frame").getAttribute("srcdoc")) ?? "";
  await expect(drawn.locator("#state")).toHaveText(/^https?:\/\//, { timeout: 30_000 });
  const url = (await drawn.locator("#state").textContent()) ?? "";
  // Drawn as a link only where the answer named the address (the one shown, and the hidden one
  // the script clicked); the listener's is text.
  await expect(drawn.locator("a:not([hidden])")).toHaveCount(1);
  await expect(drawn.locator("a[hidden]")).toHaveAttribute("href", url);
  await expect(drawn.locator("a#data")).toHaveAttribute("href", url);
  await expect(drawn.locator("a#data")).toHaveAttribute("rel", "noopener noreferrer");
  await expect(drawn.locator("#foreign")).toHaveJSProperty("tagName", "SPAN");
  expect(html).not.toContain(foreign.httpOrigin);
  expect(html).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
  // The scripted click and window.open ran in the service's browser, which opened nothing.
  expect(seen).toEqual([]);

  const context = page.context();
  const before = context.pages().length;
  await drawn.locator("#foreign").click();
  await drawn.locator("#open").click();
  expect(context.pages()).toHaveLength(before);
  const [tab] = await Promise.all([context.waitForEvent("page"), drawn.locator("a#data").click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(url);
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  expect(seen).toEqual([url]);
  expect(context.pages()).toHaveLength(before + 1);
  await tab.close();
  await expectSilence();
});
