import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { ConsentGate } from "@/components/dashboard-frame/ConsentGate";
import { SavedDashboards } from "@/components/landing/SavedDashboards";
import { SavedDashboardView } from "@/components/saved/SavedDashboardView";
import { TrustedAuthors } from "@/components/saved/TrustedAuthors";
import { WatchDraft } from "@/components/watch/WatchDraft";

// Names and titles that others chose, as the server renders them: each isolated in <bdi>, so a
// right-to-left one (here Hebrew, as a person may rightly write it) cannot reorder the words
// around it — "Watching", "By", the link to the space.

const RTL = "\u05d3\u05d5\u05f4\u05d7 \u05de\u05db\u05d9\u05e8\u05d5\u05ea";
const RTL_PERSON = "\u05d0\u05d1\u05d9\u05d2\u05d9\u05dc";

const html = (element: ReactElement) => renderToStaticMarkup(element);
const router = { push() {}, replace() {}, refresh() {}, back() {}, forward() {}, prefetch() {} };

describe("names others chose, isolated", () => {
  it("on the watch page's heading, from the first byte", () => {
    const out = html(createElement(WatchDraft, { id: "abcdefghijklmnopqrstuv", name: RTL, signedIn: false, saver: null, params: {} }));
    expect(out).toContain(`<h1 id="watch-title">Watching <bdi>${RTL}</bdi></h1>`);
  });

  it("on a saved dashboard's heading and its author's name", () => {
    const savedAt = new Date().toISOString();
    const view = createElement(SavedDashboardView, {
      path: "/~/avigail/sales",
      title: RTL,
      owner: { handle: "avigail", name: RTL_PERSON },
      latest: { revision: 1, savedAt },
      shown: { revision: 1, savedAt, html: "<p>x</p>", note: null },
      history: [],
      reads: { paths: [], complete: true },
      viewer: { csrf: "c", isOwner: false, trusted: false, starred: false, isHome: false },
      params: {},
    } as Parameters<typeof SavedDashboardView>[0]);
    const out = html(createElement(AppRouterContext.Provider, { value: router as never }, view));
    expect(out).toContain(`<h1 id="saved-title"><bdi>${RTL}</bdi></h1>`);
    expect(out).toContain(`By <bdi>${RTL_PERSON}</bdi> (<a href="/~/avigail">`);
  });

  it("in the question whether someone else's code may read the viewer's data", () => {
    const question = { author: { kind: "space", handle: "avigail", name: RTL_PERSON, trusted: false }, reads: { paths: ["/me"], complete: true }, agreed: [] } as const;
    const out = html(createElement(ConsentGate, { question, onAgree() {}, onDecline() {} } as unknown as Parameters<typeof ConsentGate>[0]));
    expect(out).toContain(`It was written by <bdi>${RTL_PERSON}</bdi> (<a href="/~/avigail">`);
  });

  it("in the start page's list of saved dashboards", () => {
    const out = html(createElement(SavedDashboards, { dashboards: [{ path: "/~/me/sales", slug: "sales", title: RTL, revision: 1, savedAt: new Date().toISOString() }], spaceHref: "/~/me" } as unknown as Parameters<typeof SavedDashboards>[0]));
    expect(out).toMatch(new RegExp(`<a [^>]*href="/~/me/sales"[^>]*><bdi>${RTL}</bdi></a>`));
  });

  it("in the list of trusted authors", () => {
    const out = html(createElement(TrustedAuthors, { initial: [{ handle: "avigail", name: RTL_PERSON, since: new Date().toISOString(), madeVia: "site" }], csrf: "c" }));
    expect(out).toContain(`<bdi>${RTL_PERSON}</bdi> (<a href="/~/avigail">`);
  });
});
