import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { fence } from "./support/fence";
import { LandingPage } from "./support/landing-page";
import { SignInPage } from "./support/pages";
import { DraftAuthor } from "./support/watch-page";

// The landing page reads its sections from the API in the browser. The server syncs the CRM
// portal's stand-in by itself at start, so the first visit may see the "not synced yet" state
// before the charts: waits for CRM data allow for that sync.
const SYNC_WAIT = { timeout: 30_000 };

async function signInToLanding(page: Page, email: string): Promise<LandingPage> {
  const signIn = new SignInPage(page);
  await signIn.open("/");
  await signIn.signInAs(email);
  await expect(page).toHaveURL("/");
  const landing = new LandingPage(page);
  await expect(landing.heading()).toHaveText(/^Welcome, /);
  return landing;
}

const PIPELINE_LABELS = [
  "Appointment scheduled",
  "Qualified to buy",
  "Presentation scheduled",
  "Decision maker bought in",
  "Contract sent",
  "Closed won",
  "Closed lost",
];
const LIFECYCLE_LABELS = ["Subscriber", "Lead", "Marketing qualified lead", "Sales qualified lead", "Opportunity", "Customer", "Evangelist", "Other"];

/** True when every known label in `seen` appears in the order `order` gives. */
function inOrder(seen: string[], order: string[]): boolean {
  const ranks = seen.filter((s) => order.includes(s)).map((s) => order.indexOf(s));
  return ranks.every((r, i) => i === 0 || r > (ranks[i - 1] as number));
}

test("signed out, the page says what the product is and offers sign-in, without calling the API", async ({ page }) => {
  const apiCalls: string[] = [];
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.startsWith("/api/")) apiCalls.push(req.url());
  });
  const landing = new LandingPage(page);
  await landing.open();

  await expect(landing.heading()).toHaveText("Dashboards");
  await expect(landing.signedOutPitch()).toContainText("Draft a data dashboard as one HTML file");
  await expect(landing.signInLink()).toHaveAttribute("href", "/signin?next=/");
  await expect(landing.main().getByRole("link", { name: "Open the playground" })).toHaveAttribute("href", "/dashboards/playground");
  await expect(landing.main().getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
  await expect(landing.crmSummary()).toHaveCount(0);
  await expectNoSeriousViolations(page);
  // Hydration is done once axe has run in the page, and an effect that fetches starts its request
  // then: past the fence, nothing has asked the API.
  await page.waitForLoadState("load");
  await fence(page);
  expect(apiCalls).toEqual([]);

  await landing.signInLink().click();
  await new SignInPage(page).signInAs("member@demo.test");
  await expect(page).toHaveURL("/");
  await expect(landing.heading()).toHaveText(/^Welcome, /);
});

