import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { ConnectionsPage, ConsentPage } from "./support/connections-page";
import { ConsentGatePage } from "./support/consent";
import { DocsPage } from "./support/docs-page";
import { SignInPage } from "./support/pages";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";
import { copySavedDashboard, damageSavedTimes } from "./support/demo-db";

// What a person meets on every page at a desk and on a phone: whole dashboards reachable by
// scrolling the page, failures explained around the dashboard, one way of telling time, switches
// that do not reload, confirmations before anything is deleted, and no sideways scrolling.

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };
const sizes = [
  { name: "1440", viewport: desktop },
  { name: "390", viewport: phone },
] as const;

async function signIn(page: Page, email: string, next = "/") {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[?]/g, "\\?")}$`));
}

/** Scrolls the page (not the frame) to its end and reports the last pixel row the reader sees. */
async function scrollPageToEnd(page: Page): Promise<number> {
  return page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    return window.innerHeight;
  });
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

for (const { name, viewport } of sizes) {
  test.describe(`at ${name} px`, () => {
    test.use({ viewport });

    test("a saved dashboard's last row is reached by scrolling the page", async ({ page }) => {
      await signIn(page, "csm@demo.test", "/~/csm/my-book");
      const saved = new SavedDashboardPage(page);
      const rows = saved.dashboard().locator("#rows tr");
      await expect(rows.first()).toBeVisible({ timeout: 15_000 });
      const count = await rows.count();
      expect(count).toBeGreaterThan(20);
      // The frame grows to its content, so the page is taller than the window and the frame
      // itself never needs a scroll bar.
      const frame = page.getByTestId("dashboard-frame");
      await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(viewport.height);
      const innerHeight = await scrollPageToEnd(page);
      const last = rows.last();
      await expect
        .poll(async () => {
          const box = await last.boundingBox();
          return box !== null && box.y >= 0 && box.y + box.height <= innerHeight;
        })
        .toBe(true);
      await expect(last).toBeInViewport();
    });
  });
}

test.describe("at 390 px", () => {
  test.use({ viewport: phone });

  test("no page scrolls sideways", async ({ page, request }) => {
    const draft = await new DraftAuthor(request).create(
      `<!doctype html><title>Wide check</title><h1>Wide check</h1><p>${"word ".repeat(200)}</p>`,
    );
    const pages = ["/signin", "/docs"];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
    }
    await new WatchPage(page).open(draft.watchUrl);
    await expect(page.getByTestId("dashboard-frame")).toBeVisible();
    expect(await horizontalOverflow(page), "watch").toBeLessThanOrEqual(0);

    await signIn(page, "csm@demo.test", "/?start");
    // The CRM summary's charts and the freshness table are the widest parts of the landing page.
    await expect(page.getByTestId("freshness").getByRole("table")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("crm-summary").getByRole("img").first()).toBeVisible({ timeout: 15_000 });
    expect(await horizontalOverflow(page), "landing").toBeLessThanOrEqual(0);
    for (const path of ["/connections", "/~/csm", "/~/csm/my-book"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
    }
  });

  test("the docs open on their heading, with the reference's contents folded away", async ({ page }) => {
    test.setTimeout(120_000);
    await new DocsPage(page).openSection("me");
    const h1 = page.getByRole("heading", { level: 1 }).first();
    await expect(h1).toBeInViewport();
    await expect(new DocsPage(page).tocItems().first()).toBeHidden();
    await page.getByRole("button", { name: "Contents" }).click();
    await expect(new DocsPage(page).tocItems().first()).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  test("the landing page's freshness table shows every column without clipping", async ({ page }) => {
    await signIn(page, "csm@demo.test", "/?start");
    const table = page.getByTestId("freshness").getByRole("table");
    await expect(table).toBeVisible({ timeout: 15_000 });
    const lastHeader = table.getByRole("columnheader").last();
    const box = await lastHeader.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x + box!.width).toBeLessThanOrEqual(phone.width);
  });
});

test.use({ viewport: desktop });

test("a member opening a customer-success dashboard is told, around it, which permission they lack", async ({ page }) => {
  await signIn(page, "member@demo.test", "/~/csm/my-book");
  const saved = new SavedDashboardPage(page);
  const problem = page.getByTestId("saved-problem");
  // Drawn by the site on the member's data: the answers its reads got say the same.
  await expect(saved.drawn().locator("body")).toBeVisible({ timeout: 30_000 });
  await expect(problem).toContainText("This dashboard reads customer-success views; your account lacks cx.read");
  await expect(saved.meta()).not.toContainText("your live data");
  await expectNoSeriousViolations(page);
  await saved.makeInteractive();
  await new ConsentGatePage(page).runWithMyData();
  await expect(problem).toContainText("This dashboard reads customer-success views; your account lacks cx.read", { timeout: 15_000 });
  await expect(saved.meta()).not.toContainText("your live data");
  await expectNoSeriousViolations(page);
});

test("titles come from the dashboard's own <title> where nothing else names it", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create("<!doctype html><title>CRM pipeline</title><h1 id=x>Pipeline</h1>");
  await new WatchPage(page).open(draft.watchUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Watching CRM pipeline");
  await expect(page.getByTestId("dashboard-frame")).toHaveAttribute("title", "Dashboard: CRM pipeline");
  await expect(page).toHaveTitle("Watching CRM pipeline · Dashboards");

  await signIn(page, "csm@demo.test", "/~/csm/my-book");
  await expect(page).toHaveTitle(/^CX book/);
});

test("dates read as relative times with the exact time in their title", async ({ page }) => {
  await signIn(page, "csm@demo.test", "/~/csm");
  const spaceTimes = page.getByRole("main").locator("time");
  await expect(spaceTimes.first()).toBeVisible();
  for (const time of await spaceTimes.all()) {
    await expect(time).toHaveAttribute("title", /\d{4}/);
    await expect(time).toHaveText(/ago|just now/);
  }

  await new SavedDashboardPage(page).open("/~/csm/my-book");
  await new SavedDashboardPage(page).openHistory();
  const savedTimes = page.getByRole("main").locator("time");
  await expect(savedTimes.first()).toBeVisible();
  for (const time of await savedTimes.all()) {
    await expect(time).toHaveAttribute("title", /\d{4}/);
    await expect(time).toHaveText(/ago|just now/);
  }
});

test("no date on the landing page lies in the future", async ({ page }) => {
  await signIn(page, "csm@demo.test", "/?start");
  await expect(page.getByTestId("freshness").getByRole("table")).toBeVisible({ timeout: 15_000 });
  const times = page.getByTestId("freshness").locator("time");
  await expect(times.first()).toBeVisible();
  const stamps = await times.evaluateAll((els) => els.map((e) => ({ at: Date.parse(e.getAttribute("datetime") ?? ""), text: e.textContent ?? "" })));
  const now = Date.now();
  for (const s of stamps) {
    expect(s.at, s.text).toBeLessThanOrEqual(now);
    expect(s.text).not.toMatch(/^in /);
  }
});

test("the docs search finds fields, error codes and query parameters", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.open();
  const kinds = async (query: string) => {
    await docs.search().fill(query);
    await expect(docs.results().first()).toBeVisible();
    return docs.results().evaluateAll((els, q) => els.filter((el) => (el.textContent ?? "").includes(q)).map((el) => el.getAttribute("data-kind")), query);
  };
  expect(await kinds("waitingOn")).toContain("field");
  expect(await kinds("unauthorized")).toContain("error");
  expect(await kinds("cursor")).toContain("param");
});

test("disabled buttons look disabled", async ({ browser, baseURL }) => {
  // Before the scripts run, the saved page's actions are disabled.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    expect((await context.request.post("/signin/demo", { form: { email: "csm@demo.test" }, maxRedirects: 0 })).status()).toBe(303);
    const page = await context.newPage();
    await page.goto("/~/csm/my-book");
    // Starred or not: the serial @csm-state tests star and unstar this dashboard beside this one.
    const star = new SavedDashboardPage(page).action(/^(☆ Star|★ Starred)$/);
    await expect(star).toBeDisabled();
    await expect(star).toHaveCSS("cursor", "not-allowed");
    const opacity = Number(await star.evaluate((el) => getComputedStyle(el).opacity));
    expect(opacity).toBeLessThan(1);
  } finally {
    await context.close();
  }
});

test("the start page stays one click away once a home is set", { tag: "@csm-state" }, async ({ page }) => {
  await signIn(page, "csm@demo.test", "/~/csm/my-book");
  const saved = new SavedDashboardPage(page);
  await saved.action("Set as home").click();
  await expect(saved.action("Your home")).toHaveAttribute("aria-pressed", "true");
  try {
    const startLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Start page" });
    await expect(startLink).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/~\/csm\/my-book$/);
    await startLink.click();
    await expect(page).toHaveURL(/\/\?start$/);
    await expect(page.getByTestId("crm-summary")).toBeVisible();
  } finally {
    await page.goto("/~/csm/my-book");
    await saved.action("Your home").click();
    await expect(saved.action("Set as home")).toHaveAttribute("aria-pressed", "false");
  }
});

test("the call-recordings switch changes in place, without reloading the page", { tag: "@member-state" }, async ({ page }) => {
  await signIn(page, "member@demo.test", "/connections");
  const connections = new ConnectionsPage(page);
  const optIn = connections.callsOptInSwitch();
  await expect(optIn).toHaveAttribute("aria-checked", "false");
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "not-connected");
  await optIn.scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  const before = await page.evaluate(() => window.scrollY);
  await optIn.click();
  await expect(optIn).toHaveAttribute("aria-checked", "true");
  await expect(connections.card("calls").getByRole("status").filter({ hasText: "You opted in to call recordings." })).toBeVisible();
  // Only the calls check runs again: it now reads the recordings.
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "ok");
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
  await expect(page).toHaveURL(/\/connections$/);
  expect((await page.request.get("/api/vendors/calls/calls")).status()).toBe(200);

  await optIn.click();
  await expect(optIn).toHaveAttribute("aria-checked", "false");
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  expect((await page.request.get("/api/vendors/calls/calls")).status()).toBe(403);
});

test("Disconnect asks first in a dialog, and Cancel keeps the connection", { tag: "@member-state" }, async ({ page }) => {
  await signIn(page, "member@demo.test", "/connections");
  const connections = new ConnectionsPage(page);
  await connections.connect("tracker");
  await new ConsentPage(page).authorize();
  await expect(page).toHaveURL("/connections?connected=tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Connected");

  // Deleting a stored token looks like the dangerous action it is, not like "Check again".
  const disconnect = connections.disconnectButton("tracker");
  const checkAgain = connections.card("tracker").getByRole("button", { name: /^Check again/ });
  await expect(checkAgain).toBeVisible();
  const colour = (el: Element) => getComputedStyle(el).color;
  expect(await disconnect.evaluate(colour)).not.toBe(await checkAgain.evaluate(colour));

  await disconnect.click();
  const dialog = page.getByRole("dialog", { name: /Disconnect Linear/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL("/connections?connected=tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Connected");
  expect((await page.request.get("/api/vendors/tracker/issues")).status()).toBe(200);

  await disconnect.click();
  await dialog.getByRole("button", { name: "Disconnect", exact: true }).click();
  await expect(page).toHaveURL("/connections?disconnected=tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Not connected");
});

test("a connector that is not connected links to /connections, and its check reads as words", async ({ page }) => {
  await signIn(page, "member@demo.test", "/?start");
  const link = page.getByTestId("connection-status").getByRole("link", { name: "Connect Linear", exact: true });
  await expect(link).toHaveAttribute("href", "/connections");
  await expect(page.getByText(/at \/connections/)).toHaveCount(0);

  await page.goto("/connections");
  const connections = new ConnectionsPage(page);
  await expect(connections.liveStatus("tracker")).toHaveAttribute("data-state", "not-connected");
  await expect(page.getByText(/at \/connections/)).toHaveCount(0);
  await expect(page.getByText(/viewer \{/)).toHaveCount(0);
  await expectNoSeriousViolations(page);
});

test("opening the save panel puts focus in its title, and Escape hands it back to the button", async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create("<!doctype html><title>Focus</title><h1>Focus</h1>");
  await signIn(page, "csm@demo.test", new URL(draft.watchUrl).pathname);
  const open = page.getByRole("button", { name: "Save to my space" });
  await open.click();
  await expect(page.getByRole("form", { name: "Save to my space" }).getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("form", { name: "Save to my space" })).toHaveCount(0);
  await expect(open).toBeFocused();
});

test("a page that fails while rendering shows the site's own error page, with a reference and no internals @csm-state", async ({ page }) => {
  // A copy is damaged, not the dashboard itself, which tests running beside this one open.
  const remove = copySavedDashboard("csm", "my-book", { slug: "damaged-book", title: "Damaged book" });
  try {
    const restore = damageSavedTimes("csm", "damaged-book");
    try {
      await signIn(page, "csm@demo.test", "/~/csm/damaged-book");
      const failed = page.getByTestId("page-error");
      await expect(failed.getByRole("heading", { level: 1 })).toHaveText("Something went wrong");
      await expect(failed.getByRole("heading", { level: 1 })).toBeFocused();
      await expect(failed).toContainText(/reference \S+/);
      await expect(page.getByRole("main")).not.toContainText("Invalid time value");
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(failed.getByRole("link", { name: "The start page" })).toBeVisible();
      await expectNoSeriousViolations(page);
    } finally {
      restore();
    }
    // Put right, the same page shows again through Try again, without a reload.
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("page-error")).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Damaged book");
  } finally {
    remove();
  }
});

test("the site header fetches its pages ahead only when someone reaches for a link, not on sight", async ({ page }) => {
  const prefetched: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.searchParams.has("_rsc")) prefetched.push(url.pathname);
  });
  const draft = await new DraftAuthor(page.request).create(`<!doctype html><title>Header</title><h1 id="label">Header</h1>`);
  const watch = new WatchPage(page);
  await watch.open(draft.watchUrl);
  await expect(watch.dashboard().locator("#label")).toHaveText("Header");
  const nav = page.getByRole("navigation", { name: "Main" });
  // Reaching for one link fetches that page alone; the others, on screen all along, stay unfetched.
  const docs = page.waitForRequest((r) => new URL(r.url()).pathname === "/docs" && new URL(r.url()).searchParams.has("_rsc"));
  await nav.getByRole("link", { name: "API reference" }).hover();
  await docs;
  expect(prefetched.filter((p) => p !== "/docs")).toEqual([]);
  // A keyboard reaching a link counts as reaching for it.
  const playground = page.waitForRequest((r) => new URL(r.url()).pathname === "/dashboards/playground" && new URL(r.url()).searchParams.has("_rsc"));
  await nav.getByRole("link", { name: "Playground" }).focus();
  await playground;
  expect([...new Set(prefetched)].sort()).toEqual(["/dashboards/playground", "/docs"]);
});

test("on a phone the site header is one row, and its sections open under Menu", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "admin@demo.test", "/connections");
  const header = page.getByRole("banner");
  for (const path of ["/connections", "/docs", "/account", "/dashboards/playground"]) {
    await page.goto(path);
    const box = (await header.boundingBox())!;
    // One row: the brand, the menu and the account, no taller than a button and its padding.
    expect(box.height, path).toBeLessThanOrEqual(56);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), path).toBe(true);
  }
  const menu = header.getByText("Menu", { exact: true });
  await expect(header.getByRole("link", { name: "API reference" })).toBeHidden();
  await menu.click();
  const sections = header.getByRole("navigation", { name: "Main" });
  await expect(sections.getByRole("link", { name: "API reference" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Escape");
  await expect(sections).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await sections.getByRole("link", { name: "Connections" }).click();
  await expect(page).toHaveURL(/\/connections$/);
  // The header stays across the navigation; the menu does not stay open over the new page.
  await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
});
