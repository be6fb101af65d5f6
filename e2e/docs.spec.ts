import { expect, test } from "@playwright/test";
import { z } from "zod";
import { endpoints, errorsOf, type EndpointDef } from "../lib/contract/endpoints";
import { expectNoSeriousViolations } from "./support/axe";
import { DocsPage } from "./support/docs-page";

// The API reference in Chromium against the production build: complete (every endpoint, field
// and error code of the registry), correct (every example parses with its schema), usable
// (search, deep links, try it, copy) and accessible.

/** Every property name anywhere in a response schema, read straight from the contract. */
function propertyNames(schema: z.ZodType): string[] {
  const names = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.properties === "object" && o.properties !== null) Object.keys(o.properties).forEach((k) => names.add(k));
    Object.values(o).forEach(visit);
  };
  visit(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }));
  return [...names];
}

const lastSegment = (field: string) => field.split(".").at(-1)?.replace(/\[\]$/, "") ?? "";

test("every registry endpoint, field and error code is on /docs, and every example parses with its schema", async ({ page, request }) => {
  const docs = new DocsPage(page);
  await docs.open();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");

  for (const e of endpoints as readonly EndpointDef[]) {
    const facts = await docs.facts(e.id);
    expect(facts.title, e.id).toMatch(/^GET /);
    expect(facts.title, e.id).toContain(e.path);
    const documented = new Set(facts.fields.map(lastSegment));
    for (const name of propertyNames(e.response)) expect(documented.has(name), `${e.path}: field ${name}`).toBe(true);
    for (const code of errorsOf(e)) expect(facts.errors, `${e.path}: error ${code}`).toContain(code);
    expect(facts.example, `${e.path} has an example`).not.toBeNull();
    const parsed = e.response.safeParse(JSON.parse(facts.example ?? "null"));
    expect(parsed.success, `${e.path}: ${parsed.error?.message}`).toBe(true);
  }
  await expect(page.locator("pre[data-example-for]")).toHaveCount(endpoints.length);

  // The examples are the demo API's own answers.
  const me = JSON.parse((await docs.facts("me")).example ?? "null");
  expect(me).toEqual(await (await request.get("/dashboards/playground/api/me")).json());

  // Saving is documented from the contract's decisions, with no curl line.
  const save = await docs.facts("saving.save");
  expect(save.errors).toEqual(["invalid_slug", "empty_dashboard", "dashboard_uses_webrtc", "unauthorized", "forbidden", "method_not_allowed", "payload_too_large", "unsupported_media_type"]);
  expect(save.fields).toEqual(expect.arrayContaining(["path", "revision", "savedAt"]));
  await expect(docs.operation("saving.save")).toContainText("No curl or fetch snippet");
  await expect(docs.operation("saving.save").locator("code[id$='-curl']")).toHaveCount(0);
  for (const id of ["playground.createDraft", "playground.updateDraft", "playground.demoApi", "playground.draftEvents"]) {
    await expect(docs.operation(id)).toHaveCount(1);
  }
});

test("conventions come first, then the endpoints, the playground, events, saving, and health and metrics", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.open();
  await expect(docs.sectionHeadings()).toHaveText([
    /^Conventions/,
    /^Profile, favourites and home/,
    /^Connection checks/,
    /^CRM/,
    /^Outside systems/,
    /^Customer success/,
    /^Playground/,
    /^Events/,
    /^Saving a dashboard/,
    /^Health and metrics/,
  ]);
  for (const id of ["operations.healthz", "operations.readyz", "operations.metrics"]) await expect(docs.operation(id)).toHaveCount(1);
  await expect(docs.operation("operations.metrics")).toContainText("METRICS_TOKEN");
  await expect(docs.operation("operations.metrics")).toContainText("playground_event_streams_open");
  const conventions = docs.section("conventions");
  for (const id of ["api-base", "sign-in", "error-envelope", "cursor-paging", "cx-wrapper", "district-arr", "activity-basis", "priority", "freshness"]) {
    await expect(conventions.locator(`h3#${id}`)).toHaveCount(1);
  }
  await expect(conventions).toContainText("window.DASHBOARD_API_BASE");
  await expect(conventions).toContainText("not an SLA");
  await expect(conventions).toContainText("fresh for 30 seconds");
  await expect(page.getByRole("banner").getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
});

test("search filters the sidebar", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.open();
  const all = await docs.tocItems().count();
  expect(all).toBeGreaterThan(endpoints.length);
  await docs.search().fill("crmportal");
  await expect(docs.tocItems()).toHaveCount(3);
  for (const text of await docs.tocItems().allTextContents()) expect(text).toContain("/vendors/crmportal/");
  await docs.search().fill("post draft");
  // Every POST that concerns a draft: creating, checking, updating, sending a render report, rendering it.
  await expect(docs.tocItems()).toHaveText([
    /POST\s*\/dashboards\/playground\/draft$/,
    /POST\s*\/dashboards\/playground\/check$/,
    /POST\s*\/dashboards\/playground\/draft\/:write_token$/,
    /POST\s*\/dashboards\/playground\/draft\/:read_id\/reports$/,
    /POST\s*\/dashboards\/playground\/draft\/:read_id\/render$/,
  ]);
  await docs.search().fill("no such thing");
  await expect(docs.tocItems()).toHaveCount(0);
  await expect(page.getByText("Nothing matches")).toBeVisible();
  await docs.search().fill("");
  await expect(docs.tocItems()).toHaveCount(all);
});