test("the CSM sees CRM charts with data, a sortable freshness table, live connections and examples", { tag: "@csm-state" }, async ({ page }) => {
  const landing = await signInToLanding(page, "csm@demo.test");

  // Charts: bars drawn, stages in funnel order, the numbers in a table for screen readers.
  await expect(landing.chartBars("pipeline").first()).toBeVisible(SYNC_WAIT);
  const pipelineRows = await landing.chartDataRows("pipeline").locator("th").allInnerTexts();
  expect(pipelineRows.length).toBeGreaterThan(1);
  expect(inOrder(pipelineRows, PIPELINE_LABELS)).toBe(true);
  await expect(landing.chartBars("pipeline")).toHaveCount(pipelineRows.length);
  await expect(landing.chartImage("pipeline")).toHaveAccessibleName(/^Deal count by stage, \d+ stages, [\d,]+ in all; the largest is /);

  const lifecycleRows = await landing.chartDataRows("lifecycle").locator("th").allInnerTexts();
  expect(lifecycleRows.length).toBeGreaterThan(1);
  expect(inOrder(lifecycleRows, LIFECYCLE_LABELS)).toBe(true);
  await expect(landing.chartBars("lifecycle")).toHaveCount(lifecycleRows.length);
  await expect(landing.chartImage("lifecycle")).toHaveAccessibleName(/^Contacts by lifecycle stage, /);
  await expect(landing.crmSummary().getByTestId("crm-totals")).toContainText(/Companies\s*[\d,]+/);

  // The measure switch and the chart are reachable and usable from the keyboard.
  await landing.pipelineMeasure("Amount").focus();
  await page.keyboard.press("Enter");
  await expect(landing.pipelineMeasure("Amount")).toHaveAttribute("aria-pressed", "true");
  await expect(landing.pipelineMeasure("Deal count")).toHaveAttribute("aria-pressed", "false");
  await expect(landing.chartImage("pipeline")).toHaveAccessibleName(/^Deal amount by stage, .* \$[\d,]+ in all/);
  await page.keyboard.press("Tab");
  await expect(landing.chartImage("pipeline")).toBeFocused();
  // Arrow keys step through the bars, showing each one's tooltip.
  await page.keyboard.press("ArrowRight");
  await expect(landing.chart("pipeline").locator(".recharts-tooltip-wrapper")).toContainText(`${pipelineRows[0]}`);
  await expect(landing.chart("pipeline").locator(".recharts-tooltip-wrapper")).toContainText(/Amount : \$[\d,]+/);

  // Freshness: relative times with the exact time kept in <time>.
  const table = landing.freshnessTable();
  await expect(table.locator("tbody tr").first()).toContainText("CRM portal");
  const lastSuccess = table.locator("tbody tr").first().locator("td").nth(4).locator("time");
  await expect(lastSuccess).toHaveText(/^(just now|\d+ (minute|hour)s? ago)$/);
  await expect(lastSuccess).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await expect(lastSuccess).toHaveAttribute("title", /\d{4}, \d\d:\d\d:\d\d$/);

  // Sorting by a header button, announced through aria-sort.
  await expect(landing.columnHeader("Rows")).toHaveAttribute("aria-sort", "none");
  const asNumbers = (texts: string[]) => texts.map((t) => Number(t.replace(/,/g, "")));
  await landing.sortButton("Rows").click();
  await expect(landing.columnHeader("Rows")).toHaveAttribute("aria-sort", "ascending");
  const ascending = asNumbers(await landing.columnTexts(3));
  expect(ascending.length).toBeGreaterThan(1);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await landing.sortButton("Rows").press("Enter");
  await expect(landing.columnHeader("Rows")).toHaveAttribute("aria-sort", "descending");
  const descending = asNumbers(await landing.columnTexts(3));
  expect(descending).toEqual([...ascending].reverse());
  expect(descending[0]).toBeGreaterThan(descending[descending.length - 1] as number);

  // Connections: the CSM's own tools check ok, and each links to /connections.
  for (const slug of ["tracker", "coderepo", "support"] as const) {
    await expect(landing.connectionState(slug)).toHaveAttribute("data-state", "ok");
    await expect(landing.connection(slug).getByRole("link")).toHaveAttribute("href", "/connections");
  }
  await expect(landing.connectionState("crmportal")).not.toHaveAttribute("data-state", "loading");

  // Examples open in the playground; the CSM's space starts with their book; favourites say how to get some.
  const example = landing.examples().getByRole("link", { name: "CX book" });
  await expect(example).toHaveAttribute("href", "/dashboards/playground?example=cx-book");
  await expect(landing.examples()).toContainText("book of business");
  await expect(landing.savedDashboards().getByRole("link", { name: "CX book" })).toHaveAttribute("href", "/~/csm/my-book");
  await expect(landing.savedDashboards().getByRole("link", { name: "All in your space" })).toHaveAttribute("href", "/~/csm");
  await expect(landing.favourites()).toContainText("No favourites yet");
  await expect(landing.favourites()).toContainText("star it");
  await expect(landing.main().getByRole("link", { name: "Open the playground" }).first()).toHaveAttribute("href", "/dashboards/playground");
  await expect(landing.main().getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");

  await expectNoSeriousViolations(page);

  await example.click();
  await expect(page).toHaveURL("/dashboards/playground?example=cx-book");
});

test("a member with nothing connected sees each tool as not connected, and the CRM they may read", { tag: "@member-state" }, async ({ page }) => {
  const landing = await signInToLanding(page, "member@demo.test");

  for (const slug of ["tracker", "coderepo", "support", "calls"] as const) {
    await expect(landing.connectionState(slug)).toHaveAttribute("data-state", "not-connected");
  }
  await expect(landing.connection("tracker")).toContainText("Not connected");
  // Everyone reads the customers CRM, so a member sees the same charts as a CSM.
  await expect(landing.chartBars("lifecycle").first()).toBeVisible(SYNC_WAIT);
  await expect(landing.favourites()).toContainText("No favourites yet");
  await expect(landing.savedDashboards()).toContainText("No saved dashboards yet — open the playground, draft one and save it from the watch page");
  await expect(landing.savedDashboards().getByRole("link", { name: "All in your space" })).toHaveAttribute("href", "/~/member");
  await expectNoSeriousViolations(page);
});

test("an outage of the CRM summary says so and offers a retry that recovers", { tag: "@csm-state" }, async ({ page }) => {
  // A test double for an outage: the summary answers the API's 500 envelope until it is lifted.
  await page.route("**/api/crm/customers/summary", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "internal_error" }) }),
  );
  const landing = await signInToLanding(page, "csm@demo.test");

  const alert = landing.errorIn("crmSummary");
  await expect(alert).toContainText("The CRM summary could not be loaded (internal_error).");
  await expect(alert).toContainText("Try again in a moment");
  await expect(landing.chartBars("pipeline")).toHaveCount(0);
  // The rest of the page does not depend on the summary.
  await expect(landing.freshnessTable()).toBeVisible();

  await page.unroute("**/api/crm/customers/summary");
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(landing.errorIn("crmSummary")).toHaveCount(0, SYNC_WAIT);
  await expect(landing.chartBars("pipeline").first()).toBeVisible(SYNC_WAIT);
});

