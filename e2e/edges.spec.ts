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
