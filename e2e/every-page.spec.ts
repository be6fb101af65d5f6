import { expect, test, type Page } from "@playwright/test";
import { accessibilityFindings } from "./support/axe";
import { ConsentGatePage } from "./support/consent";
import { PlaygroundEditorPage } from "./support/editor-page";
import { DraftAuthor, WatchPage } from "./support/watch-page";

// Every page, and every state a person brings a page into, at a desk and on a phone: no WCAG 2.2
// AA violation axe can find (at any impact), no serious or critical finding under any other axe
// rule, and every control on screen once scrolled to, so nothing a person needs sits past the
// edge of a phone.

const sizes = [
  { name: "1440×900", viewport: { width: 1440, height: 900 } },
  { name: "390×844", viewport: { width: 390, height: 844 } },
] as const;

type Size = (typeof sizes)[number]["name"];

/** Signs a demo person in through the same form a person uses, without leaving the test's page. */
async function signIn(page: Page, email: string): Promise<void> {
  const res = await page.request.post("/signin/demo", { form: { email }, maxRedirects: 0 });
  expect(res.status()).toBe(303);
}

const viewable = `<!doctype html>
<html lang="en"><title>Watched</title>
<h1>Watched</h1>
<p id="email">…</p>
<script>
  const API = window.DASHBOARD_API_BASE || "/api";
  fetch(API + "/me").then((r) => r.json()).then((me) => { document.getElementById("email").textContent = me.email; });
</script>
</html>`;

interface PageState {
  name: string;
  /** Only at this size (a state that exists only there). */
  only?: Size;
  open: (page: Page) => Promise<void>;
  /**
   * States a person reaches from this one on the same page, each checked in turn: the page is
   * loaded once for all of them, as a person would move through them.
   */
  then?: { name: string; only?: Size; reach: (page: Page, editor: PlaygroundEditorPage) => Promise<void> }[];
}

async function openEditor(page: Page, path?: string): Promise<PlaygroundEditorPage> {
  const editor = new PlaygroundEditorPage(page);
  await editor.open(path);
  await editor.showPane("Preview");
  await expect(editor.preview().locator("h1")).toHaveText("CX book");
  await editor.showPane("Code");
  return editor;
}

