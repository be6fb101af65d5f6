import type { Page } from "@playwright/test";

// Page object for the landing page at `/`, signed in and signed out.

export type ConnectionSlug = "tracker" | "coderepo" | "calls" | "support" | "crmportal";

export class LandingPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/");
  }

  main() {
    return this.page.getByRole("main");
  }

  heading() {
    return this.main().getByRole("heading", { level: 1 });
  }

  signInLink() {
    return this.main().getByRole("link", { name: "Sign in" });
  }

  signedOutPitch() {
    return this.page.getByTestId("signed-out");
  }

  favourites() {
    return this.page.getByTestId("favourites");
  }

  savedDashboards() {
    return this.page.getByTestId("saved-dashboards");
  }

  examples() {
    return this.page.getByTestId("examples");
  }

  crmSummary() {
    return this.page.getByTestId("crm-summary");
  }

  /** `pipeline` or `lifecycle`: the figure holding the chart and its data table. */
  chart(which: "pipeline" | "lifecycle") {
    return this.crmSummary().getByTestId(`${which}-chart`);
  }

  /** The drawn chart: an SVG with role img whose title reads the data. */
  chartImage(which: "pipeline" | "lifecycle") {
    return this.chart(which).getByRole("img");
  }

  chartBars(which: "pipeline" | "lifecycle") {
    return this.chart(which).locator(".recharts-bar-rectangle");
  }

  /** The visually hidden table carrying the chart's numbers for screen readers. */
  chartDataRows(which: "pipeline" | "lifecycle") {
    return this.chart(which).getByTestId("chart-data").locator("tbody tr");
  }

  pipelineMeasure(name: "Deal count" | "Amount") {
    return this.chart("pipeline").getByRole("group", { name: "Pipeline measure" }).getByRole("button", { name });
  }

  freshness() {
    return this.page.getByTestId("freshness");
  }

  freshnessTable() {
    return this.freshness().getByTestId("freshness-table");
  }

  sortButton(column: string) {
    return this.freshnessTable().getByRole("columnheader").getByRole("button", { name: column });
  }

  columnHeader(column: string) {
    return this.freshnessTable().getByRole("columnheader", { name: column });
  }

  /** The text of one column, top to bottom, by its position (1-based). */
  async columnTexts(position: number): Promise<string[]> {
    return this.freshnessTable().locator(`tbody tr td:nth-child(${position})`).allInnerTexts();
  }

  connection(slug: ConnectionSlug) {
    return this.page.getByTestId(`connection-${slug}`);
  }

  connectionState(slug: ConnectionSlug) {
    return this.connection(slug).getByTestId("live-status");
  }

  /** A section's error message: scoped, because Next's route announcer is an alert too. */
  errorIn(section: "crmSummary" | "freshness" | "favourites") {
    return this[section]().getByRole("alert");
  }
}
