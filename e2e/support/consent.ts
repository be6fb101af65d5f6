import type { Page } from "@playwright/test";

// The question a viewer is asked before someone else's dashboard reads their live data.

export class ConsentGatePage {
  constructor(private readonly page: Page) {}

  gate() {
    return this.page.getByTestId("consent-gate");
  }

  paths() {
    return this.page.getByTestId("consent-paths").getByRole("listitem");
  }

  choice(name: string | RegExp) {
    return this.gate().getByRole("group", { name: "Your choice" }).getByRole("button", { name });
  }

  async runWithMyData(): Promise<void> {
    await this.choice("Run with my data").click();
  }

  async showWithDemoData(): Promise<void> {
    await this.choice("Show with demo data").click();
  }

  declined() {
    return this.page.getByTestId("consent-declined");
  }
}
