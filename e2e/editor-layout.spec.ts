import { expect, test } from "@playwright/test";
import { PlaygroundEditorPage } from "./support/editor-page";
import { SignInPage } from "./support/pages";

// The editor as a tool that uses the window: the source starts near the top and takes a good
// share of the width on a laptop, the page never scrolls sideways on a phone, the matrix shows in
// the preview's place, runtime errors and findings lead to their line, Ctrl/Cmd+S keeps the work,
// and the preview says it is rendering until its first render is ready.

const throwing = `<!doctype html>
<title>Throws</title>
<h1 id="who">…</h1>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("who").textContent = me.email; });
  const rows = null;
  rows.map((r) => r);
  // the end
</script>`;

// Settles cleanly; its button throws only when pressed, long after the render report.
const throwsOnClick = `<!doctype html>
<title>Throws later</title>
<h1>Throws later</h1>
<button id="go" type="button">Go</button>
<script>
  document.getElementById("go").addEventListener("click", () => {
    const missing = null;
    missing.open();
  });
</script>`;

const chatty = `<!doctype html>
<title>Chatty</title>
<h1>Chatty</h1>
<button id="log" type="button">Log</button>
<script>
  let clicks = 0;
  document.getElementById("log").addEventListener("click", () => console.log("clicked", ++clicks));
  console.log("loaded %d rows from %s", 3, "/me");
  console.info({ name: "Maple", tags: ["k12", "west"], nested: { deep: { deeper: 1 } } });
  for (let i = 0; i < 3; i++) console.warn("slow answer");
  console.debug("details");
  console.table([{ name: "Maple", arr: 10 }, { name: "Cedar", arr: 20 }]);
  console.error("could not draw");
</script>`;

