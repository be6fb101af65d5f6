import type { Page } from "@playwright/test";

// Page objects for people's spaces and saved dashboards.

export class SpacePage {
  constructor(private readonly page: Page) {}

  async open(handle: string): Promise<void> {
    await this.page.goto(`/~/${handle}`);
  }

  heading() {
    return this.page.getByRole("heading", { level: 1 });
  }

  entries() {
    return this.page.getByTestId("space-list").getByRole("listitem");
  }
}

export class SavedDashboardPage {
  constructor(private readonly page: Page) {}

  async open(path: string): Promise<void> {
    await this.page.goto(path);
  }

  heading() {
    return this.page.getByRole("heading", { level: 1 });
  }

  meta() {
    return this.page.getByTestId("saved-meta");
  }

  revision() {
    return this.page.getByTestId("saved-revision");
  }

  dashboard() {
    return this.page.frameLocator('[data-testid="dashboard-frame"]');
  }

  /** Someone else's dashboard as the site drew it on the viewer's data (no script ran here). */
  safeView() {
    return this.page.getByTestId("safe-view");
  }

  drawn() {
    return this.page.frameLocator('[data-testid="safe-view-frame"]');
  }

  /** The safe view's "Download picture" link, there once a drawing is shown. */
  downloadPicture() {
    return this.page.getByTestId("download-picture");
  }

  /** From the safe view to today's interactive view: the consent gate, for someone else's code. */
  async makeInteractive(): Promise<void> {
    await this.page.getByTestId("make-interactive").click();
  }

  action(name: string | RegExp) {
    return this.page.getByRole("group", { name: "Dashboard actions" }).getByRole("button", { name });
  }

  async openHistory(): Promise<void> {
    await this.page.getByTestId("history").locator("summary").click();
  }

  historyEntries() {
    return this.page.getByTestId("history-entry");
  }
}