test("a refused CRM read says whom to ask, and a sync in progress says it will check again by itself", { tag: "@csm-state" }, async ({ page }) => {
  // Test doubles: a 403 for the sources, as a person without the CRM permission would get, and
  // a summary that is "not synced yet" twice before the real answer comes through.
  await page.route("**/api/crm/customers/sources", (route) =>
    route.fulfill({ status: 403, contentType: "application/json", body: JSON.stringify({ error: "forbidden" }) }),
  );
  let notSynced = 2;
  await page.route("**/api/crm/customers/summary", (route) => {
    if (notSynced-- > 0) {
      return route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: "crm_not_synced", hint: "The first CRM portal sync has not completed yet." }),
      });
    }
    return route.fallback();
  });
  const landing = await signInToLanding(page, "csm@demo.test");

  const refused = landing.errorIn("freshness");
  await expect(refused).toContainText("Your account is not allowed to read the data freshness.");
  await expect(refused).toContainText("Ask an admin");
  await expect(refused.getByRole("button")).toHaveCount(0);

  await expect(landing.errorIn("crmSummary")).toContainText("The first CRM sync has not finished yet.");
  await expect(landing.errorIn("crmSummary")).toContainText("checks again by itself");
  await expect(landing.chartBars("pipeline").first()).toBeVisible(SYNC_WAIT);
  expect(notSynced).toBeLessThan(0);
});

test("a starred dashboard is listed, unstarred from the list, and a chosen home replaces the start page", { tag: "@csm-state" }, async ({ page }) => {
  const landing = await signInToLanding(page, "csm@demo.test");
  await page.goto("/~/csm/my-book");
  await page.getByRole("button", { name: "☆ Star" }).click();
  await expect(page.getByRole("button", { name: "★ Starred" })).toBeVisible();
  await page.getByRole("button", { name: "Set as home" }).click();
  await expect(page.getByRole("button", { name: "Your home" })).toBeVisible();

  // "/" now opens the home dashboard; "/?start" is still the start page.
  await page.goto("/");
  await expect(page).toHaveURL(/\/~\/csm\/my-book$/);
  await page.goto("/?start");
  await expect(landing.favourites().getByRole("link", { name: "CX book" })).toHaveAttribute("href", "/~/csm/my-book");
  await expectNoSeriousViolations(page);

  await landing.favourites().getByRole("button", { name: "Unstar CX book" }).click();
  await expect(landing.favourites()).toContainText("No favourites yet");
  expect(await (await page.request.get("/api/me/favourites")).json()).toEqual({ favourites: [] });

  await page.goto("/~/csm/my-book");
  await page.getByRole("button", { name: "Your home" }).click();
  await expect(page.getByRole("button", { name: "Set as home" })).toBeVisible();
  await page.goto("/");
  await expect(landing.heading()).toHaveText(/^Welcome, /);
});

