import { expect, type Locator, type Page } from "@playwright/test";

// The playground editor as a person uses it: toolbar, source, preview, console and drawer.

/** What Share or Fork created. */
export interface SharedDraft {
  id: string;
  postUrl: string;
  watchUrl: string;
}

/** A draft's own address in the editor. */
export const DRAFT_ADDRESS = /\/dashboards\/playground\/d\/([A-Za-z0-9_-]{16,128})$/;

export class PlaygroundEditorPage {
  constructor(protected readonly page: Page) {}

  async open(path = "/dashboards/playground"): Promise<void> {
    await this.page.goto(path);
    // The page is drawn with a plain text area that takes keystrokes at once; CodeMirror
    // replaces it once the page's script runs, and the tests use what CodeMirror adds. In the
    // phone layout it waits for the source to be touched, so a phone visit sees the text area.
    if ((this.page.viewportSize()?.width ?? Infinity) <= 640) await expect(this.page.getByTestId("early-source")).toBeVisible();
    else await this.codeMirrorTookOver();
  }

  /**
   * CodeMirror is a chunk of its own, fetched and parsed after the page hydrates: with three
   * browsers and the request flood sharing two cores that has taken longer than five seconds.
   */
  async codeMirrorTookOver(): Promise<void> {
    await expect(this.page.locator(".cm-content")).toBeVisible({ timeout: 15_000 });
  }

  source() {
    return this.page.getByRole("textbox", { name: "Dashboard HTML" });
  }

  /** The editor's box: gutter and text. */
  editorBox() {
    return this.page.getByTestId("code-editor");
  }

  firstLine() {
    return this.source().locator(".cm-line").first();
  }

  /** The line number the cursor is on, as the line-number gutter marks it. */
  cursorLine() {
    return this.page.locator(".cm-lineNumbers .cm-activeLineGutter");
  }

  /** Replaces the whole document, as a paste would. */
  async replaceWith(html: string): Promise<void> {
    await this.source().click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.insertText(html);
  }

  /** Types at the end of the document. */
  async append(text: string): Promise<void> {
    await this.source().click();
    await this.page.keyboard.press("ControlOrMeta+End");
    await this.page.keyboard.insertText(text);
  }

  preview() {
    return this.page.frameLocator('iframe[title="Dashboard preview"]');
  }

  warnings() {
    return this.page.getByTestId("warning");
  }

  /** The polite live region that keeps the latest message (visually hidden). */
  status() {
    return this.page.getByTestId("editor-status");
  }

  /** The latest message on screen, until it fades. */
  toast() {
    return this.page.getByTestId("editor-toast");
  }

  toolbar() {
    return this.page.getByTestId("editor-toolbar");
  }

  /** The toolbar's More button, which opens its menu of secondary actions. */
  more() {
    return this.page.getByRole("button", { name: "More", exact: true });
  }

  menu() {
    return this.page.getByRole("menu", { name: "More actions" });
  }

  menuItem(name: string) {
    return this.menu().getByRole("menuitem", { name, exact: true });
  }

  /** Runs an action of the More menu. */
  async fromMenu(name: string): Promise<void> {
    if (!(await this.menu().isVisible())) await this.more().click();
    await this.menuItem(name).click();
  }

  /** The separator above the dock of the check and the console. */
  dockSplitter() {
    return this.page.getByRole("separator", { name: "Resize the check and the console" });
  }

  dock() {
    return this.page.getByTestId("editor-dock");
  }

  /** The list of the check's findings. */
  findings() {
    return this.page.getByTestId("warnings");
  }

  dataMode() {
    return this.page.getByRole("combobox", { name: /^Data/ });
  }

  /** Presses Share and answers what the playground created. */
  async share(): Promise<SharedDraft> {
    const created = this.page.waitForResponse((r) => new URL(r.url()).pathname === "/dashboards/playground/draft" && r.request().method() === "POST");
    await this.page.getByRole("button", { name: "Share", exact: true }).click();
    return (await (await created).json()) as SharedDraft;
  }

