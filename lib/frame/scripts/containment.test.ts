import { describe, expect, it } from "vitest";
import { neutralise, partialTag } from "./containment";

// The renaming every HTML string passes before it becomes markup in the frame. The browser's own
// sinks and Trusted Types around it are exercised by e2e/frame-escape.spec.ts.

describe("the frame's markup renaming", () => {
  it("renames every frame-like element, opening and closing, in any case and namespace", () => {
    const cases: [string, string][] = [
      ["<iframe srcdoc=x></iframe>", "<x-blocked-iframe srcdoc=x></x-blocked-iframe>"],
      ["<FRAME><FrameSet>", "<x-blocked-FRAME><x-blocked-FrameSet>"],
      ["<object/><embed\tsrc=a>", "<x-blocked-object/><x-blocked-embed\tsrc=a>"],
      ["<fencedframe></portal>", "<x-blocked-fencedframe></x-blocked-portal>"],
      ["<svg:iframe>", "<svg:x-blocked-iframe>"],
      ["a <iframe", "a <x-blocked-iframe"],
    ];
    for (const [html, renamed] of cases) expect(neutralise(html), html).toBe(renamed);
  });

  it("leaves alone what only looks like one", () => {
    for (const html of ["<iframes>", "<p>iframe</p>", "<div data-frame=1>", "< iframe>", "<x-iframe>"]) expect(neutralise(html), html).toBe(html);
  });

  it("renames meta only where an http-equiv could be in play", () => {
    expect(neutralise('<meta charset="utf-8">')).toBe('<meta charset="utf-8">');
    expect(neutralise('<meta http-equiv="refresh" content="0;url=//x">')).toBe('<x-blocked-meta http-equiv="refresh" content="0;url=//x">');
    expect(neutralise('<META HTTP-EQUIV="Refresh"><meta charset="utf-8">')).toBe('<x-blocked-META HTTP-EQUIV="Refresh"><x-blocked-meta charset="utf-8">');
  });

  it("refuses XML entity declarations where markup may be parsed as XML, and takes any value as text", () => {
    expect(() => neutralise('<!DOCTYPE x [<!entity e "<iframe>">]>', true)).toThrow("Dashboards cannot declare XML entities");
    expect(neutralise("<!ENTITY is mentioned>")).toBe("<!ENTITY is mentioned>");
    expect(neutralise({ toString: () => "<embed>" })).toBe("<x-blocked-embed>");
  });

  it("finds a written chunk that ends inside what could become a blocked tag name", () => {
    for (const chunk of ["<ifr", "a<", "</obj", "<svg:fram", "<me", "<p><EMB"]) expect(partialTag(chunk), chunk).toBe(true);
    for (const chunk of ["<div", "<p>text", "<x-blocked-iframe", "<span class=a", "plain"]) expect(partialTag(chunk), chunk).toBe(false);
  });
});
