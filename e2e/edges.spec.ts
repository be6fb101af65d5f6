import { expect, test } from "@playwright/test";
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
