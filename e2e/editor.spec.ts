import { expect, test, type Page } from "@playwright/test";

// A person writes a dashboard in the playground editor: the preview follows the text, the
// static check's findings show beside it, and once shared every edit reaches watchers.

class EditorPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/dashboards/playground");
    await expect(this.source()).toBeVisible();
  }

  source() {
    return this.page.getByRole("textbox", { name: "Dashboard HTML" });
  }

  /** Replaces the whole document, as a paste would. */
  async replaceWith(html: string): Promise<void> {
    await this.source().click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.insertText(html);
  }

  preview() {
    return this.page.frameLocator('iframe[title="Dashboard preview"]');
  }

  warnings() {
    return this.page.getByTestId("warning");
  }

  noWarnings() {
    return this.page.getByTestId("no-warnings");
  }

  async share(): Promise<{ postUrl: string; watchUrl: string }> {
    const created = this.page.waitForResponse((r) => r.url().endsWith("/dashboards/playground/draft") && r.request().method() === "POST");
    await this.page.getByRole("button", { name: "Share" }).click();
    return (await (await created).json()) as { postUrl: string; watchUrl: string };
  }

  watchLink() {
    return this.page.getByRole("textbox", { name: "Watch link" });
  }

  revision() {
    return this.page.getByTestId("editor-revision");
  }

}

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

test("a known bad pattern shows up as a finding with its position and hint", async ({ page }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(`<!doctype html>\n<h1>Me</h1>\n<script>\n  fetch("/api/me").then((r) => r.json());\n</script>`);
  const finding = editor.warnings().filter({ has: page.locator('code:text-is("hardcoded-api-base")') });
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText("4:");
  await expect(finding).toContainText("Hint:");
  await expect(page.locator(".cm-lintRange").first()).toBeVisible();
});

test("sharing gives a watch link, and a watcher follows each edit", async ({ page, browser }) => {
  const editor = new EditorPage(page);
  await editor.open();
  await editor.replaceWith(doc("Shared first"));
  await expect(editor.preview().locator("#label")).toHaveText("Shared first");
  const before = page.url();

  const created = await editor.share();
  await expect(editor.watchLink()).toHaveValue(created.watchUrl);
  await expect(editor.revision()).toHaveText("1");
  await expect(page.getByTestId("editor-status")).toContainText("Shared");
  // The write token stays in memory: not in the address, not on the page.
  const token = new URL(created.postUrl).pathname.split("/").pop() ?? "";
  expect(token.length).toBeGreaterThan(10);
  expect(page.url()).toBe(before);
  expect(await page.content()).not.toContain(token);

  const watcherContext = await browser.newContext();
  try {
    const watcher = await watcherContext.newPage();
    await watcher.goto(new URL(created.watchUrl).pathname);
    const watched = watcher.frameLocator('[data-testid="dashboard-frame"]');
    await expect(watched.locator("#label")).toHaveText("Shared first");
    await expect(watcher.getByTestId("connection-state")).toHaveText("live");

    await editor.replaceWith(doc("Edited after sharing"));
    await expect(editor.revision()).toHaveText("2");
    const pushedAt = Date.now();
    await expect(watched.locator("#label")).toHaveText("Edited after sharing", { timeout: 1_000 });
    expect(Date.now() - pushedAt).toBeLessThan(1_000);
    expect(page.url()).toBe(before);
  } finally {
    await watcherContext.close();
  }
});
