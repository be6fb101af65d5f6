import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectWcagAaClean } from "./support/axe";
import { SignInPage, SiteHeader } from "./support/pages";

// The account's own page at /account: home, favourites and trusted authors, reached from the
// site header, changed through the account actions by forms that work with and without script.

async function signIn(page: Page, email: string, next: string): Promise<void> {
  await new SignInPage(page).open(next);
  await new SignInPage(page).signInAs(email);
  await expect(new SiteHeader(page).signedInEmail()).toHaveText(email);
}

/** The session's CSRF token, as the playground page embeds it for its own actions. */
async function csrfOf(request: APIRequestContext): Promise<string> {
  const html = await (await request.get("/dashboards/playground")).text();
  const csrf = /csrf\\?":\\?"([A-Za-z0-9_-]+)/.exec(html)?.[1];
  if (!csrf) throw new Error("no CSRF token on the playground page");
  return csrf;
}

/** Trusts or stops trusting an author as the page's signed-in person would, from our own origin. */
async function setTrust(page: Page, baseURL: string, op: "add" | "remove", handle: string): Promise<string[]> {
  const res = await page.request.post("/account/trust", {
    headers: { "x-csrf-token": await csrfOf(page.request), "sec-fetch-site": "same-origin", origin: new URL(baseURL).origin },
    data: { op, handle },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { authors: { handle: string }[] }).authors.map((a) => a.handle);
}

test("a browser opening an account action lands on the account page; other clients keep the 405 envelope", async ({ page, request }) => {
  test.setTimeout(60_000);
  for (const [action, anchor] of [
    ["home", "home"],
    ["favourites", "favourites"],
    ["trust", "trusted-authors"],
  ] as const) {
    const html = await request.get(`/account/${action}`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }, maxRedirects: 0 });
    expect(html.status(), action).toBe(303);
    expect(new URL(html.headers()["location"] ?? "", "http://x").pathname + new URL(html.headers()["location"] ?? "", "http://x").hash, action).toBe(
      `/account#${anchor}`,
    );
    const json = await request.get(`/account/${action}`, { headers: { accept: "application/json" }, maxRedirects: 0 });
    expect(json.status(), action).toBe(405);
    expect(json.headers()["content-type"], action).toContain("application/json");
    expect(await json.json(), action).toEqual({ error: "method_not_allowed", hint: expect.any(String) });
  }

  // Signed out, the page asks for a sign-in and comes back.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin\?next=%2Faccount$/);
  await new SignInPage(page).signInAs("member@demo.test");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");

  // The address bar on an action's address.
  await page.goto("/account/home");
  await expect(page).toHaveURL(/\/account#home$/);
  for (const name of ["Home page", "Favourites", "Authors you trust with your data"]) await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();

  // The header's signed-in person links here.
  await page.goto("/");
  await new SiteHeader(page).signedInEmail().click();
  await expect(page).toHaveURL(/\/account$/);
});

test("the account page passes axe (WCAG 2.2 AA) on a desktop and a phone", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "member@demo.test", "/account");
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
    await expectWcagAaClean(page);
  }
});

test("a trusted author is revoked on the account page, with script and without, and the trust is put back as it was", { tag: "@csm-state" }, async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin@demo.test", "/account");
  const wasTrusted = (await page.getByTestId("trusted-author").filter({ hasText: "/~/csm" }).count()) > 0;
  try {
    // With script: the list changes in place and says so.
    await setTrust(page, baseURL!, "add", "csm");
    await page.goto("/account");
    const trusted = page.getByTestId("trusted-authors");
    await expect(trusted.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(1);
    await trusted.getByRole("button", { name: "Stop trusting csm" }).click();
    await expect(trusted.getByRole("status")).toContainText("ask before they use your data again");
    await expect(trusted.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(0);
    await expect(page).toHaveURL(/\/account$/);

    // Without script: the form posts to the action, which sends the browser back here.
    await setTrust(page, baseURL!, "add", "csm");
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const plain = await context.newPage();
      await new SignInPage(plain).open("/account");
      await new SignInPage(plain).signInAs("admin@demo.test");
      await expect(plain).toHaveURL(/\/account$/);
      const list = plain.getByTestId("trusted-authors");
      await expect(list.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(1);
      await list.getByRole("button", { name: "Stop trusting csm" }).click();
      await expect(plain).toHaveURL(/\/account#trusted-authors$/);
      await expect(list.getByTestId("trusted-author").filter({ hasText: "/~/csm" })).toHaveCount(0);
    } finally {
      await context.close();
    }
    // The trusting person's own space links the account page.
    await page.goto("/~/admin");
    await expect(page.getByRole("link", { name: "your account", exact: true })).toHaveAttribute("href", "/account");
  } finally {
    expect(await setTrust(page, baseURL!, wasTrusted ? "add" : "remove", "csm")).toEqual(expect.any(Array));
  }
});
