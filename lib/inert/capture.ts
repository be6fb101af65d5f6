import { INERT_LIMITS } from "./document";

// The capture: what the service's browser drew, read out of the dashboard's frame once it has
// settled, for inertDocument() to rewrite. The renderer runs it there:
//
//   const captured: unknown = await frame.evaluate(CAPTURE_SCRIPT);
//   const html = inertDocument(captured);
//
// It is source text rather than a function so that it reaches the page exactly as written here,
// whatever the build does to functions (helpers a transpiler injects do not exist in the page).
//
// It runs where the dashboard's code ran, and that code may have replaced any built-in it calls,
// so what it returns proves nothing: inertDocument() treats every byte of it as hostile. What
// it does for an honest dashboard is keep what was drawn rather than what the markup said:
// - the DOM as it is now, with open shadow roots flattened (a slot shows what is assigned to it);
// - every style sheet's rules read back from the CSSOM (`cssRules`), so rules added with
//   insertRule and constructed or adopted sheets come too, a sheet's media list kept as @media;
// - each canvas as a PNG `<img>` in the same box, and images that are not already `data:`
//   PNG, JPEG, GIF or WebP (blob: URLs, SVG) redrawn as PNG;
// - form controls' current values written into their attributes (value, checked, selected), a
//   textarea's value as its text;
// - an open popover losing its `popover` attribute, which would otherwise hide it again;
// - the viewport width it was drawn at, the height drawn, the title, language and direction.
// It stops at INERT_LIMITS.maxInputChars and says `truncated`, so a page too large to show is
// refused as such rather than shown in part.

