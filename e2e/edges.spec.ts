import { expect, test } from "@playwright/test";
import { FRAME_CSP } from "../lib/frame/bootstrap";
import { expectNoSeriousViolations } from "./support/axe";
import { DraftAuthor } from "./support/watch-page";

// What the production server answers at the playground's edges for methods a route does not
// take: the error envelope and Allow, never the framework's empty 405.

test("a method a playground route does not take answers the envelope with Allow", async ({ request }) => {
  const draft = await new DraftAuthor(request).create("<!doctype html><p>edge</p>");
  const writeToken = new URL(draft.postUrl).pathname.split("/").pop()!;
  const cases: [string, string, string][] = [
    ["PUT", `/dashboards/playground/draft/${writeToken}`, "GET, HEAD, POST"],
    ["PATCH", `/dashboards/playground/draft/${writeToken}`, "GET, HEAD, POST"],
    ["DELETE", `/dashboards/playground/draft/${draft.id}`, "GET, HEAD, POST"],
    ["GET", "/dashboards/playground/draft", "POST"],
    ["DELETE", "/dashboards/playground/draft", "POST"],
    ["POST", `/dashboards/playground/draft/${draft.id}/revisions`, "GET, HEAD"],
    ["PUT", `/dashboards/playground/draft/${draft.id}/events`, "GET, HEAD"],
  ];
  for (const [method, path, allow] of cases) {
    const res = await request.fetch(path, { method, headers: { connection: "close" } });
    expect(res.status(), `${method} ${path}`).toBe(405);
    expect(res.headers()["allow"], `${method} ${path}`).toBe(allow);
    expect(res.headers()["content-type"], `${method} ${path}`).toContain("application/json");
    expect(await res.json(), `${method} ${path}`).toEqual({ error: "method_not_allowed", hint: expect.any(String) });
  }
  // Nothing was changed by any of them.
  expect((await new DraftAuthor(request).current(draft)).revision).toBe(1);
});

test("every route file answers through the edge: methods it does not take, and HEAD, on the production server", async ({ request }) => {
  const cases: [string, string, string][] = [
    ["PUT", "/signout", "POST"],
    ["GET", "/signin/demo", "POST"],
    ["DELETE", "/account/favourites", "POST"],
    ["PUT", "/connections/tracker/connect", "GET, HEAD, POST"],
    ["POST", "/openapi.json", "GET, HEAD"],
    ["DELETE", "/dashboards/frame", "GET, HEAD"],
    ["PATCH", "/docs/index.md", "GET, HEAD"],
    ["POST", "/~/csm/my-book/source", "GET, HEAD"],
    ["OPTIONS", "/api/me", "GET, HEAD"],
  ];
  for (const [method, path, allow] of cases) {
    const res = await request.fetch(path, { method, headers: { connection: "close" }, maxRedirects: 0 });
    expect(res.status(), `${method} ${path}`).toBe(405);
    expect(res.headers()["allow"], `${method} ${path}`).toBe(allow);
    expect(await res.json(), `${method} ${path}`).toEqual({ error: "method_not_allowed", hint: expect.any(String) });
  }
  const head = await request.fetch("/dashboards/playground/llms.txt", { method: "HEAD", headers: { connection: "close" } });
  expect(head.status()).toBe(200);
  expect(head.headers()["content-type"]).toContain("text/plain");
  expect((await head.body()).byteLength).toBe(0);
});

test("a save path whose segment decodes to a stray percent escape is answered, not a failure", async ({ request }) => {
  // The router decodes %25E0 once, to the text "%E0"; the save route used to decode it again,
  // which threw before anything was checked (500 with an empty body).
  const res = await request.fetch("/~/member/%25E0", {
    method: "POST",
    headers: { "content-type": "text/html", connection: "close" },
    data: "<!doctype html><p>x</p>",
  });
  expect(res.status()).toBe(401);
  expect(await res.json()).toEqual({ error: "unauthorized", hint: expect.any(String) });
});