test("favourites reorder on the start page, and the API answers the new render order", { tag: "@csm-state" }, async ({ page, request }) => {
  const draft = await new DraftAuthor(request).create("<!doctype html><title>Second board</title><p>two</p>", { dash: "second-board" });
  const landing = await signInToLanding(page, "csm@demo.test");
  await page.goto(new URL(draft.watchUrl).pathname);
  await page.getByRole("button", { name: "Save to my space" }).click();
  await page.getByRole("form", { name: "Save to my space" }).getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("link", { name: "/~/csm/second-board" })).toBeVisible();

  for (const path of ["/~/csm/my-book", "/~/csm/second-board"]) {
    await page.goto(path);
    await page.getByRole("button", { name: "☆ Star" }).click();
    await expect(page.getByRole("button", { name: "★ Starred" })).toBeVisible();
  }
  await page.goto("/");
  await expect(landing.favourites().getByRole("link")).toHaveText(["CX book", "Second board"]);
  await expect(landing.savedDashboards().getByRole("link", { name: "Second board" })).toBeVisible();

  await landing.favourites().getByRole("button", { name: "Move CX book down" }).click();
  await expect(landing.favourites().getByRole("link")).toHaveText(["Second board", "CX book"]);
  await expect(landing.favourites().getByRole("button", { name: "Move Second board up" })).toBeDisabled();
  expect(await (await page.request.get("/api/me/favourites")).json()).toEqual({
    favourites: [
      { href: "/~/csm/second-board", label: "Second board" },
      { href: "/~/csm/my-book", label: "CX book" },
    ],
  });
  await page.reload();
  await expect(landing.favourites().getByRole("link")).toHaveText(["Second board", "CX book"]);

  for (const label of ["Second board", "CX book"]) await landing.favourites().getByRole("button", { name: `Unstar ${label}` }).click();
  await expect(landing.favourites()).toContainText("No favourites yet");
});

test("favourites are listed as links in the order the API gives", { tag: "@csm-state" }, async ({ page }) => {
  // A test double for a long-standing list: the API's answer is fixed so the order is known.
  await page.route("**/api/me/favourites", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({ favourites: [{ href: "/~/csm/renewals", label: "Renewals" }, { href: "/~/csm/pipeline", label: "Pipeline" }] }),
    }),
  );
  const landing = await signInToLanding(page, "csm@demo.test");
  const links = landing.favourites().getByRole("link");
  await expect(links).toHaveText(["Renewals", "Pipeline"]);
  await expect(links.first()).toHaveAttribute("href", "/~/csm/renewals");
});

test("the start page, the docs and llms.txt tell one story of other people's code on your data", async ({ request }) => {
  // What each surface says, as text: drawn by the site by default, interactive only after a yes or for trusted authors.
  const textOf = async (path: string) => {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    return (await res.text()).replace(/<[^>]+>/g, " ").replace(/&#x27;|&apos;/g, "'").replace(/\s+/g, " ");
  };
  for (const path of ["/", "/docs/saving", "/dashboards/playground/llms.txt"]) {
    const text = await textOf(path);
    expect(text, path).toMatch(/Someone else's (saved )?dashboard (on your data is drawn|opens (for a signed-in human )?drawn) by this site/);
    expect(text, path).toMatch(/[Ii]nteractive/);
    expect(text, path).toMatch(/trust/);
  }
});
