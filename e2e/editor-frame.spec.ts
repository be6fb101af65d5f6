import { expect, test, type Page } from "@playwright/test";
import { expectWcagAaClean } from "./support/axe";
import { PlaygroundEditorPage } from "./support/editor-page";
import { SignInPage } from "./support/pages";

// The editor's frame holds still: one toolbar row at desktop widths whatever the title or the
// message, messages as toasts that fade while a live region keeps their words, the check and the
// console in a dock that is never crushed and resizes from the keyboard, one count per panel,
// and on a phone the preview with most of the screen.

const runSlug = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

const longTitle = `Quarterly customer health, renewals, expansion and churn risk by district and owner ${"with every detail ".repeat(6)}`.trim();
const titled = `<!doctype html>
<title>${longTitle}</title>
<h1>${longTitle}</h1>`;

// Format refuses it, with a message naming the line.
const openScript = ["<!doctype html>", `<title>${longTitle}</title>`, "<h1>Hi</h1><script>const a = 1 +", "<p>after</p>"].join("\n");

// Six findings, each with a long hint.
const manyFindings = `<!doctype html>
<title>Findings</title>
<img src="https://cdn.example.com/logo.png" alt="">
<script>
  fetch("/api/me").then((r) => r.json());
  fetch("/api/accounts", { method: "POST", body: "{}" });
  localStorage.setItem("x", "1");
</script>`;

// The screen: the same error three times, and one refused request.
const threeErrorsOneRefusal = `<!doctype html>
<title>Counts</title>
<h1>Counts</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me", { method: "POST", body: "{}" }).catch(() => {});
  for (let i = 0; i < 3; i++) setTimeout(() => { const rows = null; rows.map((r) => r); }, 0);
</script>`;

/**
 * The toolbar's shown controls and texts: each box, and whether they all sit in one row (their
 * vertical middles within a few pixels of each other) inside the window's width.
 */