// What the framework would answer itself, before any route runs, answered as the routes do.

test("a path whose percent-encoding does not decode answers 400 invalid_path, never 500", async ({ request }) => {
  const cases: [string, string][] = [
    ["GET", "/api/%E0%A4%A"],
    ["GET", "/api/crm/%C0%AF/companies"],
    ["GET", "/dashboards/playground/api/%ED%A0%80"],
    ["GET", "/dashboards/playground/draft/%E0%A4%A"],
    ["POST", "/dashboards/playground/draft/%E0%A4%A"],
    ["GET", "/dashboards/playground/draft/%E0%A4%A/events"],
    ["GET", "/dashboards/playground/draft/%FF/revisions"],
    ["GET", "/~/member/%E0%A4%A"],
    ["POST", "/~/member/%E0%A4%A"],
    ["GET", "/~/%E0%A4%A/x/source"],
    ["GET", "/docs/%E0%A4%A"],
    ["POST", "/connections/%E0%A4%A/connect"],
    ["GET", "/stand-ins/%E0%A4%A/x"],
  ];
  for (const [method, path] of cases) {
    const res = await request.fetch(path, { method, headers: { connection: "close" }, maxRedirects: 0 });
    expect(res.status(), `${method} ${path}`).toBe(400);
    expect(res.headers()["content-type"], `${method} ${path}`).toContain("application/json");
    expect(await res.json(), `${method} ${path}`).toEqual({ error: "invalid_path", hint: expect.stringContaining("percent-encoded") });
  }
});

test("a JSON route's address spelled with a trailing slash or dot segments is served as the address itself; a page's redirects", async ({ request }) => {
  // Before, the framework answered a trailing slash with a 308 whose body was the new address as
  // text, and some dot segments with its HTML not-found page.
  for (const [method, path] of [
    ["GET", "/dashboards/playground/draft/.a/./revisions?limit=1"],
    ["GET", "/~/member/.a/./source?revision=1"],
    ["GET", "/api/me/"],
    ["GET", "/api/crm/customers/companies/?limit=1"],
    ["HEAD", "/dashboards/playground/scenarios/"],
    ["POST", "/account/home/"],
    ["POST", "/~/member/x/"],
    ["GET", "/~/member/x/source/"],
  ]) {
    const res = await request.fetch(path!, { method, headers: { connection: "close" }, maxRedirects: 0 });
    const bare = await request.fetch(path!.replace(/\/(?=\?|$)/, "").replace("/./", "/"), { method, headers: { connection: "close" }, maxRedirects: 0 });
    expect(res.status(), `${method} ${path}`).toBe(bare.status());
    expect(res.headers()["content-type"], `${method} ${path}`).toContain("application/json");
    if (method !== "HEAD") expect(await res.json(), `${method} ${path}`).toEqual(await bare.json());
  }
  const created = await request.post("/dashboards/playground/draft/", { data: { html: "<p>slash</p>" }, headers: { connection: "close" }, maxRedirects: 0 });
  expect(created.status()).toBe(201);
  const postPath = new URL((await created.json()).postUrl).pathname;
  const updated = await request.post(`${postPath}/`, { data: { html: "<p>slash 2</p>" }, headers: { connection: "close" }, maxRedirects: 0 });
  expect([updated.status(), (await updated.json()).revision]).toEqual([200, 2]);

  // Pages keep the redirect to their one address.
  const page = await request.get("/signin/?next=%2F", { maxRedirects: 0 });
  expect([page.status(), page.headers()["location"]]).toEqual([308, "/signin?next=%2F"]);
  const watch = await request.get("/dashboards/playground/", { maxRedirects: 0 });
  expect([watch.status(), watch.headers()["location"]]).toEqual([308, "/dashboards/playground"]);
});

