import { expect, test, type Frame, type Page } from "@playwright/test";
import { RENDER_VIEWPORTS } from "../lib/contract/renders";
import { dashboardExamples, exampleNamed } from "../demo/examples";
import { DraftAuthor } from "./support/watch-page";

// The gallery's examples are what authors copy, and a dashboard is opened on phones as often as
// on desks: at the service's phone size (the renderer's `phone` viewport), each one's own
// document inside the frame must fit its width, wide tables scrolling in their own box rather than
// the whole dashboard sideways. And one of them shows how a dashboard reads its window from the
// address (?p.days=…), so authors have a pattern to copy.

const PHONE = RENDER_VIEWPORTS.phone;
test.use({ viewport: { width: PHONE.width, height: PHONE.height }, isMobile: PHONE.mobile, hasTouch: PHONE.mobile });

async function dashboardDocument(page: Page): Promise<Frame> {
  const handle = await page.getByTestId("dashboard-frame").first().elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("the dashboard frame has no document");
  return frame;
}

/** Opens a draft of `html` as its static render, settled, and answers the dashboard's document. */
async function settled(page: Page, author: DraftAuthor, html: string, query = "", extra: Record<string, unknown> = {}): Promise<Frame> {
  const draft = await author.create(html, extra);
  await page.goto(`${new URL(draft.watchUrl).pathname}?static=1${query}`);
  // The static render marks itself once the dashboard has settled (its data arrived and painted).
  await expect(page.locator('[data-rendered="true"]')).toHaveCount(1, { timeout: 20_000 });
  const frame = await dashboardDocument(page);
  await expect(frame.locator("h1").first()).toBeVisible();
  return frame;
}

/** How far the dashboard's document reaches past its frame's width, and the elements that do. */
const sideways = (frame: Frame) =>
  frame.evaluate(() => {
    const width = window.innerWidth;
    // Inside a box that scrolls sideways by itself, reaching past the frame is that box's business.
    const inScroller = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(up).overflowX)) return true;
      }
      return false;
    };
    // Also what is cut off rather than scrolled: a body or box that hides its overflow.
    const past = [...document.body.querySelectorAll("*")]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 0.5 && !inScroller(el);
      })
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""}`)
      .slice(0, 5);
    return { width, overflow: Math.max(0, document.documentElement.scrollWidth - width), past };
  });

for (const example of dashboardExamples) {
  for (const scenario of ["default", "outage"]) {
    test(`the ${example.id} example fits a phone's width, scenario ${scenario}`, async ({ page, request }) => {
      const frame = await settled(page, new DraftAuthor(request), example.html, "", scenario === "default" ? {} : { scenario });
      const { width, overflow, past } = await sideways(frame);
      // The frame spans the phone (less the page's margins), so the check is at a phone's width.
      expect(width).toBeGreaterThan(PHONE.width - 80);
      expect(width).toBeLessThanOrEqual(PHONE.width);
      expect({ overflow, past }).toEqual({ overflow: 0, past: [] });
    });
  }
}

test.describe("the district health example's window from the address", () => {
  const html = exampleNamed("district-health")?.html ?? "";

  test("reads ?p.days and says which window it shows", async ({ page, request }) => {
    const asked: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith("/cx/districts")) asked.push(url.searchParams.get("days") ?? "");
    });
    const frame = await settled(page, new DraftAuthor(request), html, "&p.days=90");
    await expect(frame.locator("#window")).toHaveText(/last 90 days/);
    await expect(frame.locator("#window")).toContainText("p.days");
    expect(asked).toEqual(["90"]);
  });

  test("falls back to 30 days when the address names none, or one out of range", async ({ page, request }) => {
    const author = new DraftAuthor(request);
    let frame = await settled(page, author, html);
    await expect(frame.locator("#window")).toHaveText(/last 30 days/);
    frame = await settled(page, author, html, "&p.days=9999");
    await expect(frame.locator("#window")).toHaveText(/last 30 days/);
    await expect(frame.locator("#window")).toContainText("9999");
  });
});