const hardcoded = `<!doctype html>
<h1>Me</h1>
<script>
  fetch("/api/me").then((r) => r.json());
</script>
<p>after</p>`;

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the editor's first line is near the top, the editor takes at least 45 % of the width, and the splitter resizes it", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    const line = await editor.firstLine().boundingBox();
    expect(line).not.toBeNull();
    expect(line!.y + line!.height).toBeLessThanOrEqual(160);
    const box = await editor.editorBox().boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(0.45 * 1440);

    const splitter = editor.splitter();
    const before = Number(await splitter.getAttribute("aria-valuenow"));
    await splitter.focus();
    await page.keyboard.press("ArrowRight");
    await expect(splitter).toHaveAttribute("aria-valuenow", String(before + 2));
    await expect.poll(async () => (await editor.editorBox().boundingBox())!.width).toBeGreaterThan(box!.width);
    await page.keyboard.press("Home");
    await expect(splitter).toHaveAttribute("aria-valuenow", await splitter.getAttribute("aria-valuemin") ?? "");

    // Dragged with the pointer, even across the preview's frame: 864 px of 1440 is 60 %.
    const handle = (await splitter.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(864, handle.y + handle.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(splitter).toHaveAttribute("aria-valuenow", "60");

    // The split is the author's workspace: a reload opens it as it was left.
    await page.reload();
    await expect(editor.splitter()).toHaveAttribute("aria-valuenow", "60");
    await expect.poll(async () => (await editor.editorBox().boundingBox())!.width).toBeGreaterThan(0.58 * 1440);
  });

  test("the state matrix takes the preview's place, in view, each cell a desktop-wide render scaled down", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.showMatrix();
    await expect(editor.matrix()).toBeInViewport();
    await expect(editor.cell("rich")).toBeInViewport({ ratio: 1 });
    await expect(editor.cellFrame("rich").locator("#summary")).toContainText("counted once per district");
    const frame = editor.cell("rich").locator("iframe");
    expect(await frame.evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(1280);
    const shown = await frame.boundingBox();
    expect(shown!.width).toBeLessThan(720);
    // Scaled, not cropped: the whole desktop-wide render fits in the cell.
    const cell = await editor.cell("rich").boundingBox();
    expect(shown!.x + shown!.width).toBeLessThanOrEqual(cell!.x + cell!.width + 1);
  });

  test("a dashboard that throws shows the error with its line in the console, and the line is one click away", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(throwing);
    await expect(editor.preview().locator("#who")).toHaveText(/@demo\.test$/);
    const error = editor.consoleError("Cannot read properties of null");
    await expect(error).toContainText("line 8:");
    await expect(editor.cursorLine()).toHaveText("10");

    await error.getByRole("button", { name: /^line 8:/ }).click();
    await expect(editor.cursorLine()).toHaveText("8");
    await expect(editor.source()).toBeFocused();

    await editor.showRequests();
    await expect(editor.consoleRequests().filter({ hasText: "/me" }).first()).toContainText("200");
  });

  test("an error thrown after the dashboard settled still reaches the console, with its line", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(throwsOnClick);
    await expect(editor.console().getByTestId("render-report")).toContainText("no errors");
    await expect(editor.console().getByTestId("console-empty")).toHaveText("Nothing logged.");
    await editor.preview().getByRole("button", { name: "Go" }).click();
    const later = editor.consoleError("Cannot read properties of null");
    await expect(later).toContainText("Cannot read properties of null");
    await later.getByRole("button", { name: /^line 8:/ }).click();
    await expect(editor.cursorLine()).toHaveText("8");
    // An edit starts the dashboard over, and its log with it.
    await editor.replaceWith(throwsOnClick.replaceAll("Throws later", "Throws later, again"));
    await expect(editor.preview().locator("h1")).toHaveText("Throws later, again");
    await expect(editor.console().getByTestId("render-report")).toContainText("no errors");
    await expect(later).toHaveCount(0);
  });

  test("the console shows every level, readably, counts repeats, filters by level and clears", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(chatty);
    const entries = editor.console().getByTestId("console-entry");
    await expect(entries).toHaveText([
      "log loaded 3 rows from /me",
      'info {name: "Maple", tags: ["k12", "west"], nested: {deep: {…}}}',
      "warn slow answer (×3)",
      "debug details",
      // A table is text, one row a line.
      'log (index) | name | arr 0 | "Maple" | 10 1 | "Cedar" | 20',
      "error could not draw",
    ]);
    await expect(editor.console().getByTestId("console-filter-all")).toHaveText("All 8");
    // A line logged from a click handler, after the render settled, arrives too.
    await editor.preview().getByRole("button", { name: "Log" }).click();
    await expect(entries.last()).toHaveText("log clicked 1");

    await editor.console().getByTestId("console-filter-warn").click();
    await expect(editor.console().getByTestId("console-filter-warn")).toHaveAttribute("aria-pressed", "true");
    await expect(entries).toHaveText(["warn slow answer (×3)"]);
    await editor.console().getByTestId("console-filter-all").click();
    await editor.console().getByRole("button", { name: "Clear" }).click();
    await expect(entries).toHaveCount(0);
    await editor.preview().getByRole("button", { name: "Log" }).click();
    await expect(entries).toHaveText(["log clicked 2"]);
  });

  test("clicking a finding puts the cursor on its line", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith(hardcoded);
    const finding = editor.findingLine("hardcoded-api-base");
    await expect(finding).toHaveText(/^line 4:/);
    await expect(editor.cursorLine()).toHaveText("6");
    await finding.click();
    await expect(editor.cursorLine()).toHaveText("4");
    await expect(editor.source()).toBeFocused();
  });

  test("Ctrl/Cmd+S shares the draft when signed out, instead of the browser's save", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await expect(editor.revision()).toHaveText("not shared");
    // The page takes the key in the capture phase; a listener in the bubble phase sees whether it did.
    await page.evaluate(() =>
      window.addEventListener("keydown", (e) => {
        if (e.key.toLowerCase() === "s") Object.assign(window, { __savePrevented: e.defaultPrevented });
      }),
    );
    const created = page.waitForResponse((r) => r.url().endsWith("/dashboards/playground/draft") && r.request().method() === "POST");
    await editor.source().click();
    await page.keyboard.press("ControlOrMeta+s");
    expect((await created).status()).toBe(201);
    await expect(editor.revision()).toHaveText("1");
    await expect(editor.watchLink()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __savePrevented?: boolean }).__savePrevented)).toBe(true);
  });

  test("Ctrl/Cmd+S opens the save form when signed in, its title and address ready to confirm, and Escape closes it", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.open("/dashboards/playground");
    await signIn.signInAs("csm@demo.test");
    const editor = new PlaygroundEditorPage(page);
    await expect(editor.source()).toBeVisible();
    // The preview running means the page is interactive.
    await expect(editor.preview().locator("h1")).toHaveText("CX book");
    await editor.source().click();
    await page.keyboard.press("ControlOrMeta+s");
    await expect(editor.saveTitle()).toBeFocused();
    await expect(editor.saveTitle()).toHaveValue("CX book");
    await expect(editor.saveAddress()).toHaveValue("cx-book");
    // Saving is the signed-in person's way to keep the work: nothing was shared.
    await expect(editor.revision()).toHaveText("not shared");

    await page.keyboard.press("Escape");
    await expect(editor.saveForm()).toHaveCount(0);
    await expect(editor.saveButton()).toBeFocused();
  });

  test("the source takes keystrokes as soon as the page is drawn, and keeps them when the editor takes over", async ({ page }) => {
    // The page's script is held back, so the keystrokes land before anything of it runs.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Scripts only: a held stylesheet would hold the first paint back too.
    await page.route((url) => url.pathname.startsWith("/_next/static/chunks/") && url.pathname.endsWith(".js"), async (route) => {
      await held;
      await route.continue();
    });
    // The page's load event waits for the held scripts: the test goes on once the document arrives.
    await page.goto("/dashboards/playground", { waitUntil: "commit" });
    const early = page.getByRole("textbox", { name: "Dashboard HTML" });
    await expect(early).toHaveJSProperty("tagName", "TEXTAREA");
    await early.click();
    await page.keyboard.press("ControlOrMeta+Home");
    await page.keyboard.type("<!-- typed early -->");
    release();
    const editor = new PlaygroundEditorPage(page);
    await editor.codeMirrorTookOver();
    // The cursor stayed where the typing left it, in CodeMirror now.
    await page.keyboard.type("!");
    await page.keyboard.press("ControlOrMeta+Home");
    await expect(editor.firstLine()).toHaveText("<!-- typed early -->!<!doctype html>");
    await expect(page.getByTestId("early-source")).toHaveCount(0);
    await expect(editor.preview().locator("h1")).toHaveText("CX book");
  });

  test("the preview says it is rendering until the first render is ready", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    // The dashboard's reads are held, so the first render cannot be ready before they are let go.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/dashboards/playground/api/**", async (route) => {
      await held;
      await route.continue();
    });
    await editor.open();
    await expect(editor.renderingSign()).toBeVisible();
    await expect(editor.previewStage()).toHaveAttribute("aria-busy", "true");

    release();
    await expect(editor.preview().locator("#summary")).toContainText("counted once per district");
    await expect(editor.renderingSign()).toHaveCount(0);
    await expect(editor.previewStage()).toHaveAttribute("aria-busy", "false");
  });

  test("Format re-indents the HTML, and Tab indents inside the editor while Escape then Tab leaves it", async ({ page }) => {
    const editor = new PlaygroundEditorPage(page);
    await editor.open();
    await editor.replaceWith("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    await editor.format();
    await expect(editor.source().locator(".cm-line").nth(1)).toHaveText("  <li>one</li>");
    await expect(editor.preview().locator("li").first()).toHaveText("one");

    // Tab indents the line the cursor is on; it does not move focus.
    const second = editor.source().locator(".cm-line").nth(2);
    await second.click();
    await page.keyboard.press("Tab");
    await expect(second).toHaveText("    <li>two</li>");
    await expect(editor.source()).toBeFocused();

    // While the editor has focus, the page says how to leave it.
    const hint = page.getByTestId("editor-keys");
    await expect(hint).toBeVisible();
    await expect(hint).toContainText("To leave the editor, press Esc, then Tab.");
    await expect(editor.source()).toHaveAttribute("aria-describedby", "editor-keys");

    // Escape then Tab leaves the editor, and leaves the text alone: the next stop is the list of shortcuts.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    await expect(editor.source()).not.toBeFocused();
    const all = page.getByRole("button", { name: "All shortcuts" });
    await expect(all).toBeFocused();
    await expect(second).toHaveText("    <li>two</li>");
    await page.keyboard.press("Enter");
    const shortcuts = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(shortcuts).toBeVisible();
    await expect(shortcuts).toContainText("Esc, then Tab");
    await expect(shortcuts.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(shortcuts).toBeHidden();
    await expect(all).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(editor.splitter()).toBeFocused();

    // "?" outside a text field opens the list too; typed in the editor it is a character.
    await page.keyboard.press("?");
    await expect(shortcuts).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(editor.splitter()).toBeFocused();
    await second.click();
    await page.keyboard.press("?");
    await expect(shortcuts).toBeHidden();
    await expect(second).toHaveText(/\?/);
  });
});