test("an address no route answers under /account or the playground is the 404 envelope, not a page", async ({ request }) => {
  const cases: [string, string, Record<string, string>][] = [
    ["GET", "/account/nope", {}],
    ["POST", "/account/nope", { "content-type": "application/json" }],
    // A form post to a page is a server action to the framework: 409 text/plain without this.
    ["POST", "/account/nope", { "content-type": "multipart/form-data; boundary=x" }],
    ["GET", "/dashboards/playground/nope", {}],
    ["GET", "/dashboards/playground/draft/x/nope", {}],
    ["GET", "/dashboards/playground/draft/x/events/more", {}],
    // The save route is reached only through /~/<handle>/<slug>, whatever the spelling.
    ["POST", "/dashboards/save", {}],
    ["POST", "/dashboards/save/member/x/%2e%2e/%2e%2e", {}],
  ];
  for (const [method, path, headers] of cases) {
    const res = await request.fetch(path, { method, headers: { connection: "close", ...headers }, maxRedirects: 0, data: method === "POST" ? "--x--" : undefined });
    expect(res.status(), `${method} ${path}`).toBe(404);
    expect(res.headers()["content-type"], `${method} ${path}`).toContain("application/json");
    expect(await res.json(), `${method} ${path}`).toEqual({ error: "not_found", hint: expect.any(String) });
  }
  // The playground's pages are still pages.
  expect((await request.get("/dashboards/playground/llms.txt")).status()).toBe(200);
  expect((await request.get("/dashboards/playground")).headers()["content-type"]).toContain("text/html");
});

test("a route's own Content-Security-Policy survives; our pages get the page policy; framing stays denied", async ({ request }) => {
  const signedIn = await request.post("/signin/demo", { form: { email: "csm@demo.test" }, maxRedirects: 0, headers: { connection: "close" } });
  expect(signedIn.status()).toBe(303);

  // Before, next.config.mjs's `frame-ancestors 'none'` replaced each of these.
  const source = await request.get("/~/csm/my-book/source", { headers: { connection: "close" } });
  expect(source.status()).toBe(200);
  expect(source.headers()["content-security-policy"]).toBe("sandbox; default-src 'none'");
  expect(source.headers()["x-frame-options"]).toBe("DENY");

  const connect = await request.post("/connections/tracker/connect", { maxRedirects: 0, headers: { connection: "close" } });
  expect(connect.status()).toBe(303);
  const consent = await request.get(new URL(connect.headers()["location"]!).pathname + new URL(connect.headers()["location"]!).search, { headers: { connection: "close" } });
  expect(consent.status()).toBe(200);
  expect(consent.headers()["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");

  const frame = await request.get("/dashboards/frame", { headers: { connection: "close" } });
  expect(frame.headers()["content-security-policy"]).toBe(FRAME_CSP);
  expect(frame.headers()["x-frame-options"]).toBeUndefined();

  for (const path of ["/", "/signin", "/docs", "/connections", "/~/csm", "/~/csm/my-book", "/dashboards/playground", "/no-such-page"]) {
    const page = await request.get(path, { headers: { connection: "close" } });
    expect(page.headers()["content-type"], path).toContain("text/html");
    const policy = (page.headers()["content-security-policy"] ?? "").split(/;\s*/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"]) expect(policy, path).toContain(directive);
    expect(page.headers()["x-frame-options"], path).toBe("DENY");
  }
});

test("the sign-in page takes a repeated next as its first value", async ({ request }) => {
  // Given twice, ?next arrived as a list and the page threw (500).
  const res = await request.get("/signin?next=/docs&next=/b", { headers: { connection: "close" } });
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('name="next" value="/docs"');
});

test("an address no page answers is a 404 page in the site's own frame, with somewhere to go", async ({ page }) => {
  for (const path of ["/no/such/page", "/nope"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Nothing here" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(page).toHaveTitle("Not found · Dashboards");
  }
  await expect(page.getByTestId("not-found").getByRole("link", { name: "The start page" })).toHaveAttribute("href", "/");
  await expectNoSeriousViolations(page);
  await page.getByTestId("not-found").getByRole("link", { name: "The playground" }).click();
  await expect(page).toHaveURL("/dashboards/playground");
});