test("deep links target an endpoint, from the address and from the sidebar", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.open("#get-crm-instance-companies");
  const companies = page.locator("#get-crm-instance-companies");
  await expect(companies).toBeInViewport();
  expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("get-crm-instance-companies");
  await page.getByRole("navigation", { name: "API reference" }).getByRole("link", { name: "GET /cx/book" }).click();
  await expect(page).toHaveURL(/#get-cx-book$/);
  await expect(page.locator("#get-cx-book")).toBeInViewport();
  await expect(companies).not.toBeInViewport();
});

test("try it runs the request against the demo API and shows the answer", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.open("#get-me");
  const tryMe = docs.tryIt("me");
  await expect(tryMe.request).toHaveValue("/me");
  await tryMe.run.click();
  await expect(tryMe.status).toContainText("200");
  expect(JSON.parse((await tryMe.result.textContent()) ?? "")).toMatchObject({ email: expect.stringContaining("@") });

  await tryMe.scenario.selectOption("signed-out");
  await tryMe.run.click();
  await expect(tryMe.status).toContainText("401");
  expect(JSON.parse((await tryMe.result.textContent()) ?? "")).toMatchObject({ error: "unauthorized" });

  const book = docs.tryIt("cx.book");
  await book.request.fill("/cx/book");
  await book.run.click();
  await expect(book.status).toContainText("400");
  await expect(book.result).toContainText("owner_required");
});

test("copy buttons copy their snippet and say so", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const docs = new DocsPage(page);
  await docs.open("#get-me");
  const op = docs.operation("me");
  await op.getByRole("button", { name: "Copy: fetch: GET /me" }).click();
  await expect(op.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await op.locator("code[id$='-fetch']").textContent());
  expect(copied).toContain('const API = window.DASHBOARD_API_BASE || "/api";');
  await op.getByRole("button", { name: "Copy: curl: GET /me" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^# Demo data, no sign-in:\ncurl -sS 'http:\/\/127\.0\.0\.1:\d+\/dashboards\/playground\/api\/me'/);
});

test("each section is served as Markdown, and so is /docs when asked for it", async ({ page, request }) => {
  const docs = new DocsPage(page);
  await docs.open();
  const href = await docs.section("cx").getByRole("link", { name: "Customer success as Markdown" }).getAttribute("href");
  expect(href).toBe("/docs/cx.md");
  const cx = await request.get(href ?? "");
  expect(cx.headers()["content-type"]).toContain("text/markdown");
  const text = await cx.text();
  expect(text).toMatch(/^# Customer success\n/);
  for (const code of errorsOf(endpoints.find((e) => e.id === "cx.book") as EndpointDef)) expect(text).toContain(`\`${code}\``);

  const negotiated = await request.get("/docs", { headers: { accept: "text/markdown" } });
  expect(negotiated.headers()["content-type"]).toContain("text/markdown");
  expect(await negotiated.text()).toMatch(/^# Dashboard data service: API reference\n/);
  // llms.txt links each endpoint's own page, and llms-full.txt each section.
  const llms = await (await request.get("/dashboards/playground/llms.txt")).text();
  const bookPage = /(\/docs\/get-cx-book\.md)/.exec(llms)?.[1];
  expect(bookPage).toBeTruthy();
  const book = await request.get(bookPage!);
  expect(book.headers()["content-type"]).toContain("text/markdown");
  expect(await book.text()).toMatch(/^# GET \/cx\/book/);
  expect(await (await request.get("/dashboards/playground/llms-full.txt")).text()).toContain("/docs/cx.md)");

  const openapi = await request.get("/openapi.json");
  expect(openapi.headers()["content-type"]).toContain("application/json");
  const doc = await openapi.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/crm/{instance}/companies", "/~/{handle}/{slug}", "/healthz", "/readyz", "/metrics"]));
  expect(doc.paths["/metrics"].get.security).toEqual([{}, { metricsToken: [] }]);
  expect(doc.paths["/readyz"].get.responses["503"]).toBeDefined();

  const ops = await (await request.get("/docs/operations.md")).text();
  expect(ops).toMatch(/^# Health and metrics\n/);
  for (const path of ["GET /healthz", "GET /readyz", "GET /metrics", "`not_ready`", "http_request_duration_seconds"]) expect(ops).toContain(path);
});

test("the reference has no serious accessibility violations and is framed by no one", async ({ page }) => {
  test.setTimeout(120_000);
  const docs = new DocsPage(page);
  const response = await page.goto("/docs");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(docs.search()).toBeVisible();
  await expectNoSeriousViolations(page);
});
