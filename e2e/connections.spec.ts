import { expect, test, type Page } from "@playwright/test";
import { ConnectionsPage, ConsentPage } from "./support/connections-page";
import { markForReconnect, storedConnection } from "./support/demo-db";
import { SignInPage } from "./support/pages";

// Tests share one demo database. Those that change the member's connections, or rely on them being
// as the demo starts, are tagged @member-state and run one at a time (playwright.config.ts); each
// leaves the demo users' connections as it found them.

async function signInToConnections(page: Page, email: string): Promise<ConnectionsPage> {
  const signIn = new SignInPage(page);
  await signIn.open("/connections");
  await signIn.signInAs(email);
  await expect(page).toHaveURL("/connections");
  const connections = new ConnectionsPage(page);
  await expect(connections.heading()).toBeVisible();
  return connections;
}

test("signed out, the page asks the person to sign in and returns them afterwards", async ({ page }) => {
  const connections = new ConnectionsPage(page);
  await connections.open();
  await expect(connections.heading()).toBeVisible();
  await expect(connections.signInLink()).toHaveAttribute("href", "/signin?next=%2Fconnections");
  await expect(connections.card("tracker")).toHaveCount(0);

  await connections.signInLink().click();
  await new SignInPage(page).signInAs("member@demo.test");
  await expect(page).toHaveURL("/connections");
  await expect(connections.card("tracker")).toBeVisible();
});

test("the CSM sees their connectors connected, live checks arriving ok, and calls opted in", async ({ page }) => {
  const connections = await signInToConnections(page, "csm@demo.test");

  for (const slug of ["tracker", "coderepo", "support"] as const) {
    await expect(connections.connectionState(slug)).toHaveText("Connected");
    await expect(connections.liveStatus(slug)).toHaveAttribute("data-state", "ok");
    await expect(connections.liveStatus(slug)).toHaveAttribute("aria-live", "polite");
    await expect(connections.liveStatus(slug).getByTestId("live-duration")).toHaveText(/^\d+$/);
    await expect(connections.disconnectButton(slug)).toBeVisible();
  }

  await expect(connections.callsOptInSwitch()).toHaveAttribute("aria-checked", "true");
  await expect(connections.donorState()).toHaveText("Connected");
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "ok");

  await expect(connections.card("crmportal")).toContainText("no personal connection");
  await expect(connections.liveStatus("crmportal")).not.toHaveAttribute("data-state", "loading");
});

test("a member connects the issue tracker through the consent page, reads it, then disconnects", { tag: "@member-state" }, async ({ page }) => {
  const connections = await signInToConnections(page, "member@demo.test");

  for (const slug of ["tracker", "coderepo", "support"] as const) {
    await expect(connections.connectionState(slug)).toHaveText("Not connected");
    await expect(connections.liveStatus(slug)).toHaveAttribute("data-state", "not-connected");
    await expect(connections.liveStatus(slug).getByTestId("live-badge")).toHaveText("Not connected");
    // Nothing was called: no timing, and no "Check again" beside Connect.
    await expect(connections.liveStatus(slug).getByTestId("live-duration")).toHaveCount(0);
    await expect(connections.card(slug).getByRole("button", { name: /^Check again/ })).toHaveCount(0);
  }
  await expect(connections.callsOptInSwitch()).toHaveAttribute("aria-checked", "false");
  expect((await page.request.get("/api/vendors/tracker/issues")).status()).toBe(401);

  await connections.connect("tracker");
  await expect(page).toHaveURL(/\/stand-ins\/tracker\/oauth\/authorize\?/);
  const consent = new ConsentPage(page);
  await expect(consent.account()).toHaveText("member@demo.test");
  await consent.authorize();

  await expect(page).toHaveURL("/connections?connected=tracker");
  await expect(connections.outcome()).toHaveAttribute("role", "status");
  await expect(connections.outcome()).toContainText("is connected");
  await expect(connections.connectionState("tracker")).toHaveText("Connected");
  await expect(connections.liveStatus("tracker")).toHaveAttribute("data-state", "ok");
  await expect(connections.connectionState("coderepo")).toHaveText("Not connected");

  const issues = await page.request.get("/api/vendors/tracker/issues");
  expect(issues.status()).toBe(200);
  expect(Array.isArray((await issues.json()).issues)).toBe(true);

  await connections.disconnect("tracker");
  await expect(page).toHaveURL("/connections?disconnected=tracker");
  await expect(connections.outcome()).toContainText("disconnected");
  await expect(connections.connectionState("tracker")).toHaveText("Not connected");
  await expect(connections.liveStatus("tracker")).toHaveAttribute("data-state", "not-connected");

  const after = await page.request.get("/api/vendors/tracker/issues");
  expect(after.status()).toBe(401);
  expect(await after.json()).toMatchObject({ error: "tracker_not_connected" });
});

