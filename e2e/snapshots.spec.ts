import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { accessibilityFindings } from "./support/axe";
import { SignInPage } from "./support/pages";

// A snapshot, end to end in a real Chromium against the production build: csm freezes their own
// CX book, drawn by the site on their data; it is private until shared, then opens for anyone
// holding the link, signed out, as the stored drawing in a frame that may run no script, reading
// nothing, its picture downloadable; revoked, its address and its picture answer 410. The test revokes what it made, so csm's list of
// snapshots on /account is as it found it.

const ADDRESS = /\/snapshots\/([A-Za-z0-9_-]{32,})$/;

test("csm freezes their CX book, shares it by link, a signed-out visitor opens it with no script and no reads, and once revoked it answers 410", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  await new SignInPage(page).open("/~/csm/my-book");
  await new SignInPage(page).signInAs("csm@demo.test");
  await expect(page.frameLocator('[data-testid="dashboard-frame"]').locator("h1")).toHaveText("CX book");

  const freeze = page.getByTestId("freeze-snapshot");
  await freeze.getByText("Freeze a snapshot").click();
  await expect(freeze.getByRole("combobox", { name: "Who may open it" })).toHaveValue("private");
  await expect(freeze.getByRole("combobox", { name: "Expires after" })).toHaveValue("7");
  await freeze.getByRole("button", { name: "Freeze it now" }).click();
  await expect(page).toHaveURL(ADDRESS, { timeout: 45_000 });
  const path = new URL(page.url()).pathname;

  // What it is, in plain words, and the drawing of csm's own book, drawn by the site.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("CX book");
  await expect(page.getByTestId("snapshot-notice")).toContainText("this site drew it on your data on");
  await expect(page.getByTestId("snapshot-meta")).toContainText("expires on");
  await expect(page.getByTestId("snapshot-meta")).toContainText("visible to you alone");
  const frame = page.getByTestId("snapshot-frame");
  await expect(frame).toHaveAttribute("sandbox", "");
  const drawn = page.frameLocator('[data-testid="snapshot-frame"]');
  await expect(drawn.locator("h1")).toHaveText("CX book");
  await expect(drawn.locator("#rows tr").first()).toBeVisible();
  // Its picture, kept when it was frozen: a PNG of the drawing, downloaded from the page.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("snapshot-picture").click()]);
  expect(download.suggestedFilename()).toMatch(/^csm-my-book-r\d+-(desktop|phone)-snapshot\.png$/);
  const png = fs.readFileSync((await download.path())!);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(390);

  // The page refuses every script, axe's too: it is checked in a context that sets the policy aside.
  const axeContext = await browser.newContext({ baseURL, bypassCSP: true, storageState: await page.context().storageState() });
  try {
    const axePage = await axeContext.newPage();
    await axePage.goto(path);
    await expect(axePage.frameLocator('[data-testid="snapshot-frame"]').locator("h1")).toHaveText("CX book");
    expect(await accessibilityFindings(axePage)).toBe("");
  } finally {
    await axeContext.close();
  }

  // Private: signed out, it is not there.
  const visitor = await browser.newContext({ baseURL });
  try {
    const stranger = await visitor.newPage();
    const hidden = await stranger.goto(path);
    expect(hidden?.status()).toBe(404);
    await expect(stranger.getByTestId("snapshot-hidden")).toContainText("There is no snapshot at this address that you may open.");
    await expect(stranger.getByTestId("snapshot-frame")).toHaveCount(0);

    // Shared by link from the snapshot's own page (a form: the page has no script).
    await page.getByRole("radio", { name: "Anyone holding this address, signed in or not" }).check();
    await page.getByRole("button", { name: "Save who may open it" }).click();
    await expect(page.getByTestId("snapshot-meta")).toContainText("visible to anyone holding this address");
    await expect(page.getByTestId("snapshot-address")).toHaveValue(new RegExp(`${path}$`));

    // Signed out, with the link: the stored drawing, and nothing else asked of the server.
    const asked: string[] = [];
    stranger.on("request", (r) => asked.push(r.url()));
    const opened = await stranger.goto(path);
    expect(opened?.status()).toBe(200);
    const csp = opened!.headers()["content-security-policy"]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    const html = await opened!.text();
    expect(html).not.toMatch(/<script/i);
    await expect(stranger.getByTestId("snapshot-frame")).toHaveAttribute("sandbox", "");
    const sandbox = await stranger.getByTestId("snapshot-frame").getAttribute("sandbox");
    expect(sandbox).not.toContain("allow-scripts");
    const shown = stranger.frameLocator('[data-testid="snapshot-frame"]');
    await expect(shown.locator("h1")).toHaveText("CX book");
    await expect(shown.locator("#rows tr").first()).toBeVisible();
    // Inside the frame, nothing that could run: no script element, no handler, no URL but data:.
    const inner = await stranger.getByTestId("snapshot-frame").getAttribute("srcdoc");
    expect(inner).toContain("Content-Security-Policy");
    expect(inner).not.toMatch(/<script|\son[a-z]+=|javascript:|https?:\/\//i);
    const scriptsRan = await stranger.frames()[1]!.evaluate(() => document.querySelectorAll("script").length).catch(() => -1);
    expect(scriptsRan).toBe(0);
    await expect(stranger.getByTestId("snapshot-notice")).toContainText("It runs no code and reads nobody’s data again.");
    await expect(stranger.getByTestId("snapshot-owner")).toHaveCount(0);
    expect(asked.filter((u) => !u.startsWith("data:") && !u.startsWith("about:"))).toEqual([new URL(path, baseURL).href]);
    const picture = await visitor.request.get(`${path}/picture.png`);
    expect(picture.status()).toBe(200);
    expect(picture.headers()["content-type"]).toBe("image/png");

    // Revoked by csm on the snapshot's page: the address answers 410, to csm and to the visitor.
    await page.getByRole("button", { name: "Revoke this snapshot" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This snapshot is gone");
    await expect(page.getByTestId("snapshot-gone")).toContainText("You revoked it, and what it showed has been deleted.");
    const gone = await stranger.goto(path);
    expect(gone?.status()).toBe(410);
    await expect(stranger.getByTestId("snapshot-gone")).toContainText("Its owner revoked it");
    await expect(stranger.getByTestId("snapshot-frame")).toHaveCount(0);
    const asJson = await visitor.request.get(path, { headers: { accept: "application/json" } });
    expect(asJson.status()).toBe(410);
    expect(await asJson.json()).toMatchObject({ error: "snapshot_gone", hint: expect.any(String) });
    expect((await visitor.request.get(`${path}/picture.png`)).status()).toBe(410);
  } finally {
    await visitor.close();
  }
  // And it is off csm's list.
  await page.goto("/account#snapshots");
  await expect(page.getByTestId("account-snapshots")).toBeVisible();
  await expect(page.locator(`[data-testid="account-snapshot"] a[href="${path}"]`)).toHaveCount(0);
});
