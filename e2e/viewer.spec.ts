import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { expectWcagAaClean } from "./support/axe";
import { SignInPage } from "./support/pages";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor, WatchPage, type CreatedDraft } from "./support/watch-page";

// Watch pages and saved dashboards as a screen left open on a wall: the window's width, the
// frame as tall as its dashboard, kiosk mode, the saved page's "Updated" state with Refresh, and
// the address's p.* parameters reaching the dashboard as window.DASHBOARD_PARAMS, bounded.

// Each test makes its drafts (and a save) and opens pages two or three times over; on the shared
// two-core machine under load that went past 30 s while the same steps took 10 to 20 s idle.
test.describe.configure({ timeout: 90_000 });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A dashboard that shows what it was given, how it was drawn, and is `tall` pixels tall. */
function probe(title: string, tall: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{margin:0;font-family:system-ui,sans-serif}main{padding:12px}#tall{height:${tall}px;background:#eef3fb}</style></head>
<body><main><h1>${title}</h1><pre id="params"></pre><p id="shape"></p><p id="drawn"></p><div id="tall"></div></main>
<script>
const given = window.DASHBOARD_PARAMS;
document.getElementById("params").textContent = JSON.stringify(given);
document.getElementById("shape").textContent = [Object.getPrototypeOf(given) === null ? "no prototype" : "prototype", Object.isFrozen(given) ? "frozen" : "open", String(document.scripts.length) + " script"].join(", ");
document.getElementById("drawn").textContent = String(Math.random());
</script></body></html>`;
}

const runSlug = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page, email: string, next: string) {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
}

async function paramsIn(frame: ReturnType<WatchPage["dashboard"]>): Promise<Record<string, string>> {
  await expect(frame.locator("#params")).not.toBeEmpty();
  return JSON.parse((await frame.locator("#params").textContent()) ?? "null") as Record<string, string>;
}

async function widthOf(el: Locator): Promise<number> {
  return (await el.boundingBox())?.width ?? 0;
}

/** Every control and status on the page lies within the viewport's width, and nothing scrolls sideways. */
async function expectNothingOutside(page: Page): Promise<void> {
  const outside = await page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const found = [...document.querySelectorAll("button, a, input, select, summary, [role=status], h1, iframe")].filter((el) => {
      if (el.closest(".skip-link")) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && (r.left < -0.5 || r.right > w + 0.5);
    });
    return { overflow: document.documentElement.scrollWidth - w, found: found.map((el) => el.outerHTML.slice(0, 100)) };
  });
  expect(outside).toEqual({ overflow: 0, found: [] });
}

async function openWatch(page: Page, draft: CreatedDraft, query = ""): Promise<WatchPage> {
  const watch = new WatchPage(page);
  await page.goto(`${new URL(draft.watchUrl).pathname}${query}`);
  // The stream opens after the draft is read and the page hydrated: seconds on a loaded machine.
  await expect(watch.connectionState()).toHaveText("live", { timeout: 15_000 });
  return watch;
}

test.describe("the watch page", () => {
  test("takes the window's width, sizes the frame to its dashboard and passes p.* parameters", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const author = new DraftAuthor(request);
    const draft = await author.create(probe("Wall check", 1500));
    const watch = await openWatch(page, draft, "?p.days=90&p.from=2026-01-01&other=1");

    expect(await paramsIn(watch.dashboard())).toEqual({ days: "90", from: "2026-01-01" });
    await expect(watch.dashboard().locator("#shape")).toHaveText("no prototype, frozen, 1 script");
    await expect(page.getByTestId("params-notice")).toHaveCount(0);

    const frame = watch.frameElement();
    expect(await widthOf(frame)).toBeGreaterThanOrEqual(DESKTOP.width * 0.9);
    // The frame is as tall as the dashboard, not a fixed box that scrolls inside.
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(1500);
    await author.update(draft, probe("Wall check", 300));
    await expect(watch.dashboard().locator("#tall")).toHaveCSS("height", "300px");
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeLessThan(700);
    await expectWcagAaClean(page);
  });

  test("names the draft from the first byte and does not move when the draft arrives", async ({ page, request }) => {
    const draft = await new DraftAuthor(request).create(probe("Steady board", 600));
    const path = new URL(draft.watchUrl).pathname;
    // The server's HTML already says what is watched, before any script runs.
    const html = await (await request.get(path)).text();
    // The name is isolated (<bdi>), so a right-to-left one cannot reorder the heading.
    expect(/<h1 id="watch-title">(.*?)<\/h1>/.exec(html)?.[1]?.replace("<!-- -->", "")).toBe("Watching <bdi>Steady board</bdi>");
    await page.addInitScript(() => {
      const moved: string[] = [];
      Object.assign(window, { __moved: moved });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { sources?: { node?: Node | null }[] })[]) {
          for (const source of entry.sources ?? []) {
            const el = source.node instanceof Element ? source.node : source.node?.parentElement;
            // The site's header, the page's column and the viewer's own header must stay put.
            if (el && (el.matches("main") || el.closest(".site-header") || el.closest("[data-testid=viewer] > div:first-child"))) moved.push(el.outerHTML.slice(0, 80));
          }
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.setViewportSize(DESKTOP);
    const watch = new WatchPage(page);
    await watch.open(draft.watchUrl);
    await expect(watch.connectionState()).toHaveText("live");
    await expect(watch.dashboard().locator("h1")).toHaveText("Steady board");
    await expect(watch.revision()).toHaveText("1");
    expect(await page.evaluate(() => (window as unknown as { __moved: string[] }).__moved)).toEqual([]);
  });

  test("drops hostile parameters, says so, and never runs them", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const draft = await new DraftAuthor(request).create(probe("Hostile address", 200));
    const markup = "</script><script>document.title='owned'</script><img src=x onerror=alert(1)>";
    const query = new URLSearchParams([
      ["p.__proto__", "polluted"],
      ["p.x", markup],
      ["p.huge", "h".repeat(5000)],
      ["p.Days", "1"],
      ["p.constructor", "plain"],
      ...Array.from({ length: 100 }, (_, i): [string, string] => [`p.k${i}`, String(i)]),
    ]);
    const watch = await openWatch(page, draft, `?${query}`);

    const given = await paramsIn(watch.dashboard());
    expect(Object.keys(given)).toHaveLength(20);
    expect(given.x).toBe(markup);
    expect(given.constructor).toBe("plain");
    expect(given.k17).toBe("17");
    expect(given.k18).toBeUndefined();
    expect(Object.keys(given)).not.toContain("__proto__");
    expect(Object.keys(given)).not.toContain("huge");
    // The markup stayed text: the dashboard's own script is the only one, and the title is its own.
    await expect(watch.dashboard().locator("#shape")).toHaveText("no prototype, frozen, 1 script");
    await expect(page).toHaveTitle("Watching Hostile address · Dashboards");

    const notice = page.getByTestId("params-notice");
    await expect(notice).toContainText("85 address parameters were not passed to the dashboard");
    await expect(notice).toContainText("p.__proto__ (not a name");
    await expect(notice).toContainText("p.huge (longer than 200 characters)");
    await expect(notice).toContainText("and 80 more");
    await expectWcagAaClean(page);
  });

  test("kiosk mode: the Full screen button hides the chrome, Escape leaves and keeps the other parameters", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const draft = await new DraftAuthor(request).create(probe("Kiosk check", 400));
    const watch = await openWatch(page, draft, "?p.days=90");
    const header = page.locator(".site-header");
    await expect(header).toBeVisible();

    await page.getByRole("button", { name: "Full screen" }).click();
    await expect(header).toBeHidden();
    await expect(watch.heading()).toBeHidden();
    await expect(page).toHaveURL(/[?&]kiosk=1/);
    await expect(page).toHaveURL(/p\.days=90/);
    const frame = watch.frameElement();
    const box = await frame.boundingBox();
    expect(box?.x).toBe(0);
    expect(box?.y).toBe(0);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(DESKTOP.width * 0.98);
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(DESKTOP.height);
    // The way out has focus, and says its key.
    const exit = page.getByRole("button", { name: /Exit full screen/ });
    await expect(exit).toBeFocused();
    await expect(exit).toHaveAttribute("aria-keyshortcuts", "Escape");
    await expect(watch.connectionState()).toHaveText("live");
    await expectWcagAaClean(page);

    await page.keyboard.press("Escape");
    await expect(header).toBeVisible();
    await expect(watch.heading()).toBeVisible();
    await expect(page).not.toHaveURL(/kiosk/);
    await expect(page).toHaveURL(/p\.days=90/);
    await expect(page.getByRole("button", { name: "Full screen" })).toBeFocused();
    // The dashboard kept its parameters through both changes.
    expect(await paramsIn(watch.dashboard())).toEqual({ days: "90" });
  });

  test("?kiosk=1 in the address opens in kiosk mode, and the exit button leaves it", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const draft = await new DraftAuthor(request).create(probe("Kiosk address", 400));
    const watch = await openWatch(page, draft, "?kiosk=1&p.days=7");
    await expect(page.locator(".site-header")).toBeHidden();
    await expect(watch.heading()).toBeHidden();
    expect(await paramsIn(watch.dashboard())).toEqual({ days: "7" });
    await page.getByRole("button", { name: /Exit full screen/ }).click();
    await expect(page.locator(".site-header")).toBeVisible();
    await expect(page).toHaveURL(/\?p\.days=7$/);
  });

  test("on a phone, every control stays on screen, in kiosk mode too", async ({ page, request }) => {
    await page.setViewportSize(PHONE);
    const draft = await new DraftAuthor(request).create(probe("Phone check", 900));
    const watch = await openWatch(page, draft, "?p.days=30");
    await expect(watch.dashboard().locator("#params")).toHaveText('{"days":"30"}');
    await expectNothingOutside(page);
    await expectWcagAaClean(page);
    await page.getByRole("button", { name: "Full screen" }).click();
    await expect(page.getByRole("button", { name: /Exit full screen/ })).toBeInViewport();
    await expectNothingOutside(page);
    await expectWcagAaClean(page);
  });
});

test.describe("a saved dashboard", () => {
  /** The admin saves a probe into their own space (no demo person's serial state) and opens it. */
  async function savedProbe(page: Page, request: APIRequestContext, title: string, query: string) {
    const slug = runSlug("viewer");
    const draft = await new DraftAuthor(request).create(probe(title, 1200), { dash: slug });
    await signIn(page, "admin@demo.test", new URL(draft.watchUrl).pathname);
    await page.getByRole("button", { name: "Save to my space" }).click();
    const form = page.getByRole("form", { name: "Save to my space" });
    await form.getByRole("button", { name: "Save", exact: true }).click();
    await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/admin/${slug}`);
    const saved = new SavedDashboardPage(page);
    await saved.open(`/~/admin/${slug}${query}`);
    await expect(saved.heading()).toHaveText(title);
    return saved;
  }

  test("full width, sized to content, says when it was updated and refreshes on request", async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    const saved = await savedProbe(page, request, "Saved wall", "?p.days=90&p.from=2026-01-01");
    const state = page.getByTestId("updated-state");
    await expect(state).toHaveAttribute("data-state", "updated", { timeout: 15_000 });
    await expect(state).toHaveText(/^Updated .+ · live, refreshed every 5 minutes$/);
    expect(await paramsIn(saved.dashboard())).toEqual({ days: "90", from: "2026-01-01" });

    const frame = page.getByTestId("dashboard-frame");
    expect(await widthOf(frame)).toBeGreaterThanOrEqual(DESKTOP.width * 0.9);
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(1200);

    const drawn = await saved.dashboard().locator("#drawn").textContent();
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(saved.dashboard().locator("#drawn")).not.toHaveText(drawn ?? "");
    await expect(state).toHaveAttribute("data-state", "updated");
    expect(await paramsIn(saved.dashboard())).toEqual({ days: "90", from: "2026-01-01" });
    await expectWcagAaClean(page);
  });

  test("kiosk mode keeps the updated state and Refresh on screen; Escape leaves; phones fit", async ({ page, request }) => {
    await page.setViewportSize(PHONE);
    const saved = await savedProbe(page, request, "Saved kiosk", "?p.days=14");
    await expect(page.getByTestId("updated-state")).toHaveAttribute("data-state", "updated", { timeout: 15_000 });
    await expectNothingOutside(page);
    await expectWcagAaClean(page);

    await page.getByRole("button", { name: "Full screen" }).click();
    await expect(page.locator(".site-header")).toBeHidden();
    await expect(saved.heading()).toBeHidden();
    await expect(page.getByRole("group", { name: "Dashboard actions" })).toBeHidden();
    const bar = page.getByRole("group", { name: "Full screen" });
    await expect(bar.getByTestId("updated-state")).toHaveAttribute("data-state", "updated");
    await expect(bar.getByRole("button", { name: "Refresh" })).toBeInViewport();
    await expectNothingOutside(page);
    await expectWcagAaClean(page);

    await page.keyboard.press("Escape");
    await expect(saved.heading()).toBeVisible();
    await expect(page).toHaveURL(/\?p\.days=14$/);
    expect(await paramsIn(saved.dashboard())).toEqual({ days: "14" });
  });
});
