import { PlaygroundEditorPage, type SharedDraft } from "./editor-page";

// The playground editor as its durable-draft journeys use it: the source, sharing, a draft's
// own address, the notices about kept edits and read-only drafts, and saving.

export { DRAFT_ADDRESS, type SharedDraft } from "./editor-page";

/** The editor with what a draft's own address adds: the read-only notice, Fork, restored edits. */
export class PlaygroundPage extends PlaygroundEditorPage {
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