const states: PageState[] = [
  { name: "sign-in", open: async (page) => void (await page.goto("/signin")) },
  {
    name: "start page",
    open: async (page) => {
      await signIn(page, "csm@demo.test");
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    // Opened at an example that does not exist, so the notice saying so is on the page too.
    name: "editor",
    open: async (page) => {
      const editor = await openEditor(page, "/dashboards/playground?example=no-such-thing");
      await expect(editor.exampleNotice()).toContainText("no-such-thing");
      await expect(editor.noWarnings()).toBeVisible();
    },
    then: [
      {
        name: "examples and data",
        reach: async (page, editor) => {
          await editor.openDrawer();
          await expect(editor.drawer().getByRole("combobox").first()).toBeVisible();
        },
      },
      {
        name: "state matrix",
        reach: async (page, editor) => {
          // Escape, from inside the drawer, closes it and gives focus back to what opened it (the
          // walk over the controls above left focus on the page).
          await editor.drawer().getByRole("combobox").first().focus();
          await page.keyboard.press("Escape");
          await expect(editor.drawer()).toBeHidden();
          // On a phone the drawer opens from the More menu, whose button then holds focus.
          const opener = (page.viewportSize()?.width ?? Infinity) <= 640 ? "More" : "Examples & data";
          await expect(page.getByRole("button", { name: opener, exact: true })).toBeFocused();
          await editor.showMatrix();
          await expect(editor.cellFrame("rich").locator("#summary")).toContainText("counted once per district");
          await expect((await editor.seenCellFrame("outage")).locator("#status")).toContainText("internal_error");
        },
      },
      {
        name: "shortcuts",
        reach: async (page, editor) => {
          await editor.fromMenu("Shortcuts");
          await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
        },
      },
      {
        name: "More menu",
        reach: async (page, editor) => {
          await page.keyboard.press("Escape");
          await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
          await editor.more().click();
          // Focus is on the menu's first action (Examples & data on a phone, Format wider).
          await expect(page.locator(":focus")).toHaveAttribute("role", "menuitem");
        },
      },
      {
        name: "a message as a toast",
        reach: async (page, editor) => {
          await editor.menuItem("Format").click();
          await expect(editor.toast()).toBeVisible();
        },
      },
    ],
  },
  {
    name: "editor, save form open",
    open: async (page) => {
      await signIn(page, "member@demo.test");
      const editor = await openEditor(page);
      await editor.saveButton().click();
      await expect(editor.saveForm()).toBeVisible();
    },
  },
  {
    name: "watch page",
    open: async (page) => {
      const draft = await new DraftAuthor(page.request).create(viewable);
      await new WatchPage(page).open(draft.watchUrl);
      await expect(new WatchPage(page).dashboard().locator("#email")).toHaveText("csm@demo.test");
    },
  },
  {
    name: "watch page of a live draft, drawn by the site",
    open: async (page) => {
      const draft = await new DraftAuthor(page.request).create(viewable, { dataMode: "live" });
      await signIn(page, "admin@demo.test");
      await new WatchPage(page).open(draft.watchUrl);
      await expect(new WatchPage(page).drawn().locator("#email")).toHaveText("admin@demo.test", { timeout: 30_000 });
    },
  },
  {
    name: "watch page of a live draft made interactive, asking first",
    open: async (page) => {
      const draft = await new DraftAuthor(page.request).create(viewable, { dataMode: "live" });
      await signIn(page, "admin@demo.test");
      const watch = new WatchPage(page);
      await watch.open(draft.watchUrl);
      await watch.makeInteractive();
      await expect(new ConsentGatePage(page).gate()).toBeVisible();
    },
  },
  {
    name: "API reference",
    open: async (page) => {
      await page.goto("/docs");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "connections",
    open: async (page) => {
      await signIn(page, "member@demo.test");
      await page.goto("/connections");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "space",
    open: async (page) => {
      await signIn(page, "csm@demo.test");
      await page.goto("/~/csm");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "own saved dashboard",
    open: async (page) => {
      await signIn(page, "csm@demo.test");
      await page.goto("/~/csm/my-book");
      await expect(page.frameLocator('[data-testid="dashboard-frame"]').locator("h1")).toHaveText("CX book");
    },
  },
  {
    name: "someone else's saved dashboard, drawn by the site",
    open: async (page) => {
      // The member: the serial chains make the admin trust csm for a while (@csm-state).
      await signIn(page, "member@demo.test");
      await page.goto("/~/csm/my-book");
      await expect(page.frameLocator('[data-testid="safe-view-frame"]').locator("h1")).toHaveText("CX book", { timeout: 30_000 });
    },
  },
  {
    name: "someone else's saved dashboard made interactive, asking first",
    open: async (page) => {
      await signIn(page, "member@demo.test");
      await page.goto("/~/csm/my-book");
      await page.getByTestId("make-interactive").click();
      await expect(new ConsentGatePage(page).gate()).toBeVisible();
    },
  },
  {
    name: "a saved dashboard the viewer may not read all of",
    open: async (page) => {
      await signIn(page, "member@demo.test");
      await page.goto("/~/csm/my-book");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "missing page",
    open: async (page) => {
      await page.goto("/no-such-page");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
];

/**
 * Each visible control whose box sits past an edge of the window once a person scrolls to it: the
 * window's width always, and its height where the control is no taller than it. A control in the
 * page's own flow is reached by scrolling the page, so only its width is measured; one inside a
 * scrolling box or a fixed layer is scrolled into view first. Controls inside dashboard frames are
 * the author's; behind an open modal dialog nothing else can be reached. A skip link is measured
 * while focused, the only time it shows.
 */
function controlsOffScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      "a[href]",
      "button",
      "input:not([type=hidden])",
      "select",
      "textarea",
      "summary",
      "[contenteditable=true]",
      '[tabindex]:not([tabindex="-1"])',
      ...["button", "link", "tab", "radio", "checkbox", "switch", "menuitem", "option", "combobox", "slider"].map((r) => `[role=${r}]`),
    ].join(",");
    const width = document.documentElement.clientWidth;
    const height = window.innerHeight;
    const off: string[] = [];
    if (document.documentElement.scrollWidth > width) off.push(`the page scrolls sideways by ${document.documentElement.scrollWidth - width} px`);
    const modal = document.querySelector("dialog:modal");
    const contained = new Map<Element, boolean>();
    /** Inside a box that scrolls or clips, or a fixed layer: not reached by scrolling the page. */
    const inBox = (el: Element): boolean => {
      const parent = el.parentElement;
      if (!parent || parent === document.body) return false;
      const known = contained.get(parent);
      if (known !== undefined) return known;
      const style = getComputedStyle(parent);
      const result = style.position === "fixed" || style.position === "sticky" || /auto|scroll|hidden|clip/.test(`${style.overflowX} ${style.overflowY}`) || inBox(parent);
      contained.set(parent, result);
      return result;
    };
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (modal && !modal.contains(el)) continue;
      const skip = el.classList.contains("skip-link");
      if (skip) el.focus();
      else if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (el.closest("[inert]")) continue;
      let r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const boxed = inBox(el) || getComputedStyle(el).position === "fixed";
      if (boxed) {
        el.scrollIntoView({ block: "nearest", inline: "nearest" });
        r = el.getBoundingClientRect();
      }
      const across = r.left < -0.5 || r.right > width + 0.5;
      const down = boxed && r.height <= height && (r.top < -0.5 || r.bottom > height + 0.5);
      if (across || down) {
        const name = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
        off.push(`${el.tagName.toLowerCase()} "${name}" at x ${Math.round(r.left)}–${Math.round(r.right)}, y ${Math.round(r.top)}–${Math.round(r.bottom)}`);
      }
      if (skip) el.blur();
    }
    return off;
  });
}

for (const { name: size, viewport } of sizes) {
  test.describe(`at ${size}`, () => {
    test.use({ viewport });
    for (const state of states) {
      if (state.only && state.only !== size) continue;
      const then = (state.then ?? []).filter((s) => !s.only || s.only === size);
      const title = then.length ? `${state.name}, then ${then.map((s) => s.name).join(", ")}` : state.name;
      test(`${title}: no WCAG 2.2 AA violation, every control on screen`, async ({ page }) => {
        // axe and the walk each visit every element of the page, the API reference has thousands.
        test.setTimeout(60_000 * (1 + then.length));
        // Each state's findings are reported, and the states after it still checked.
        const check = async (name: string) => {
          expect.soft(await accessibilityFindings(page), name).toBe("");
          expect.soft(await controlsOffScreen(page), name).toEqual([]);
        };
        await test.step(state.name, async () => {
          await state.open(page);
          await check(state.name);
        });
        const editor = new PlaygroundEditorPage(page);
        for (const next of then) {
          await test.step(next.name, async () => {
            await next.reach(page, editor);
            await check(`${state.name}, ${next.name}`);
          });
        }
      });
    }
  });
}
