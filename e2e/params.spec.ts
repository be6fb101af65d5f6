import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { SignInPage } from "./support/pages";
import { ParamBarPart } from "./support/param-bar";
import { SavedDashboardPage } from "./support/saved-page";
import { DraftAuthor, WatchPage, type CreatedDraft } from "./support/watch-page";

// The parameter bar: the page parameters a dashboard reads, found by the static check, as
// inputs on watch and saved pages; applying one rewrites the address and starts the dashboard
// again with the new window.DASHBOARD_PARAMS.

test.describe.configure({ timeout: 90_000 });

/** A dashboard that reads `days` and `team` the documented way and shows what it was given. */
function reader(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1><p>Last <span id="days"></span> days</p><pre id="params"></pre><p id="drawn"></p></main>
<script>
const params = window.DASHBOARD_PARAMS || {};
const days = /^[0-9]{1,3}$/.test(params.days || "") ? Number(params.days) : 30;
const { team } = params;
document.getElementById("days").textContent = String(days) + (team ? " for " + team : "");
document.getElementById("params").textContent = JSON.stringify(window.DASHBOARD_PARAMS);
document.getElementById("drawn").textContent = String(Math.random());
</script></body></html>`;
}

const runSlug = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function openWatch(page: Page, draft: CreatedDraft, query = ""): Promise<WatchPage> {
  const watch = new WatchPage(page);
  await page.goto(`${new URL(draft.watchUrl).pathname}${query}`);
  await expect(watch.connectionState()).toHaveText("live", { timeout: 15_000 });
  return watch;
}

test.describe("the watch page's parameter bar", () => {
  test("lists what the dashboard reads; applying rewrites the address and the dashboard's DASHBOARD_PARAMS", async ({ page, request }) => {
    const draft = await new DraftAuthor(request).create(reader("Window board"));
    const watch = await openWatch(page, draft, "?note=kept");
    const bar = new ParamBarPart(page);
    const dashboard = watch.dashboard();
    await expect(dashboard.locator("#days")).toHaveText("30");

    // Found in the code, not the address: both names, empty, in the order the code reads them.
    await expect(bar.inputs()).toHaveCount(2);
    await expect(bar.input("days")).toHaveValue("");
    await expect(bar.input("team")).toHaveValue("");
    await expectNoSeriousViolations(page);

    await bar.input("days").fill("90");
    await bar.input("days").press("Enter");
    await expect(dashboard.locator("#days")).toHaveText("90");
    await expect(dashboard.locator("#params")).toHaveText('{"days":"90"}');
    await expect(page).toHaveURL(/\?note=kept&p\.days=90$/);
    await expect(bar.status()).toHaveText("Applied: days = 90.");

    await bar.input("team").fill("north & south");
    await bar.apply().click();
    await expect(dashboard.locator("#days")).toHaveText("90 for north & south");
    await expect(page).toHaveURL(/\?note=kept&p\.days=90&p\.team=north\+%26\+south$/);

    // An empty value takes the parameter out of the address and away from the dashboard.
    await bar.input("days").fill("");
    await bar.input("days").press("Enter");
    await expect(dashboard.locator("#params")).toHaveText('{"team":"north & south"}');
    await expect(dashboard.locator("#days")).toHaveText("30 for north & south");
    await expect(page).toHaveURL(/\?note=kept&p\.team=north\+%26\+south$/);

    // What the address now says is what a reload gives the dashboard.
    await page.reload();
    await expect(watch.connectionState()).toHaveText("live", { timeout: 15_000 });
    await expect(dashboard.locator("#days")).toHaveText("30 for north & south");
    await expect(bar.input("team")).toHaveValue("north & south");
    await expectNoSeriousViolations(page);
  });

  test("refuses a value the page would not pass, inline, and changes nothing", async ({ page, request }) => {
    const draft = await new DraftAuthor(request).create(reader("Bounded board"));
    const watch = await openWatch(page, draft, "?p.days=14");
    const bar = new ParamBarPart(page);
    const dashboard = watch.dashboard();
    await expect(dashboard.locator("#days")).toHaveText("14");
    await expect(bar.input("days")).toHaveValue("14");
    const drawn = await dashboard.locator("#drawn").textContent();

    await bar.input("days").fill("9".repeat(201));
    await bar.input("days").press("Enter");
    await expect(bar.error("days")).toHaveText("At most 200 characters (this is 201).");
    await expect(bar.input("days")).toHaveAttribute("aria-invalid", "true");
    await expect(bar.input("days")).toHaveAccessibleDescription("At most 200 characters (this is 201).");
    await expect(bar.input("days")).toBeFocused();
    await expect(bar.status()).toHaveText("Not applied: the dashboard keeps its parameters.");
    await expect(page).toHaveURL(/\?p\.days=14$/);
    // Not started again: the same draw, with the same parameters.
    await expect(dashboard.locator("#drawn")).toHaveText(drawn ?? "");
    await expect(dashboard.locator("#params")).toHaveText('{"days":"14"}');
    await expectNoSeriousViolations(page);

    await bar.input("days").fill("7");
    await bar.apply().click();
    await expect(bar.error("days")).toHaveCount(0);
    await expect(dashboard.locator("#days")).toHaveText("7");
    await expect(page).toHaveURL(/\?p\.days=7$/);
  });

  test("is not there for a dashboard that reads no parameters, and offers those the address gives", async ({ page, request }) => {
    const plain = `<!doctype html><html lang="en"><head><title>Plain</title></head><body><h1 id="h">Plain</h1><script>document.getElementById("h").dataset.ran = "1";</script></body></html>`;
    const draft = await new DraftAuthor(request).create(plain);
    const watch = await openWatch(page, draft);
    await expect(watch.dashboard().locator("#h")).toHaveAttribute("data-ran", "1");
    await expect(page.getByTestId("param-bar")).toHaveCount(0);

    // Named in the address, offered to change (or take out) even though the code does not name it.
    await openWatch(page, draft, "?p.region=emea");
    const bar = new ParamBarPart(page);
    await expect(bar.input("region")).toHaveValue("emea");
    await bar.input("region").fill("");
    await bar.input("region").press("Enter");
    await expect(bar.status()).toHaveText("Applied: the dashboard is given no parameters.");
    await expect(page).toHaveURL(new RegExp(`${new URL(draft.watchUrl).pathname}$`));
    // The input stays, with the focus, until the page is left: the value can be put back.
    await expect(bar.input("region")).toBeFocused();
    await page.reload();
    await expect(watch.connectionState()).toHaveText("live", { timeout: 15_000 });
    await expect(page.getByTestId("param-bar")).toHaveCount(0);
  });
});

test.describe("a saved dashboard's parameter bar", () => {
  test("lists the parameter the saved code reads and applies a value to the dashboard and the address", async ({ page, request }) => {
    const slug = runSlug("params");
    const draft = await new DraftAuthor(request).create(reader("Saved window"), { dash: slug });
    await new SignInPage(page).open(new URL(draft.watchUrl).pathname);
    await new SignInPage(page).signInAs("admin@demo.test");
    await page.getByRole("button", { name: "Save to my space" }).click();
    const form = page.getByRole("form", { name: "Save to my space" });
    await form.getByRole("button", { name: "Save", exact: true }).click();
    await expect(form.getByRole("status")).toHaveText(`Saved revision 1 to /~/admin/${slug}`);

    const saved = new SavedDashboardPage(page);
    await saved.open(`/~/admin/${slug}?revision=1`);
    await expect(saved.heading()).toHaveText("Saved window");
    await expect(saved.dashboard().locator("#days")).toHaveText("30", { timeout: 15_000 });
    const bar = new ParamBarPart(page);
    await expect(bar.inputs()).toHaveCount(2);
    await expect(bar.input("days")).toHaveValue("");
    await expectNoSeriousViolations(page);

    await bar.input("days").fill("90");
    await bar.apply().click();
    await expect(saved.dashboard().locator("#days")).toHaveText("90");
    await expect(saved.dashboard().locator("#params")).toHaveText('{"days":"90"}');
    await expect(page).toHaveURL(new RegExp(`/~/admin/${slug}\\?revision=1&p\\.days=90$`));
    await expectNoSeriousViolations(page);

    await page.reload();
    await expect(saved.dashboard().locator("#days")).toHaveText("90", { timeout: 15_000 });
    await expect(bar.input("days")).toHaveValue("90");
  });
});
