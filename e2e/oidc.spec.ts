import { expect, test } from "@playwright/test";
import { ports } from "../playwright.config";

// The instance configured with an identity provider (the loopback stand-in from
// e2e/support/oidc-provider.mjs): sign-in goes through the provider, demo sign-in is off.

const providerOrigin = `http://127.0.0.1:${ports.provider}`;

test("signing in goes through the identity provider and comes back signed in", async ({ page, baseURL }) => {
  await page.goto("/signin");

  await expect(page).toHaveURL((url) => url.origin === providerOrigin);
  await page.getByRole("textbox", { name: "Email" }).fill("oidc-admin@example.test");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByTestId("signed-in-email")).toHaveText("oidc-admin@example.test");

  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: "oidc-admin@example.test", groups: ["admin", "cx"] });
});

test("demo sign-in answers 404 when an identity provider is configured", async ({ request }) => {
  const res = await request.post("/signin/demo", { form: { email: "csm@demo.test" } });
  expect(res.status()).toBe(404);
});