test.describe("at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("one row of controls, the source filling the screen, the preview one tap away, and every panel on screen", async ({ page }) => {
    // Signed in, so Save is there too; nothing is saved.
    await new SignInPage(page).open("/dashboards/playground");
    await new SignInPage(page).signInAs("member@demo.test");
    const editor = new PlaygroundEditorPage(page);
    // The source is a plain text area until it is touched: a visit that only reads or previews
    // never builds CodeMirror.
    const early = page.getByTestId("early-source");
    await expect(early).toBeVisible();
    await expect(early).toHaveValue(/<h1 id="title">CX book<\/h1>/);
    await page.waitForLoadState("networkidle");
    await expect(page.locator(".cm-editor")).toHaveCount(0);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const inView = async (box: { x: number; y: number; width: number; height: number } | null, what: string) => {
      expect(box, what).not.toBeNull();
      expect(box!.x, what).toBeGreaterThanOrEqual(0);
      expect(box!.y, what).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, what).toBeLessThanOrEqual(390 + 0.5);
      expect(box!.y + box!.height, what).toBeLessThanOrEqual(844 + 0.5);
    };

    // One row of controls; the source fills what is left of the screen, the preview waits behind its tab.
    const toolbar = await page.getByTestId("editor-toolbar").boundingBox();
    expect(toolbar!.height).toBeLessThanOrEqual(48);
    await inView(await editor.editorBox().boundingBox(), "the source");
    expect((await editor.editorBox().boundingBox())!.height).toBeGreaterThan(300);
    await expect(editor.previewStage()).toBeHidden();
    expect(await sideways()).toBeLessThanOrEqual(0);

    // A tap builds the editor; what is typed at once lands, and the editor has the focus.
    await early.click();
    await page.keyboard.type("<!-- tapped -->");
    await editor.codeMirrorTookOver();
    await expect(page.locator(".cm-content")).toBeFocused();
    await expect(page.locator(".cm-content")).toContainText("<!-- tapped -->");
    await expect(early).toHaveCount(0);
    await inView(await editor.editorBox().boundingBox(), "the source");

    await page.getByRole("radio", { name: "Preview" }).check();
    await expect(editor.previewStage()).toBeVisible();
    await expect(editor.source()).toBeHidden();
    await inView(await editor.previewStage().boundingBox(), "the preview");
    await expect(editor.preview().locator("h1")).toHaveText("CX book");
    await inView(await editor.console().boundingBox(), "the console");

    // The other actions are in the More menu, each on screen; Escape closes the menu and focus goes back.
    await editor.more().click();
    await expect(editor.more()).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Examples & data", "Format", "Shortcuts"]) {
      await expect(editor.menuItem(name)).toBeVisible();
      await inView(await editor.menuItem(name).boundingBox(), name);
    }
    await page.keyboard.press("Escape");
    await expect(editor.menu()).toBeHidden();
    await expect(editor.more()).toBeFocused();
    // The preview's data is chosen in the drawer, opened from the menu.
    await editor.openDrawer();
    for (const control of [page.getByRole("combobox", { name: /^Data/ }), page.getByRole("combobox", { name: "Scenario" })]) {
      await expect(control).toBeVisible();
      await inView(await control.boundingBox(), String(control));
    }
    await page.keyboard.press("Escape");
    await expect(editor.more()).toBeFocused();

    // Save opens across the screen, its button one tap away.
    await page.getByRole("button", { name: "Save to my space" }).click();
    const save = editor.saveForm().getByRole("button", { name: "Save", exact: true });
    await inView(await editor.saveForm().boundingBox(), "the save form");
    await inView(await save.boundingBox(), "Save");
    await save.click({ trial: true });
    await page.keyboard.press("Escape");

    // The drawer, from the menu, fits the screen; closing it hands focus back to More.
    await editor.openDrawer();
    await inView(await editor.drawer().boundingBox(), "the drawer");
    expect(await sideways()).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "More" })).toBeFocused();

    await editor.showMatrix();
    await expect(editor.cellFrame("rich").locator("#summary")).toContainText("counted once per district");
    expect(await sideways()).toBeLessThanOrEqual(0);
  });
});
