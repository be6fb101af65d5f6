import { expect, test } from "@playwright/test";
import { SignInPage } from "./support/pages";

// The production server syncs the CRM portal (its stand-in) by itself at start; the CRM and CX
// endpoints then answer from that sync.
test("the server's own CRM sync feeds the CRM and CX endpoints", async ({ page }) => {
  await new SignInPage(page).open();
  await new SignInPage(page).signInAs("csm@demo.test");
  await expect(page.getByTestId("signed-in-email")).toHaveText("csm@demo.test");

  await expect
    .poll(async () => (await (await page.request.get("/api/crm/customers/sources")).json()).sources[0].status, { timeout: 20_000 })
    .toBe("ok");

  const companies = await (await page.request.get("/api/crm/customers/companies?limit=5")).json();
  expect(companies.companies).toHaveLength(5);
  expect(typeof companies.nextCursor).toBe("string");

  const owners = await (await page.request.get("/api/cx/owners?activeOnly=true")).json();
  const me = owners.data.owners.find((o: { email: string }) => o.email === "csm@demo.test");
  const book = await (await page.request.get(`/api/cx/book?owner=${me.ownerId}`)).json();
  expect(book.ok).toBe(true);
  expect(book.data.rows.length).toBeGreaterThan(0);
  expect(book.data.rows.every((r: { priority: { reasons: string[] } }) => Array.isArray(r.priority.reasons))).toBe(true);
});