test("a credential past its vendor's token lifetime is renewed under the person's reads", async ({ page }) => {
  // The demo server's stand-in tokens live 20 seconds (playwright.config.ts).
  test.setTimeout(60_000);
  await signInToConnections(page, "csm@demo.test");
  expect((await page.request.get("/api/vendors/coderepo/repos")).status()).toBe(200);
  const before = storedConnection("csm@demo.test", "coderepo");
  expect(before?.expires_at).toEqual(expect.any(Number));
  // Once the token is within a tenth of its lifetime of expiring, the next read renews it first.
  await expect.poll(() => Date.now(), { timeout: 25_000, intervals: [500] }).toBeGreaterThan(before!.expires_at! - 1_500);
  const read = await page.request.get("/api/vendors/coderepo/repos");
  expect(read.status()).toBe(200);
  const after = storedConnection("csm@demo.test", "coderepo");
  expect(after?.expires_at).toBeGreaterThan(before!.expires_at!);
  expect(after?.refreshed_at).toEqual(expect.any(Number));
  expect(after?.reconnect_reason).toBeNull();
});

test("a connection that can no longer be renewed asks the person to reconnect, says why, and reconnects", { tag: "@member-state" }, async ({ page }) => {
  const connections = await signInToConnections(page, "member@demo.test");
  await connections.connect("tracker");
  await new ConsentPage(page).authorize();
  await expect(page).toHaveURL("/connections?connected=tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Connected");

  const reason = "Linear refused to renew the connection (invalid_grant: The refresh token was already used, so the grant is revoked; connect again).";
  markForReconnect("member@demo.test", "tracker", reason, Date.parse("2026-11-24T08:30:00Z"));
  await connections.open();
  await expect(connections.connectionState("tracker")).toHaveText(new RegExp(`^Reconnect needed: ${reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(since (.+ ago|just now)\\)$`));
  // The exact moment is in the time element's title and dateTime, as everywhere dates are shown.
  const since = connections.connectionState("tracker").locator("time");
  await expect(since).toHaveAttribute("datetime", "2026-11-24T08:30:00.000Z");
  await expect(since).toHaveAttribute("title", /24 Nov 2026/);
  await expect(connections.connectionState("tracker")).toHaveAttribute("data-connected", "reconnect");
  await expect(connections.liveStatus("tracker")).toHaveAttribute("data-state", "not-connected");
  // On /connections the way to reconnect is the button on the card, so the hint names the step alone.
  await expect(connections.liveStatus("tracker").getByTestId("live-summary")).toHaveText(`${reason} Reconnect Linear.`);
  const refused = await page.request.get("/api/vendors/tracker/issues");
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "tracker_not_connected", hint: `${reason} Reconnect Linear at /connections.` });

  await connections.reconnectButton("tracker").click();
  await new ConsentPage(page).authorize();
  await expect(page).toHaveURL("/connections?connected=tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Connected");
  await expect(connections.liveStatus("tracker")).toHaveAttribute("data-state", "ok");
  expect(storedConnection("member@demo.test", "tracker")?.reconnect_reason).toBeNull();
  expect((await page.request.get("/api/vendors/tracker/issues")).status()).toBe(200);

  await connections.disconnect("tracker");
  await expect(connections.connectionState("tracker")).toHaveText("Not connected");
});

