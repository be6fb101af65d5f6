import { expect, test, type Frame, type Page } from "@playwright/test";
import { dashboardExamples } from "../demo/examples";
import { expectNoSeriousViolations, seriousViolationsInFrame } from "./support/axe";
import { DraftAuthor } from "./support/watch-page";

// The gallery's examples are what authors copy: their own documents, inside the sandboxed frame,
// meet the same accessibility rules as the product's pages, under every demo scenario they
// render differently in.

async function dashboardDocument(page: Page): Promise<Frame> {
  const handle = await page.getByTestId("dashboard-frame").first().elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("the dashboard frame has no document");
  return frame;
}

for (const example of dashboardExamples) {
  for (const scenario of ["default", "signed-out", "outage", "first-sync"]) {
    test(`the ${example.id} example is accessible in its frame, scenario ${scenario}`, async ({ page, request }) => {
      const draft = await new DraftAuthor(request).create(example.html, scenario === "default" ? {} : { scenario });
      await page.goto(`${new URL(draft.watchUrl).pathname}?static=1`);
      // The static render marks itself once the dashboard has settled (its data arrived and painted).
      await expect(page.locator('[data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
      const frame = await dashboardDocument(page);
      await expect(frame.locator("h1").first()).toBeVisible();
      await expectNoSeriousViolations(frame);
    });
  }
}

test("the scan reaches into the frame: a dashboard's unlabelled image and button are reported", async ({ page, request }) => {
  const html = `<!doctype html><html lang="en"><title>Bad</title><h1>Bad</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button>`;
  const draft = await new DraftAuthor(request).create(html);
  await page.goto(`${new URL(draft.watchUrl).pathname}?static=1`);
  await expect(page.locator('[data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
  const found = (await seriousViolationsInFrame(await dashboardDocument(page))).map((v) => v.id);
  expect(found).toEqual(expect.arrayContaining(["image-alt", "button-name"]));
});
