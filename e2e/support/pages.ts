import type { Page } from "@playwright/test";

// Page objects: tests speak of what a person does, selectors live here.

export class SignInPage {
  constructor(private readonly page: Page) {}

  async open(next?: string): Promise<void> {
    await this.page.goto(next ? `/signin?next=${encodeURIComponent(next)}` : "/signin");
  }

  async signInAs(email: string): Promise<void> {
    await this.page.getByTestId(`signin-${email}`).click();
  }
}

export class SiteHeader {
  constructor(private readonly page: Page) {}

  signedInEmail() {
    return this.page.getByTestId("signed-in-email");
  }

  signInLink() {
    return this.page.getByRole("banner").getByRole("link", { name: "Sign in" });
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