export const CAPTURE_SCRIPT = String.raw`(() => {
  "use strict";
  const MAX_CHARS = ${INERT_LIMITS.maxInputChars};
  const MAX_IMAGE = ${INERT_LIMITS.maxImageChars};
  const MAX_DEPTH = ${INERT_LIMITS.maxParseDepth - 16};
  const MAX_SIDE = 4096;
  const SKIP = new Set(["script", "style", "template", "noscript", "link", "meta", "base", "head", "title", "iframe", "object", "embed", "video", "audio"]);
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,/;
  const parts = [];
  const sheets = [];
  const seenSheets = new Set();
  let size = 0;
  let truncated = false;

  const count = (n) => {
    size += n;
    if (size > MAX_CHARS) truncated = true;
    return !truncated;
  };
  const push = (s) => {
    if (count(s.length)) parts.push(s);
  };
  const escText = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escAttr = (s) => escText(s).replace(/"/g, "&quot;");

  const sheetText = (sheet) => {
    let text = "";
    try {
      const rules = sheet.cssRules;
      for (let i = 0; i < rules.length; i++) text += rules[i].cssText + "\n";
    } catch (e) {
      return "";
    }
    const media = sheet.media ? sheet.media.mediaText : "";
    return media && media !== "all" ? "@media " + media + " {\n" + text + "}\n" : text;
  };
  const addSheets = (root) => {
    const lists = [root.styleSheets || [], root.adoptedStyleSheets || []];
    for (const list of lists) {
      for (let i = 0; i < list.length; i++) {
        const sheet = list[i];
        if (!sheet || sheet.disabled || seenSheets.has(sheet)) continue;
        seenSheets.add(sheet);
        const text = sheetText(sheet);
        if (text && count(text.length)) sheets.push(text);
      }
    }
  };

  const attributes = (el, skip) => {
    let s = "";
    const attrs = el.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i];
      if (skip && skip.has(a.name)) continue;
      s += " " + a.name + '="' + escAttr(a.value) + '"';
    }
    return s;
  };
  /** The element's own style followed by the box it was drawn in, so a picture takes its place exactly. */
  const boxStyle = (el) => {
    const own = (el.getAttribute("style") || "").trim();
    let display = "inline-block";
    try {
      display = getComputedStyle(el).display || display;
    } catch (e) {}
    return (own ? own.replace(/;?$/, "; ") : "") + "display: " + display + "; box-sizing: border-box; width: " + el.offsetWidth + "px; height: " + el.offsetHeight + "px; object-fit: fill";
  };
  const picture = (el, src, alt) => {
    const skip = new Set(["src", "srcset", "sizes", "style", "width", "height", "alt"]);
    push("<img" + attributes(el, skip) + (src && src.length <= MAX_IMAGE ? ' src="' + escAttr(src) + '"' : "") + ' alt="' + escAttr(alt) + '" width="' + el.offsetWidth + '" height="' + el.offsetHeight + '" style="' + escAttr(boxStyle(el)) + '">');
  };
  const redraw = (img) => {
    if (!img.complete || !img.naturalWidth || !img.naturalHeight) return "";
    const scale = Math.min(1, MAX_SIDE / img.naturalWidth, MAX_SIDE / img.naturalHeight);
    try {
      const c = document.createElement("canvas");
      c.width = Math.max(1, Math.round(img.naturalWidth * scale));
      c.height = Math.max(1, Math.round(img.naturalHeight * scale));
      c.getContext("2d").drawImage(img, 0, 0, c.width, c.height);
      return c.toDataURL("image/png");
    } catch (e) {
      return "";
    }
  };

  const children = (nodes, depth, leadingNewline) => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (i === 0 && leadingNewline && n.nodeType === 3 && n.data.charAt(0) === "\n") push("\n");
      node(n, depth);
    }
  };

  const node = (n, depth) => {
    if (truncated) return;
    if (n.nodeType === 3) {
      push(escText(n.data));
      return;
    }
    if (n.nodeType !== 1) return;
    const el = n;
    const name = el.localName;
    if (SKIP.has(name)) return;
    if (depth > MAX_DEPTH) {
      push(escText(el.textContent || ""));
      return;
    }
    if (name === "slot" && el.getRootNode() !== document) {
      const assigned = el.assignedNodes({ flatten: true });
      children(assigned.length ? assigned : el.childNodes, depth + 1, false);
      return;
    }
    if (name === "canvas") {
      let src = "";
      try {
        src = el.toDataURL("image/png");
      } catch (e) {}
      picture(el, src, (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 1000));
      return;
    }
    if (name === "img") {
      const current = el.currentSrc || el.src || "";
      picture(el, DATA_IMAGE.test(current) ? current : redraw(el), el.getAttribute("alt") || "");
      return;
    }
    let skip = null;
    let extra = "";
    if (name === "input") {
      skip = new Set(["value", "checked"]);
      extra = ' value="' + escAttr(el.value) + '"' + (el.checked ? " checked" : "");
    } else if (name === "option") {
      skip = new Set(["selected"]);
      extra = el.selected ? " selected" : "";
    } else if (name === "textarea") {
      skip = new Set(["value"]);
    }
    if (el.hasAttribute("popover")) {
      let open = false;
      try {
        open = el.matches(":popover-open");
      } catch (e) {}
      if (open) {
        skip = skip || new Set();
        skip.add("popover");
      }
    }
    push("<" + name + attributes(el, skip) + extra + ">");
    if (VOID.has(name)) return;
    if (name === "textarea") {
      const value = String(el.value);
      push((value.charAt(0) === "\n" ? "\n" : "") + escText(value));
    } else if (el.shadowRoot) {
      addSheets(el.shadowRoot);
      children(el.shadowRoot.childNodes, depth + 1, false);
    } else {
      children(el.childNodes, depth + 1, name === "pre" || name === "listing");
    }
    push("</" + name + ">");
  };

  addSheets(document);
  const root = document.documentElement;
  push("<html" + attributes(root, null) + ">");
  for (let i = 0; i < root.childNodes.length; i++) node(root.childNodes[i], 1);
  push("</html>");
  const body = document.body;
  const height = Math.max(root.getBoundingClientRect().height, body ? body.scrollHeight : 0);
  return {
    html: truncated ? "" : parts.join(""),
    css: truncated ? [] : sheets,
    width: window.innerWidth,
    height: Math.ceil(height),
    title: String(document.title || ""),
    lang: String(root.lang || ""),
    dir: String(root.dir || ""),
    truncated: truncated,
  };
})()`;
