import type { Page } from "@playwright/test";

// Page object for the API reference: its index at /docs and a page per section at /docs/<section>.

export class DocsPage {
  constructor(private readonly page: Page) {}

  /** The index, or with a hash, whatever section page the index sends that anchor to. */
  async open(hash = ""): Promise<void> {
    await this.page.goto(`/docs${hash}`);
  }

  async openSection(slug: string, hash = ""): Promise<void> {
    await this.page.goto(`/docs/${slug}${hash}`);
  }

  /** The block of one operation, by its registry id (API endpoints) or its operation id. */
  operation(id: string) {
    return this.page.locator(`article[data-registry-id="${id}"], article[data-operation="${id}"]`);
  }

  section(slug: string) {
    return this.page.locator(`section[data-section="${slug}"]`);
  }

  /** The sections as the index lists them, in order. */
  sectionLinks() {
    return this.page.locator("[data-section-link] h2");
  }

  search() {
    return this.page.getByRole("combobox", { name: "Search the reference" });
  }

  results() {
    return this.page.getByRole("listbox", { name: "Search results" }).getByRole("option");
  }

  sidebar() {
    return this.page.getByRole("navigation", { name: "API reference" });
  }

  tocItems() {
    return this.sidebar().getByTestId("docs-toc-item");
  }

  /** The text the search marked on the page (a CSS custom highlight), or null. */
  highlighted(): Promise<string | null> {
    return this.page.evaluate(() => {
      const h = CSS.highlights.get("docs-search");
      const range = h ? [...h][0] : undefined;
      return range ? range.toString() : null;
    });
  }

  /** Field names, error codes and the example text of one operation, read from the page. */
  async facts(id: string): Promise<{ fields: string[]; errors: string[]; example: string | null; title: string }> {
    return this.operation(id).evaluate((el) => ({
      fields: [...el.querySelectorAll("[data-field]")].map((n) => n.getAttribute("data-field") ?? ""),
      errors: [...el.querySelectorAll("[data-error-code]")].map((n) => n.getAttribute("data-error-code") ?? ""),
      example: el.querySelector("pre[data-example-for]")?.textContent ?? null,
      title: el.querySelector("h2")?.textContent ?? "",
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
