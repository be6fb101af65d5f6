import { expect, test } from "@playwright/test";
import { SignInPage, SiteHeader } from "./support/pages";

test("a demo user signs in in the browser, sees their email and their /api/me, and signs out", { tag: "@csm-state" }, async ({ page }) => {
  const signIn = new SignInPage(page);
  const header = new SiteHeader(page);

  await signIn.open();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  // The list of people is a card like every other: its rows do not touch its border.
  const list = page.getByRole("list", { name: "Demo users" });
  const padding = await list.evaluate((el) => ["paddingTop", "paddingLeft"].map((k) => parseFloat(getComputedStyle(el)[k as "paddingTop"])));
  for (const px of padding) expect(px).toBeGreaterThanOrEqual(12);
  await signIn.signInAs("csm@demo.test");

  await expect(page).toHaveURL("/");
  await expect(header.signedInEmail()).toHaveText("csm@demo.test");

  const me = await page.request.get("/api/me");
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: "csm@demo.test", groups: ["cx"] });

  await header.signOut();
  await expect(header.signInLink()).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(401);
});

test("sign-in returns to the page that asked for it", async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.open("/signin?from=test");
  await signIn.signInAs("member@demo.test");
  await expect(page).toHaveURL(/\/signin\?from=test$/);
});

test("API errors are JSON envelopes, never HTML pages", async ({ request }) => {
  for (const path of ["/api/me", "/api/nope", "/api"]) {
    const res = await request.get(path);
    expect(res.headers()["content-type"]).toContain("application/json");
    const body = await res.json();
    expect(typeof body.error).toBe("string");
  }
  const post = await request.post("/api/me");
  expect(post.status()).toBe(405);
});
