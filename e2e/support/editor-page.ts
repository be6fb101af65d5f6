import { expect, type Page } from "@playwright/test";

// The playground editor as a person uses it: toolbar, source, preview, console and drawer.

export class PlaygroundEditorPage {
  constructor(private readonly page: Page) {}

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

  preview() {
    return this.page.frameLocator('iframe[title="Dashboard preview"]');
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
}
