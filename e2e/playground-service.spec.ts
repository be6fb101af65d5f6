import { expect, test } from "@playwright/test";

// The playground service on the production server: an agent's HTTP calls, and a browser's own
// EventSource watching the draft.

const tricky = (n: number) => `<!doctype html>\n<title>rev ${n}</title>\r\n\r\n<p>event: not-an-event\ndata: not data\rid: 99</p>\u2028<script>const API = window.DASHBOARD_API_BASE || "/api";</script>`;

test("an agent creates and updates a draft; a browser's EventSource sees every revision byte-identical", async ({ page, request }) => {
  const created = await request.post("/dashboards/playground/draft", { data: { html: tricky(1), dash: "e2e-service" } });
  expect(created.status()).toBe(201);
  const draft = await created.json();
  expect(draft.revision).toBe(1);
  expect(new URL(draft.watchUrl).pathname).not.toContain(new URL(draft.postUrl).pathname.split("/").pop());

  await page.goto("/signin");
  await page.evaluate((url) => {
    const w = window as unknown as { __events: { id: string; data: string }[] };
    w.__events = [];
    const es = new EventSource(url);
    es.addEventListener("draft", (e) => w.__events.push({ id: (e as MessageEvent).lastEventId, data: (e as MessageEvent).data }));
  }, new URL(draft.eventsUrl).pathname);
  const events = () => page.evaluate(() => (window as unknown as { __events: { id: string; data: string }[] }).__events);
  await expect.poll(async () => (await events()).length).toBe(1);

  const postPath = new URL(draft.postUrl).pathname;
  for (let n = 2; n <= 4; n++) {
    const updated = await request.post(postPath, { headers: { "content-type": "text/html" }, data: tricky(n) });
    expect(updated.status()).toBe(200);
    expect((await updated.json()).revision).toBe(n);
  }
  await expect.poll(async () => (await events()).length).toBe(4);
  const seen = await events();
  expect(seen.map((e) => e.id)).toEqual(["1", "2", "3", "4"]);
  seen.forEach((e, i) => expect(JSON.parse(e.data).html).toBe(tricky(i + 1)));

  const current = await (await request.get(`/dashboards/playground/draft/${draft.id}`)).json();
  expect(current).toMatchObject({ revision: 4, dash: "e2e-service", html: tricky(4) });
});

test("writes from another site are refused; reads by id never authorise a write", async ({ request }) => {
  const draft = await (await request.post("/dashboards/playground/draft", { data: { html: "<p>x</p>" } })).json();
  const crossSite = await request.post(new URL(draft.postUrl).pathname, { headers: { "sec-fetch-site": "cross-site" }, data: { html: "<p>stolen</p>" } });
  expect([crossSite.status(), (await crossSite.json()).error]).toEqual([403, "cross_site_write"]);
  const byId = await request.post(`/dashboards/playground/draft/${draft.id}`, { data: { html: "<p>y</p>" } });
  expect([byId.status(), (await byId.json()).error]).toEqual([404, "no_such_draft"]);
});

test("the demo API, scenarios, endpoints and llms.txt answer", async ({ request }) => {
  expect((await request.get("/dashboards/playground/api/me")).status()).toBe(200);
  const signedOut = await request.get("/dashboards/playground/api/me?scenario=signed-out");
  expect([signedOut.status(), (await signedOut.json()).error]).toEqual([401, "unauthorized"]);
  expect((await (await request.get("/dashboards/playground/scenarios")).json()).default).toBe("default");
  expect((await (await request.get("/dashboards/playground/endpoints")).json()).endpoints.length).toBeGreaterThan(20);
  const llms = await request.get("/dashboards/playground/llms.txt");
  expect(llms.headers()["content-type"]).toContain("text/plain");
  expect(await llms.text()).toMatch(/^# Dashboards playground\n/);
});
