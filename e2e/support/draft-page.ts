import { expect, type Page } from "@playwright/test";

// The playground editor as its durable-draft journeys use it: the source, sharing, a draft's
// own address, the notices about kept edits and read-only drafts, and saving.

export interface SharedDraft {
  id: string;
  postUrl: string;
  watchUrl: string;
}

export const DRAFT_ADDRESS = /\/dashboards\/playground\/d\/([A-Za-z0-9_-]{16,128})$/;

export class PlaygroundPage {
  constructor(private readonly page: Page) {}

  async open(path = "/dashboards/playground"): Promise<void> {
    await this.page.goto(path);
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

  /** Types at the end of the document. */
  async append(text: string): Promise<void> {
    await this.source().click();
    await this.page.keyboard.press("ControlOrMeta+End");
    await this.page.keyboard.insertText(text);
  }

  preview() {
    return this.page.frameLocator('iframe[title="Dashboard preview"]');
  }

  revision() {
    return this.page.getByTestId("editor-revision");
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

  readOnlyNotice() {
    return this.page.getByTestId("read-only-notice");
  }

  async fork(): Promise<SharedDraft> {
    const created = this.page.waitForResponse((r) => new URL(r.url()).pathname === "/dashboards/playground/draft" && r.request().method() === "POST");
    await this.readOnlyNotice().getByRole("button", { name: "Fork" }).click();
    return (await (await created).json()) as SharedDraft;
  }

  restoredNotice() {
    return this.page.getByTestId("restored-notice");
  }

  async discardRestored(): Promise<void> {
    await this.restoredNotice().getByRole("button", { name: "Discard them" }).click();
  }

  async openSaveForm() {
    await this.page.getByRole("button", { name: "Save to my space" }).click();
    return this.page.getByRole("form", { name: "Save to my space" });
  }
}
