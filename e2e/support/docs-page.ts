import type { Page } from "@playwright/test";

// Page object for the API reference at /docs.

export class DocsPage {
  constructor(private readonly page: Page) {}

  async open(hash = ""): Promise<void> {
    await this.page.goto(`/docs${hash}`);
  }

  /** The block of one operation, by its registry id (API endpoints) or its operation id. */
  operation(id: string) {
    return this.page.locator(`article[data-registry-id="${id}"], article[data-operation="${id}"]`);
  }

  section(slug: string) {
    return this.page.locator(`section[data-section="${slug}"]`);
  }

  sectionHeadings() {
    return this.page.locator("main h2");
  }

  search() {
    return this.page.getByLabel("Search the reference");
  }

  tocItems() {
    return this.page.getByRole("navigation", { name: "API reference" }).getByTestId("docs-toc-item");
  }

  /** Field names, error codes and the example text of one operation, read from the page. */
  async facts(id: string): Promise<{ fields: string[]; errors: string[]; example: string | null; title: string }> {
    return this.operation(id).evaluate((el) => ({
      fields: [...el.querySelectorAll("[data-field]")].map((n) => n.getAttribute("data-field") ?? ""),
      errors: [...el.querySelectorAll("[data-error-code]")].map((n) => n.getAttribute("data-error-code") ?? ""),
      example: el.querySelector("pre[data-example-for]")?.textContent ?? null,
      title: el.querySelector("h3")?.textContent ?? "",
    }));
  }

  tryIt(id: string) {
    const op = this.operation(id);
    return {
      request: op.getByLabel("Request"),
      scenario: op.getByLabel("Demo scenario"),
      run: op.getByRole("button", { name: "Try it" }),
      status: op.getByTestId("try-it-status"),
      result: op.getByTestId("try-it-result"),
    };
  }
}