  example(id: string) {
    return this.page.getByTestId(`example-${id}`);
  }

  exampleNotice() {
    return this.page.getByTestId("example-notice");
  }

  previewStage() {
    return this.page.getByTestId("preview-stage");
  }

  renderingSign() {
    return this.page.getByRole("status").filter({ hasText: "Rendering preview…" });
  }

  splitter() {
    return this.page.getByRole("separator", { name: "Resize the editor and the preview" });
  }

  noWarnings() {
    return this.page.getByTestId("no-warnings");
  }

  findingLine(rule: string) {
    return this.page.getByTestId("warning").filter({ has: this.page.locator(`code:text-is("${rule}")`) }).getByRole("button");
  }

  console() {
    return this.page.getByRole("region", { name: "Console" });
  }

  consoleError(text: string) {
    return this.console().getByTestId("render-error").filter({ hasText: text });
  }

  async showRequests(): Promise<void> {
    await this.console().getByRole("tab", { name: /Requests/ }).click();
  }

  consoleRequests() {
    return this.console().getByTestId("console-request");
  }

  /** Opens the drawer: from the toolbar's row, or on a phone from the More menu. */
  async openDrawer(): Promise<void> {
    const inRow = this.page.getByRole("button", { name: "Examples & data" });
    if (await inRow.isVisible()) await inRow.click();
    else await this.fromMenu("Examples & data");
    await expect(this.drawer()).toBeVisible();
  }

  /** On a phone the preview's data is chosen in the drawer: opens it when `control` is not on screen. */
  async reveal(control: Locator): Promise<void> {
    if (await control.isVisible()) return;
    await this.openDrawer();
    await expect(control).toBeVisible();
  }

  /** On a phone the source and the preview take turns: shows `pane` when its tab is there. */
  async showPane(pane: "Code" | "Preview"): Promise<void> {
    const tab = this.page.getByRole("radio", { name: pane, exact: true });
    if (await tab.isVisible()) await tab.check();
  }

  drawer() {
    return this.page.getByRole("complementary", { name: "Examples and data" });
  }

  async format(): Promise<void> {
    await this.fromMenu("Format");
  }

  saveForm() {
    return this.page.getByRole("form", { name: "Save to my space" });
  }

  saveButton() {
    return this.page.getByRole("button", { name: "Save to my space" });
  }

  saveTitle() {
    return this.saveForm().getByRole("textbox", { name: "Title" });
  }

  saveAddress() {
    return this.saveForm().getByRole("textbox", { name: "Address" });
  }

  /** Beside Save once something is in the person's space: whether the source is still that revision. */
  saveState() {
    return this.page.getByTestId("save-state");
  }

  /** Ctrl/Cmd+S, from wherever focus is. */
  async pressSave(): Promise<void> {
    await this.page.keyboard.press("ControlOrMeta+s");
  }

  watchLink() {
    return this.page.getByRole("textbox", { name: "Watch link" });
  }

  revision() {
    return this.page.getByTestId("editor-revision");
  }

  async showMatrix(): Promise<void> {
    await this.showPane("Preview");
    await this.page.getByRole("radio", { name: "State matrix" }).check();
    await expect(this.matrix()).toBeVisible();
  }

  matrix() {
    return this.page.getByTestId("state-matrix");
  }

  cell(state: string) {
    return this.page.locator(`[data-testid="matrix-cell"][data-state="${state}"]`);
  }

  cellFrame(state: string) {
    return this.page.frameLocator(`[data-testid="matrix-cell"][data-state="${state}"] iframe`);
  }

  /** A matrix cell's dashboard, scrolled into view first, since cells render when first seen. */
  async seenCellFrame(state: string) {
    await this.cell(state).scrollIntoViewIfNeeded();
    return this.cellFrame(state);
  }
}
