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

test("the shared-districts scenario is listed, and its books and districts tell one story of who owns most", async ({ request }) => {
  const listed = (await (await request.get("/dashboards/playground/scenarios")).json()) as { scenarios: { name: string; description: string }[] };
  expect(listed.scenarios.find((s) => s.name === "shared-districts")?.description).toContain("Lakefield Public Schools is a tie");
  const api = async (path: string) => {
    const res = await request.get(`/dashboards/playground/api${path}${path.includes("?") ? "&" : "?"}scenario=shared-districts`);
    expect(res.status(), path).toBe(200);
    return ((await res.json()) as { data: unknown }).data;
  };
  const { owners } = (await api("/cx/owners")) as { owners: { ownerId: string; name: string }[] };
  const districts = new Set(((await api("/cx/districts")) as { rows: { name: string }[] }).rows.map((d) => d.name));
  const counts = new Map<string, Map<string, number>>();
  for (const o of owners) {
    for (const r of ((await api(`/cx/book?owner=${o.ownerId}`)) as { rows: { districtName: string }[] }).rows) {
      expect(districts.has(r.districtName), r.districtName).toBe(true);
      const c = counts.get(r.districtName) ?? new Map<string, number>();
      counts.set(r.districtName, c.set(o.name, (c.get(o.name) ?? 0) + 1));
    }
  }
  expect(Object.fromEntries(counts.get("Clear Crossing Independent School District") ?? [])).toEqual({ "Marcus Bell": 4, "Priya Raman": 2, "Casey Morgan": 2 });
  expect(Object.fromEntries(counts.get("Lakefield Public Schools") ?? [])).toEqual({ "Casey Morgan": 1, "Elena Voss": 1 });
});

test("an agent checks without publishing, then changes only the scenario, and a blank document publishes nothing", async ({ request }) => {
  const html = '<!doctype html><html><head><title>Book</title></head><body><script>fetch(window.DASHBOARD_API_BASE + "/cx/owners").then((r) => r.json())</script></body></html>';
  const checked = await request.post("/dashboards/playground/check", { data: { html } });
  expect(checked.status()).toBe(200);
  const check = await checked.json();
  expect(check.reads.paths).toEqual(["/cx/owners"]);
  expect(Array.isArray(check.warnings)).toBe(true);
  const brokenCheck = await (await request.post("/dashboards/playground/check", { headers: { "content-type": "text/html" }, data: "<script>if (</script>" })).json();
  expect(brokenCheck.warnings.map((w: { rule: string }) => w.rule)).toContain("js-syntax");

  const draft = await (await request.post("/dashboards/playground/draft", { data: { html, examples: { "/cx/owners": "empty" } } })).json();
  const postPath = new URL(draft.postUrl).pathname;
  const switched = await request.post(postPath, { data: { scenario: "outage" } });
  expect(switched.status()).toBe(200);
  expect((await switched.json()).revision).toBe(2);
  expect(await (await request.get(`/dashboards/playground/draft/${draft.id}`)).json()).toMatchObject({
    revision: 2,
    html,
    scenario: "outage",
    examples: { "/cx/owners": "empty" },
  });

  const blank = await request.post(postPath, { data: { html: "<!-- later -->" } });
  expect(blank.status()).toBe(400);
  expect(await blank.json()).toEqual({
    error: "invalid_draft",
    hint: "html: the document is empty (nothing but whitespace and comments), so nothing was published; send the dashboard's HTML.",
  });
  const bad = await request.post(`${postPath}?baseRevision=abc`, { headers: { "content-type": "text/html" }, data: "<p>x</p>" });
  expect((await bad.json()).hint).toMatch(/^baseRevision: must be a positive integer/);
  expect((await (await request.get(`/dashboards/playground/draft/${draft.id}`)).json()).revision).toBe(2);
});
