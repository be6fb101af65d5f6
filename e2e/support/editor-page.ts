import { expect, type Page } from "@playwright/test";

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
    await expect(this.source()).toBeVisible();
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

  status() {
    return this.page.getByTestId("editor-status");
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

  async openDrawer(): Promise<void> {
    await this.page.getByRole("button", { name: "Examples & data" }).click();
    await expect(this.drawer()).toBeVisible();
  }

  drawer() {
    return this.page.getByRole("complementary", { name: "Examples and data" });
  }

  async format(): Promise<void> {
    await this.page.getByRole("button", { name: "Format", exact: true }).click();
  }

  saveForm() {
    return this.page.getByRole("form", { name: "Save to my space" });
  }

  saveButton() {
    return this.page.getByRole("button", { name: "Save to my space" });
  }

  watchLink() {
    return this.page.getByRole("textbox", { name: "Watch link" });
  }

  revision() {
    return this.page.getByTestId("editor-revision");
  }

  async showMatrix(): Promise<void> {
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
