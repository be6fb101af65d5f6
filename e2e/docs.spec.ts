import { expect, test } from "@playwright/test";
import { z } from "zod";
import { endpoints, errorsOf, type EndpointDef } from "../lib/contract/endpoints";
import { docsSections } from "../lib/reference/sections";
import { expectWcagAaClean } from "./support/axe";
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

const sectionSlugs = docsSections.map((s) => s.slug);
/** Each page of the reference, the index and every section. */
const pagePaths = ["/docs", ...sectionSlugs.map((s) => `/docs/${s}`)];
const PAGE_MAX_BYTES = 250_000;

test("every registry endpoint, field and error code is on a section page, and every example parses with its schema", async ({ page, request }) => {
  // Twelve pages, each read whole; minutes on the shared two-core machine under load.
  test.setTimeout(240_000);
  const docs = new DocsPage(page);
  const seen = new Set<string>();
  for (const slug of sectionSlugs) {
    await docs.openSection(slug);
    const ids = await page.locator("article[data-registry-id]").evaluateAll((els) => els.map((el) => el.getAttribute("data-registry-id") ?? ""));
    for (const id of ids) {
      const e = endpoints.find((x) => x.id === id) as EndpointDef | undefined;
      expect(e, `${id} is a registry endpoint`).toBeDefined();
      if (!e) continue;
      seen.add(id);
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
  }
  expect([...seen].sort()).toEqual(endpoints.map((e) => e.id).sort());

  // The examples are the demo API's own answers.
  await docs.openSection("me");
  const me = JSON.parse((await docs.facts("me")).example ?? "null");
  expect(me).toEqual(await (await request.get("/dashboards/playground/api/me")).json());

  // Saving is documented from the contract's decisions, with no curl line.
  await docs.openSection("saving");
  const save = await docs.facts("saving.save");
  expect(save.errors).toEqual(["invalid_slug", "empty_dashboard", "invalid_dashboard", "dashboard_uses_webrtc", "unauthorized", "forbidden", "method_not_allowed", "payload_too_large", "unsupported_media_type"]);
  expect(save.fields).toEqual(expect.arrayContaining(["path", "revision", "savedAt"]));
  await expect(docs.operation("saving.save")).toContainText("No curl or fetch snippet");
  await expect(docs.operation("saving.save").locator("code[id$='-curl']")).toHaveCount(0);
  await docs.openSection("playground");
  for (const id of ["playground.createDraft", "playground.updateDraft"]) await expect(docs.operation(id)).toHaveCount(1);
  await docs.openSection("demo-api");
  await expect(docs.operation("playground.demoApi")).toHaveCount(1);
  await docs.openSection("events");
  await expect(docs.operation("playground.draftEvents")).toHaveCount(1);
});

test("the index lists conventions first, then the endpoints, the playground, events, saving, connecting an MCP host, and health and metrics", async ({ page }) => {
  test.setTimeout(60_000);
  const docs = new DocsPage(page);
  await docs.open();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  await expect(docs.sectionLinks()).toHaveText([
    "Conventions",
    "Profile, favourites and home",
    "Connection checks",
    "CRM",
    "Outside systems",
    "Customer messaging and the CRM portal",
    "Customer success",
    "Playground",
    "Demo API and agent tools",
    "Render reports and renders",
    "Events",
    "Saving a dashboard",
    "Connecting an MCP host",
    "Health and metrics",
  ]);
  await docs.sectionLinks().filter({ hasText: "Health and metrics" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/docs\/operations$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Health and metrics");
  for (const id of ["operations.healthz", "operations.readyz", "operations.metrics"]) await expect(docs.operation(id)).toHaveCount(1);
  await expect(docs.operation("operations.metrics")).toContainText("METRICS_TOKEN");
  await expect(docs.operation("operations.metrics")).toContainText("playground_event_streams_open");

  // What an MCP host reads to connect: the metadata, registration, consent, tokens and revocation.
  await docs.openSection("oauth");
  for (const id of ["oauth.protectedResource", "oauth.authorizationServer", "oauth.register", "oauth.authorize", "oauth.answer", "oauth.token", "oauth.revoke", "oauth.disconnect"]) {
    await expect(docs.operation(id)).toHaveCount(1);
  }
  await expect(docs.operation("oauth.token")).toContainText("code_verifier");
  await expect(docs.operation("oauth.token")).toContainText("error_description");

  await docs.openSection("conventions");
  const conventions = docs.section("conventions");
  for (const id of ["api-base", "sign-in", "error-envelope", "cursor-paging", "cx-wrapper", "district-arr", "activity-basis", "priority", "freshness"]) {
    await expect(conventions.locator(`h2#${id}`)).toHaveCount(1);
  }
  await expect(conventions).toContainText("window.DASHBOARD_API_BASE");
  await expect(conventions).toContainText("not an SLA");
  await expect(conventions).toContainText("fresh for 30 seconds");
  await expect(page.getByRole("banner").getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
  // Every section page carries the contents of them all.
  await expect(docs.sidebar().getByRole("link", { name: "Customer success" })).toHaveAttribute("href", "/docs/cx");
  await expect(docs.sidebar().getByRole("link", { name: "Conventions" })).toHaveAttribute("aria-current", "page");
});

test("every page of the reference is at most 250 KB of HTML", async ({ request }) => {
  for (const path of pagePaths) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["content-type"], path).toContain("text/html");
    const bytes = (await res.body()).byteLength;
    expect(bytes, `${path}: ${bytes} bytes`).toBeLessThanOrEqual(PAGE_MAX_BYTES);
  }
  expect((await request.get("/docs/no-such-section")).status()).toBe(404);
});

/** Types a query, waits for a result of `kind` whose text matches `name`, chooses it with the keyboard, and opens it with Enter. */
async function searchAndOpen(docs: DocsPage, query: string, kind: string, name: RegExp): Promise<void> {
  await docs.search().fill(query);
  await expect(docs.search()).toHaveAttribute("aria-expanded", "true");
  const options = docs.results();
  await expect(options.first()).toBeVisible();
  const found = await options.evaluateAll((els) => els.map((el) => ({ kind: el.getAttribute("data-kind"), text: el.textContent ?? "" })));
  const texts = found.map((f) => `${f.kind}: ${f.text}`);
  const at = found.findIndex((f) => f.kind === kind && name.test(f.text));
  expect(at, `${query}: ${texts.join(" | ")}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= at; i++) await docs.search().press("ArrowDown");
  await expect(options.nth(at)).toHaveAttribute("aria-selected", "true");
  await expect(docs.search()).toHaveAttribute("aria-activedescendant", (await options.nth(at).getAttribute("id")) ?? "");
  await docs.search().press("Enter");
}

test("search finds a field, an error code and a word of prose, and Enter opens the place with the match marked", async ({ page }) => {
  test.setTimeout(90_000);
  const docs = new DocsPage(page);
  await docs.open();

  await searchAndOpen(docs, "waitingOn", "field", /^(?:\S*\.)?waitingOn/);
  await expect(page).toHaveURL(/\/docs\/[a-z]+#[a-z0-9-]+--[0-9-]+-[A-Za-z0-9_-]*waitingOn/);
  const fieldRow = page.locator(":target");
  await expect(fieldRow).toHaveAttribute("data-field", /waitingOn$/);
  await expect(fieldRow).toBeInViewport();
  await expect.poll(() => docs.highlighted()).toBe("waitingOn");

  await searchAndOpen(docs, "calls_not_opted_in", "error", /^calls_not_opted_in/);
  await expect(page).toHaveURL(/#[a-z0-9-]+--error-calls_not_opted_in$/);
  await expect(page.locator(":target")).toHaveAttribute("data-error-code", "calls_not_opted_in");
  await expect(page.locator(":target")).toBeInViewport();
  await expect.poll(() => docs.highlighted()).toBe("calls_not_opted_in");

  // A word of a paragraph.
  await searchAndOpen(docs, "heuristic", "prose", /heuristic/i);
  await expect(page).toHaveURL(/\/docs\/[a-z]+#[a-z0-9-]+$/);
  await expect.poll(() => docs.highlighted()).toMatch(/^heuristic$/i);
  const markVisible = await page.evaluate(() => {
    const range = [...(CSS.highlights.get("docs-search") ?? [])][0];
    const r = range instanceof Range ? range.getBoundingClientRect() : null;
    return r !== null && r.top >= 0 && r.bottom <= window.innerHeight;
  });
  expect(markVisible).toBe(true);

  // Escape closes the list, then clears the box; nothing found says so.
  await docs.search().fill("zzzz-no-such-thing");
  await expect(page.getByRole("status").filter({ hasText: "Nothing matches" })).toBeVisible();
  await docs.search().fill("waitingOn");
  await expect(docs.search()).toHaveAttribute("aria-expanded", "true");
  await docs.search().press("Escape");
  await expect(docs.search()).toHaveAttribute("aria-expanded", "false");
  await docs.search().press("Escape");
  await expect(docs.search()).toHaveValue("");
});

test("the search's placeholder fits its box, on a desktop and on a phone", async ({ page }) => {
  const docs = new DocsPage(page);
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await docs.openSection("cx");
    const fit = await docs.search().evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement("canvas").getContext("2d");
      if (!ctx) return { text: 0, box: 0 };
      ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const box = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: ctx.measureText(input.placeholder).width, box };
    });
    expect(fit.text, `${viewport.width}px`).toBeGreaterThan(0);
    expect(fit.text, `${viewport.width}px`).toBeLessThanOrEqual(fit.box);
  }
});

test("deep links target an endpoint, old single-page links reach their section, and the sidebar links its operations", async ({ page }) => {
  test.setTimeout(90_000);
  const docs = new DocsPage(page);
  await docs.openSection("crm", "#get-crm-instance-companies");
  const companies = page.locator("#get-crm-instance-companies");
  await expect(companies).toBeInViewport();
  expect(await page.evaluate(() => document.querySelector(":target")?.id)).toBe("get-crm-instance-companies");

  // The reference used to be one page: its anchors still work, moved on to their section.
  await docs.open("#get-cx-book");
  await expect(page).toHaveURL(/\/docs\/cx#get-cx-book$/);
  await expect(page.locator("#get-cx-book")).toBeInViewport();
  await docs.open("#cursor-paging");
  await expect(page).toHaveURL(/\/docs\/conventions#cursor-paging$/);
  await expect(page.locator("h2#cursor-paging")).toBeInViewport();

  await docs.openSection("cx");
  await docs.sidebar().getByRole("link", { name: "GET /cx/districts" }).click();
  await expect(page).toHaveURL(/\/docs\/cx#get-cx-districts$/);
  await expect(page.locator("#get-cx-districts")).toBeInViewport();
  // Prose that names a place in another section links to that section's page.
  await expect(docs.section("cx").getByRole("link", { name: "the CX wrapper" })).toHaveAttribute("href", "/docs/conventions#cx-wrapper");
});

test("try it runs the request against the demo API and shows the answer", async ({ page }) => {
  const docs = new DocsPage(page);
  await docs.openSection("me", "#get-me");
  const tryMe = docs.tryIt("me");
  await expect(tryMe.request).toHaveValue("/me");
  await tryMe.run.click();
  await expect(tryMe.status).toContainText("200");
  expect(JSON.parse((await tryMe.result.textContent()) ?? "")).toMatchObject({ email: expect.stringContaining("@") });

  await tryMe.scenario.selectOption("signed-out");
  await tryMe.run.click();
  await expect(tryMe.status).toContainText("401");
  expect(JSON.parse((await tryMe.result.textContent()) ?? "")).toMatchObject({ error: "unauthorized" });

  await docs.openSection("cx", "#get-cx-book");
  const book = docs.tryIt("cx.book");
  await book.request.fill("/cx/book");
  await book.run.click();
  await expect(book.status).toContainText("400");
  await expect(book.result).toContainText("owner_required");
});

test("copy buttons copy their snippet and say so", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const docs = new DocsPage(page);
  await docs.openSection("me", "#get-me");
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
  await docs.openSection("cx");
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

// Each page is loaded once and measured at a desk, then on a phone: the reference is drawn on the
// server and laid out by its style sheet alone, so narrowing the window is a phone's layout.
for (const path of pagePaths) {
  test(`${path} passes axe (WCAG 2.2 AA) at 1440×900 and 390×844, with no control outside the screen`, async ({ page }) => {
    test.setTimeout(120_000);
    const docs = new DocsPage(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await expect(docs.search()).toBeVisible();
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expect(docs.search()).toBeVisible();
      await expectWcagAaClean(page);
      // A control parked off screen until it has focus (the skip link) is measured with focus.
      const outside = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out = (el: HTMLElement) => {
          const r = el.getBoundingClientRect();
          return r.left < -1 || r.right > width + 1;
        };
        return [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [tabindex]")]
          .filter((el) => el.getClientRects().length > 0)
          .filter((el) => {
            if (!out(el)) return false;
            el.focus({ preventScroll: true });
            const still = out(el);
            el.blur();
            return still;
          })
          .map((el) => el.outerHTML.slice(0, 120));
      });
      expect(outside, `at ${viewport.width}px`).toEqual([]);
      // Names in the reference's tables (error codes, fields, parameters) are never broken
      // inside a word: on a phone the rows stack, and a name wraps only at its dots.
      const broken = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("table tbody th code")]
          .filter((el) => !el.textContent!.includes(".") && el.getClientRects().length > 1)
          .map((el) => el.textContent),
      );
      expect(broken, `names broken at ${viewport.width}px`).toEqual([]);
    }
  });
}