async function toolbarRow(page: Page) {
  return page.getByTestId("editor-toolbar").evaluate((bar) => {
    const shown = [...bar.querySelectorAll<HTMLElement>("button, select, input, a, [data-testid]")].filter((el) => {
      const r = el.getBoundingClientRect();
      return el.closest('[role="menu"], form') === null && r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== "hidden";
    });
    const middles = shown.map((el) => {
      const r = el.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    // Where a box is cut short (a name, a link in the save state), what shows ends at its clip.
    const shownRight = (el: HTMLElement) => {
      let right = el.getBoundingClientRect().right;
      for (let up = el.parentElement; up && up !== bar; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") right = Math.min(right, up.getBoundingClientRect().right);
      }
      return right;
    };
    const right = Math.max(...shown.map(shownRight));
    return {
      overflow: bar.scrollWidth - bar.clientWidth,
      height: bar.getBoundingClientRect().height,
      spread: Math.max(...middles) - Math.min(...middles),
      right,
      count: shown.length,
      controlHeights: [...new Set(shown.filter((el) => el.matches("button, select, input")).map((el) => Math.round(el.getBoundingClientRect().height)))],
    };
  });
}

async function expectOneRow(page: Page, width: number, what: string) {
  const row = await toolbarRow(page);
  expect(row.count, what).toBeGreaterThan(4);
  expect(row.height, what).toBeLessThanOrEqual(44);
  expect(row.spread, what).toBeLessThanOrEqual(4);
  expect(row.right, what).toBeLessThanOrEqual(width);
  expect(row.overflow, what).toBeLessThanOrEqual(0);
  // The buttons, selects and inputs of the row are of one height.
  expect(row.controlHeights, what).toHaveLength(1);
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the toolbar is one row with a long title, a long message, after Share, with a variant set and after Save", async ({ page }) => {
      test.setTimeout(60_000);
      await new SignInPage(page).open("/dashboards/playground");
      await new SignInPage(page).signInAs("member@demo.test");
      const editor = new PlaygroundEditorPage(page);
      await editor.codeMirrorTookOver();
      await expectOneRow(page, viewport.width, "as opened");

      await editor.replaceWith(titled);
      await expect(page.getByTestId("editor-name")).toHaveText(longTitle);
      await expectOneRow(page, viewport.width, "a long title");

      await editor.replaceWith(openScript);
      await editor.format();
      await expect(editor.toast()).toContainText("is never closed");
      await expectOneRow(page, viewport.width, "a long message");

      await editor.openDrawer();
      await editor.drawer().getByRole("combobox").first().waitFor();
      await editor.drawer().locator('[data-testid="variant-path"] select').first().selectOption({ index: 1 });
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("active-variant")).toBeVisible();
      await expectOneRow(page, viewport.width, "a variant set");

      await editor.share();
      await expect(editor.watchLink()).toBeVisible();
      await expectOneRow(page, viewport.width, "shared");

      await editor.saveButton().click();
      await editor.saveAddress().fill(runSlug("frame"));
      await editor.saveForm().getByRole("button", { name: "Save", exact: true }).click();
      await expect(editor.saveForm().getByRole("status")).toContainText("Saved revision 1");
      await editor.saveForm().getByRole("button", { name: "Close" }).click();
      await expect(editor.saveState()).toContainText("Saved revision 1");
      await expectOneRow(page, viewport.width, "saved");
      await editor.append("\n<p>more</p>");
      await expect(editor.saveState()).toContainText("Unsaved changes since revision 1");
      await expectOneRow(page, viewport.width, "unsaved");
    });
  });
}

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("a message is a toast that fades, while the polite live region keeps its words", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(openScript);
    await editor.format();
    const message = "Line 3: this <script> is never closed; Format leaves the document as it is.";
    await expect(editor.toast()).toHaveText(message);
    await expect(editor.toast()).toBeVisible();
    // The toast is for the eye; the live region is what is read out, once.
    await expect(editor.toast()).toHaveAttribute("aria-hidden", "true");
    await expect(editor.status()).toHaveAttribute("role", "status");
    await expect(editor.status()).toHaveAttribute("aria-live", "polite");
    await expect(editor.status()).toHaveText(message);
    await expect(editor.toast()).toBeHidden({ timeout: 15_000 });
    await expect(editor.status()).toHaveText(message);
    // The same words said again show again.
    await editor.format();
    await expect(editor.toast()).toHaveText(message);
  });

  test("More is a menu button: arrow keys move through its actions, Escape closes it and focus goes back", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    const more = editor.more();
    await expect(more).toHaveAttribute("aria-haspopup", "menu");
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await more.click();
    await expect(more).toHaveAttribute("aria-expanded", "true");
    await expect(editor.menuItem("Format")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(editor.menuItem("Shortcuts")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(editor.menuItem("Format")).toBeFocused();
    await page.keyboard.press("End");
    await expect(editor.menuItem("Shortcuts")).toBeFocused();
    await page.keyboard.press("Home");
    await expect(editor.menuItem("Format")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(editor.menu()).toBeHidden();
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await expect(more).toBeFocused();

    // From the keyboard alone: ArrowUp on the button opens at the last action, Enter takes it.
    await page.keyboard.press("ArrowUp");
    await expect(editor.menuItem("Shortcuts")).toBeFocused();
    await page.keyboard.press("Enter");
    const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(shortcuts).toBeVisible();
    await expect(editor.menu()).toBeHidden();
    await page.keyboard.press("Escape");
    await expect(more).toBeFocused();
    await more.click();
    await expectWcagAaClean(page);
    // A click elsewhere closes it, in the page or in the preview's frame.
    await editor.dock().click({ position: { x: 5, y: 5 } });
    await expect(editor.menu()).toBeHidden();
    await more.click();
    await editor.preview().locator("h1").click();
    await expect(editor.menu()).toBeHidden();
  });

  test("the dock shows three findings whole, resizes from the keyboard and never drops below its minimum", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(manyFindings);
    await expect(editor.warnings()).toHaveCount(6);
    const list = editor.findings();
    const whole = async (n: number) => {
      const box = (await list.boundingBox())!;
      const item = (await editor.warnings().nth(n).boundingBox())!;
      return item.y >= box.y - 0.5 && item.y + item.height <= box.y + box.height + 0.5;
    };
    for (const n of [0, 1, 2]) expect(await whole(n), `finding ${n + 1}`).toBe(true);

    const separator = editor.dockSplitter();
    await expect(separator).toHaveAttribute("aria-orientation", "horizontal");
    const start = Number(await separator.getAttribute("aria-valuenow"));
    const dockHeight = async () => (await editor.dock().boundingBox())!.height;
    await separator.focus();
    await page.keyboard.press("ArrowUp");
    await expect(separator).toHaveAttribute("aria-valuenow", String(start + 16));
    await expect.poll(dockHeight).toBeCloseTo(start + 16, 0);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(separator).toHaveAttribute("aria-valuenow", String(start - 16));

    // Home is the minimum: the first finding still reads whole.
    await page.keyboard.press("Home");
    const min = Number(await separator.getAttribute("aria-valuemin"));
    expect(min).toBeGreaterThanOrEqual(120);
    await expect(separator).toHaveAttribute("aria-valuenow", String(min));
    await expect.poll(dockHeight).toBeGreaterThanOrEqual(min - 1);
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowDown");
    await expect(separator).toHaveAttribute("aria-valuenow", String(min));
    expect(await whole(0), "the first finding at the minimum").toBe(true);

    // End is the most the panes above allow: the editor and the preview keep room.
    await page.keyboard.press("End");
    await expect.poll(async () => (await editor.previewStage().boundingBox())!.height).toBeGreaterThanOrEqual(150);
    await expect.poll(async () => (await editor.editorBox().boundingBox())!.height).toBeGreaterThanOrEqual(150);

    // The height is the author's: a reload keeps it.
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowUp");
    await page.reload();
    await expect(editor.dockSplitter()).toHaveAttribute("aria-valuenow", String(min + 16));
    await expectWcagAaClean(page);
  });

  test("three identical errors and a refused request: every count of the console says the same", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(threeErrorsOneRefusal);
    const console_ = editor.console();
    await expect(console_.getByTestId("render-report")).toContainText("3 errors · 1 refused request");
    await expect(console_.getByRole("tab", { name: /^Console/ })).toHaveText("Console 4 problems");
    await expect(console_.getByTestId("console-filter-all")).toHaveText("All 4");
    await expect(console_.getByTestId("console-filter-error")).toHaveText("Errors 3");
    await expect(console_.getByTestId("console-filter-refused")).toHaveText("Refused 1");
    await expect(console_.getByTestId("render-error")).toHaveCount(1);
    await expect(console_.getByTestId("render-error")).toContainText("(×3)");
    await expect(console_.getByTestId("render-refusal")).toHaveCount(1);
    await expect(console_.getByTestId("render-refusal")).not.toContainText("(×");

    // Each filter shows what it counts.
    await console_.getByTestId("console-filter-refused").click();
    await expect(console_.getByTestId("render-error")).toHaveCount(0);
    await expect(console_.getByTestId("render-refusal")).toHaveCount(1);
    await console_.getByTestId("console-filter-error").click();
    await expect(console_.getByTestId("render-error")).toHaveCount(1);
    await expect(console_.getByTestId("render-refusal")).toHaveCount(0);

    // One of a kind is singular, on every panel of the screen.
    await editor.replaceWith(threeErrorsOneRefusal.replace("i < 3", "i < 1").replace("{ method: \"POST\", body: \"{}\" }", "{}"));
    await expect(console_.getByTestId("render-report")).toContainText("1 error ·");
    await expect(console_.getByRole("tab", { name: /^Console/ })).toHaveText("Console 1 problem");
    await expect(page.getByRole("main")).not.toContainText(/\b1 (errors|problems|warnings|notes|requests)\b/);
  });
});

test.describe("at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the preview takes at least 60 % of the screen, the empty console a bar that opens on demand", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.showPane("Preview");
    await expect(editor.preview().locator("h1")).toHaveText("CX book");
    await expect.poll(async () => (await editor.previewStage().boundingBox())!.height).toBeGreaterThanOrEqual(0.6 * 844);
    const toggle = editor.console().getByRole("button", { name: "Show console" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(editor.console().getByTestId("console-filter-all")).toBeHidden();
    await expectWcagAaClean(page);

    await toggle.click();
    await expect(editor.console().getByRole("button", { name: "Hide console" })).toHaveAttribute("aria-expanded", "true");
    await expect(editor.console().getByTestId("console-filter-all")).toBeVisible();
    const consoleBox = (await editor.console().boundingBox())!;
    expect(consoleBox.y + consoleBox.height).toBeLessThanOrEqual(844 + 0.5);
    await expectWcagAaClean(page);
  });
});
