import type { Page } from "@playwright/test";

// The parameter bar on watch and saved pages: an input per page parameter the dashboard reads.

export class ParamBarPart {
  constructor(private readonly page: Page) {}

  form() {
    return this.page.getByRole("form", { name: "Parameters" });
  }

  input(name: string) {
    return this.form().getByRole("textbox", { name, exact: true });
  }

  inputs() {
    return this.form().getByRole("textbox");
  }

  apply() {
    return this.form().getByRole("button", { name: "Apply" });
  }

  status() {
    return this.form().getByRole("status");
  }

  error(name: string) {
    return this.page.getByTestId(`param-${name}-error`);
  }
}
