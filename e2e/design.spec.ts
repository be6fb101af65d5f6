import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectWcagAaClean } from "./support/axe";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor } from "./support/watch-page";

// One design on every page: the site header is one height everywhere at a given width, the
// buttons of one row are one height, and on a phone a saved dashboard's data starts near the top
// with its other actions one tap away under More.

const sizes = [
  { name: "1440×900", viewport: { width: 1440, height: 900 } },
  { name: "390×844", viewport: { width: 390, height: 844 } },
] as const;

async function signIn(page: Page, email: string): Promise<void> {
  const res = await page.request.post("/signin/demo", { form: { email }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
}

const watched = `<!doctype html>
<html lang="en"><title>Watched</title>
<h1>Watched</h1>
</html>`;

/** The heights of the shown buttons (and links and selects styled as controls) under `row`. */
async function controlHeights(row: Locator): Promise<number[]> {
  return row.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>("button, a.button, select, summary")]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.width > 1 && r.height > 1;
      })
      .map((c) => Math.round(c.getBoundingClientRect().height)),
  );
}

for (const { name, viewport } of sizes) {
  test.describe(`at ${name}`, () => {
    test.use({ viewport });

    test("the site header is one height on every page", async ({ page }) => {
      test.setTimeout(90_000);
      const draft = await new DraftAuthor(page.request).create(watched);
      const heights = new Map<string, number>();
      const measure = async (path: string) => {
        await page.goto(path);
        await expect(page.getByRole("banner")).toBeVisible();
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeAttached();
        heights.set(path, Math.round((await page.getByRole("banner").boundingBox())!.height));
      };
      for (const path of ["/signin", "/docs", "/dashboards/playground", new URL(draft.watchUrl).pathname]) await measure(path);
      await signIn(page, "csm@demo.test");
      for (const path of ["/", "/~/csm", "/~/csm/my-book", "/connections", "/account", "/dashboards/playground", "/docs/me"]) await measure(`${path}${path === "/" ? "?start" : ""}`);
      expect(new Set(heights.values()), JSON.stringify(Object.fromEntries(heights))).toEqual(new Set([52]));
    });

    test("the buttons of one row are one height: the saved page's bar, the editor's toolbar, the header", async ({ page }) => {
      await signIn(page, "csm@demo.test");
      await page.goto("/~/csm/my-book");
      await expect(page.getByTestId("updated-state")).toHaveAttribute("data-state", "updated", { timeout: 30_000 });
      const bar = page.getByRole("group", { name: "Dashboard actions" }).locator("xpath=..");
      const saved = await controlHeights(bar);
      expect(saved.length).toBeGreaterThanOrEqual(3);
      expect(new Set(saved), `saved page bar: ${saved.join(", ")}`).toEqual(new Set([36]));
      const header = await controlHeights(page.getByRole("banner"));
      expect(new Set(header), `header: ${header.join(", ")}`).toHaveProperty("size", 1);

      await page.goto("/dashboards/playground");
      await expect(page.getByRole("button", { name: "More", exact: true })).toBeVisible();
      const toolbar = await controlHeights(page.getByTestId("editor-toolbar"));
      expect(toolbar.length).toBeGreaterThanOrEqual(3);
      expect(new Set(toolbar), `editor toolbar: ${toolbar.join(", ")}`).toHaveProperty("size", 1);
    });
  });
}

test.describe("at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a saved dashboard's data starts within 200 px of the top; the other actions and History are under More", async ({ page }) => {
    await signIn(page, "csm@demo.test");
    const saved = new SavedDashboardPage(page);
    await saved.open("/~/csm/my-book");
    await expect(saved.dashboard().locator("h1")).toHaveText("CX book", { timeout: 30_000 });
    const frame = (await page.getByTestId("dashboard-frame").boundingBox())!;
    const first = (await saved.dashboard().locator("body *:visible").first().boundingBox())!;
    expect(frame.y).toBeLessThanOrEqual(200);
    expect(first.y).toBeLessThanOrEqual(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    // The actions are one row above it.
    const bar = (await page.getByRole("group", { name: "Dashboard actions" }).boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(frame.y);
    await expect(saved.action("Open in playground")).toBeHidden();
    await expectWcagAaClean(page);

    const more = page.getByRole("group", { name: "Dashboard actions" }).getByRole("button", { name: "More" });
    await more.click();
    await expect(more).toHaveAttribute("aria-expanded", "true");
    for (const action of ["Open in playground", /^(Set as home|Your home)$/, "History"]) {
      const button = saved.action(action);
      await expect(button).toBeInViewport({ ratio: 1 });
    }
    await expect(page.getByRole("group", { name: "Dashboard actions" }).getByRole("link", { name: "View source" })).toBeInViewport();
    await expectWcagAaClean(page);
    await page.keyboard.press("Escape");
    await expect(saved.action("History")).toBeHidden();
    await expect(more).toBeFocused();

    // History, far below a long dashboard, is one tap away: opened and scrolled to.
    await more.click();
    await saved.action("History").click();
    await expect(page.getByTestId("history")).toHaveAttribute("open", "");
    await expect(saved.historyEntries().first()).toBeInViewport();
  });
});