test("cancelling on the consent page says so and connects nothing", { tag: "@member-state" }, async ({ page }) => {
  const connections = await signInToConnections(page, "member@demo.test");

  await connections.connect("tracker");
  await expect(page).toHaveURL(/\/stand-ins\/tracker\/oauth\/authorize\?/);
  await new ConsentPage(page).cancel();

  await expect(page).toHaveURL("/connections?error=denied&slug=tracker");
  await expect(connections.outcome()).toHaveAttribute("role", "alert");
  await expect(connections.outcome()).toContainText("cancelled");
  for (const slug of ["tracker", "coderepo", "support"] as const) {
    await expect(connections.connectionState(slug)).toHaveText("Not connected");
  }
  expect((await page.request.get("/api/vendors/tracker/issues")).status()).toBe(401);
});

test("the call-recordings switch opts a member in and out", { tag: "@member-state" }, async ({ page }) => {
  const connections = await signInToConnections(page, "member@demo.test");
  const optIn = connections.callsOptInSwitch();

  await expect(optIn).toHaveAttribute("aria-checked", "false");
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "not-connected");
  const before = await page.request.get("/api/vendors/calls/calls");
  expect(before.status()).toBe(403);
  expect(await before.json()).toMatchObject({ error: "calls_not_opted_in" });

  await optIn.click();
  await expect(connections.card("calls").getByRole("status")).toHaveText("You opted in to call recordings.");
  await expect(optIn).toHaveAttribute("aria-checked", "true");
  await expect(connections.card("calls").getByTestId("optin-state")).toHaveText("Opted in");
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "ok");
  const calls = await page.request.get("/api/vendors/calls/calls");
  expect(calls.status()).toBe(200);
  expect(Array.isArray((await calls.json()).calls)).toBe(true);

  // The switch is a button: it works from the keyboard too.
  await optIn.focus();
  await page.keyboard.press("Enter");
  await expect(connections.card("calls").getByRole("status")).toHaveText("You opted out of call recordings.");
  await expect(optIn).toHaveAttribute("aria-checked", "false");
  await expect(connections.card("calls").getByTestId("optin-state")).toHaveText("Not opted in");
  // The live pill says the same, after the check runs again, and offers no check of nothing.
  await page.reload();
  await expect(connections.liveStatus("calls")).toHaveAttribute("data-state", "not-connected");
  await expect(connections.liveStatus("calls").getByTestId("live-badge")).toHaveText("Not opted in");
  await expect(connections.card("calls").getByRole("button", { name: /^Check again/ })).toHaveCount(0);
  await expect(connections.liveStatus("calls").getByTestId("live-duration")).toHaveCount(0);
  const after = await page.request.get("/api/vendors/calls/calls");
  expect(after.status()).toBe(403);
  expect(await after.json()).toMatchObject({ error: "calls_not_opted_in" });
});

test("only an admin sees the shared-credential controls", async ({ page, context }) => {
  const admin = await signInToConnections(page, "admin@demo.test");
  await expect(admin.donorControls()).toBeVisible();
  await expect(admin.donorControls().getByRole("button", { name: "Disconnect shared credential" })).toBeVisible();
  await expect(admin.donorState()).toHaveText("Connected");

  await context.clearCookies();
  const csm = await signInToConnections(page, "csm@demo.test");
  await expect(csm.card("calls")).toBeVisible();
  await expect(csm.donorState()).toHaveText("Connected");
  await expect(csm.donorControls()).toHaveCount(0);
  await expect(csm.card("calls").getByRole("button", { name: /shared credential/ })).toHaveCount(0);
});
