import { Parser } from "htmlparser2";
import { FRAME_HEIGHT_MAX } from "@/lib/frame/protocol";
import { sanitizeDeclarations, sanitizePropertyValue, sanitizeStylesheet } from "./css";
import { INERT_CSP } from "./policy";

// The inert document: what the service's browser drew of a dashboard, turned into a document with
// no script and no way to start a request, for the viewer's browser to show.
//
// What comes in is untrusted in every part. The capture ran in the dashboard's own page, whose
// code may have changed any built-in it calls, so its markup is only a suggestion: it is parsed
// into a tree and a new document is written from that tree, element by element and attribute by
// attribute from allow-lists, with every text and attribute value escaped and every style
// rewritten by ./css.ts. Nothing of the input's markup is passed through as text, so a parsing
// difference between this parser and the browser's can change how the input is read, never what
// the output may contain: the browser finds only the elements and attributes written here.

/** What the capture script hands over (see ./capture.ts); any of it may be forged. */
interface CapturedDocument {
  /** `<html …><body …>…</body></html>` as drawn: open shadow roots flattened, canvases as `<img>`, controls' values in their attributes. */
  html: string;
  /** Each style sheet's rules as CSS text, in the order they apply. */
  css: string[];
  /** The viewport width it was drawn at, in CSS pixels. */
  width: number;
  /** The height of what was drawn, in CSS pixels (0 to FRAME_HEIGHT_MAX). */
  height: number;
  title: string;
  lang: string;
  dir: string;
}

interface InertOptions {
  /** The document's language when the capture names none (or none that is well formed). */
  lang?: string;
  /** The document's title, instead of the one drawn. */
  title?: string;
  /** Longest capture taken, in UTF-16 code units, markup and style sheets together. */
  maxInputChars?: number;
  /** Longest document made. */
  maxOutputChars?: number;
  /** Longest `data:` address of one image. */
  maxImageChars?: number;
  /**
   * The address an `<a href>` keeps, or null for a link written as its text: what the drawing's
   * answers named (lib/frame/links.ts). Without it no link is kept.
   */
  link?: (href: string) => string | null;
}

export const INERT_LIMITS = {
  maxInputChars: 8 * 1024 * 1024,
  maxOutputChars: 12 * 1024 * 1024,
  maxImageChars: 3 * 1024 * 1024,
  /** Style sheets read from one capture. */
  maxSheets: 2_000,
  /** Elements nested deeper than this are written as their text. */
  maxDepth: 256,
  /**
   * Markup nested deeper than this is refused: the parser's cost grows with the depth at every
   * tag (a capture nests no deeper, see ./capture.ts, nor does markup Chromium parsed).
   */
  maxParseDepth: 512,
  /** The drawn width kept, in CSS pixels. */
  minWidth: 120,
  maxWidth: 7_680,
} as const;

type InertErrorCode = "capture_malformed" | "capture_too_large" | "document_too_large";

export class InertDocumentError extends Error {
  constructor(
    readonly code: InertErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "InertDocumentError";
  }
}

const text = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);

/** The capture's shape checked and bounded; throws InertDocumentError. */
export function readCapture(value: unknown, options: InertOptions = {}): CapturedDocument {
  const maxInput = options.maxInputChars ?? INERT_LIMITS.maxInputChars;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new InertDocumentError("capture_malformed", "the capture is not an object");
  const v = value as Record<string, unknown>;
  if (v.truncated === true) throw new InertDocumentError("capture_too_large", "the drawn page was larger than a capture may be");
  if (typeof v.html !== "string") throw new InertDocumentError("capture_malformed", "the capture has no markup");
  const css = v.css ?? [];
  if (!Array.isArray(css) || !css.every((s) => typeof s === "string")) throw new InertDocumentError("capture_malformed", "the capture's style sheets are not a list of text");
  if (css.length > INERT_LIMITS.maxSheets) throw new InertDocumentError("capture_too_large", `the capture has more than ${INERT_LIMITS.maxSheets} style sheets`);
  const title = text(v.title);
  const size = (v.html as string).length + title.length + (css as string[]).reduce((n, s) => n + s.length, 0);
  if (size > maxInput) throw new InertDocumentError("capture_too_large", `the capture is ${size} characters, more than ${maxInput}`);
  const num = (n: unknown, lo: number, hi: number, fallback: number) => (typeof n === "number" && Number.isFinite(n) ? Math.min(hi, Math.max(lo, Math.round(n))) : fallback);
  return {
    html: v.html as string,
    css: css as string[],
    width: num(v.width, INERT_LIMITS.minWidth, INERT_LIMITS.maxWidth, 1280),
    height: num(v.height, 0, FRAME_HEIGHT_MAX, 0),
    title,
    lang: text(v.lang),
    dir: text(v.dir),
  };
}

// --- The tree ---------------------------------------------------------------------------------

interface El {
  name: string;
  attrs: Map<string, string>;
  children: Node[];
}
type Node = El | string;

function parseTree(html: string): El {
  const root: El = { name: "#root", attrs: new Map(), children: [] };
  const stack: El[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stack.length > INERT_LIMITS.maxParseDepth) throw new InertDocumentError("capture_malformed", `the markup nests deeper than ${INERT_LIMITS.maxParseDepth} elements`);
        const el: El = { name, attrs: new Map(Object.keys(attribs).map((k) => [k, attribs[k] ?? ""])), children: [] };
        stack[stack.length - 1]!.children.push(el);
        stack.push(el);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
      ontext(data) {
        const kids = stack[stack.length - 1]!.children;
        const last = kids[kids.length - 1];
        if (typeof last === "string") kids[kids.length - 1] = last + data;
        else kids.push(data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false, recognizeCDATA: false },
  );
  parser.write(html);
  parser.end();
  return root;
}

/** Every text under `node` (but in what is dropped with its content), in order, without recursion: deep trees are the input's to choose. */
function textOf(node: El): string {
  const out: string[] = [];
  const todo: Node[] = [...node.children].reverse();
  while (todo.length) {
    const n = todo.pop()!;
    if (typeof n === "string") out.push(n);
    else if (!DROPPED_HTML.has(n.name) && n.name !== "style") for (let k = n.children.length - 1; k >= 0; k--) todo.push(n.children[k]!);
  }
  return out.join("");
}

const NAMED_REFERENCES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * A textarea's text as the browser reads it (the parser used here leaves its character references
 * as written): numeric references and the few named ones a serialiser writes.
 */
function decodeCharacterReferences(s: string): string {
  return s.replace(/&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|(amp|lt|gt|quot|apos|nbsp));?/g, (whole, dec?: string, hex?: string, name?: string) => {
    if (name) return NAMED_REFERENCES[name] ?? whole;
    const cp = dec ? parseInt(dec, 10) : parseInt(hex ?? "", 16);
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : "\ufffd";
  });
}

// --- Writing ----------------------------------------------------------------------------------

// C0 and C1 controls but tab and newline, and lone surrogates: never meaningful text.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const clean = (s: string) => s.replace(/\r\n?/g, "\n").replace(CONTROL, "");
const escapeText = (s: string) => clean(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, "&quot;");

/** Elements written as they are, with the attributes their entry allows beyond the global ones. */
const HTML_ELEMENTS: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    [
      "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "li", "dl", "dt", "dd", "div", "span", "section", "article", "header",
      "footer", "main", "nav", "aside", "figure", "figcaption", "hgroup", "address", "strong", "em", "b", "i", "u", "s", "small",
      "mark", "code", "pre", "kbd", "samp", "sub", "sup", "abbr", "cite", "dfn", "var", "bdi", "bdo", "ruby", "rt", "rp", "br",
      "wbr", "hr", "blockquote", "q", "summary", "label", "table", "caption", "thead", "tbody", "tfoot", "tr",
    ].map((n) => [n, [] as const]),
  ),
  ol: ["start", "reversed", "type"],
  li: ["value"],
  td: ["colspan", "rowspan", "headers"],
  th: ["colspan", "rowspan", "headers", "scope", "abbr"],
  col: ["span", "width"],
  colgroup: ["span", "width"],
  time: ["datetime"],
  del: ["datetime"],
  ins: ["datetime"],
  details: ["open"],
  progress: ["value", "max"],
  meter: ["value", "min", "max", "low", "high", "optimum"],
  img: ["src", "alt", "width", "height"],
};
/** Elements written under another name, keeping their content: no button, no form, and no link but those `link` keeps. */
const HTML_RENAMED: Record<string, string> = {
  a: "span",
  button: "span",
  form: "div",
  fieldset: "div",
  legend: "div",
  search: "div",
  center: "div",
  dialog: "div",
  menu: "ul",
  strike: "s",
  font: "span",
  big: "span",
  tt: "span",
  nobr: "span",
  output: "span",
  data: "span",
  picture: "span",
  slot: "span",
  xmp: "pre",
  listing: "pre",
};
/** Elements dropped with everything inside them. */
const DROPPED_HTML = new Set([
  "script", "template", "noscript", "iframe", "frame", "frameset", "object", "embed", "applet", "portal", "fencedframe",
  "noembed", "noframes", "math", "video", "audio", "canvas", "map", "area", "link", "meta", "base", "source", "track",
  "param", "datalist", "option", "optgroup", "head", "basefont", "bgsound", "keygen", "image", "webview", "model",
]);
const VOID = new Set(["br", "wbr", "hr", "img", "col"]);
// A custom element's name, inert here: no script can define it. The names SVG and MathML use are not.
const CUSTOM_ELEMENT = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;
const RESERVED_CUSTOM = new Set(["annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri", "font-face-format", "font-face-name", "missing-glyph"]);

const SVG_ELEMENTS: Record<string, string> = Object.fromEntries(
  ["svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "title", "desc", "defs", "linearGradient", "radialGradient", "stop", "clipPath", "marker", "pattern", "symbol"].map((n) => [n.toLowerCase(), n]),
);
/** SVG containers kept for their content under another name. */
const SVG_RENAMED: Record<string, string> = { a: "g", switch: "g" };

/** SVG presentation attributes: read as CSS values, so they go through the same rules as CSS. */
const SVG_PRESENTATION = new Set([
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap", "stroke-linejoin",
  "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "color", "display", "visibility", "font-family",
  "font-size", "font-weight", "font-style", "font-variant", "font-stretch", "text-anchor", "dominant-baseline",
  "alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing", "text-decoration", "writing-mode", "direction",
  "unicode-bidi", "clip-path", "clip-rule", "marker-start", "marker-mid", "marker-end", "stop-color", "stop-opacity",
  "vector-effect", "shape-rendering", "text-rendering", "image-rendering", "color-interpolation", "paint-order", "overflow",
  "transform-origin",
]);
/** SVG geometry: numbers, lengths, path data and keywords, never a bracket, quote or backslash. */
const SVG_GEOMETRY: Record<string, string> = Object.fromEntries(
  [
    "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "width", "height", "d", "points", "dx", "dy",
    "rotate", "textLength", "lengthAdjust", "viewBox", "preserveAspectRatio", "offset", "gradientUnits", "spreadMethod",
    "patternUnits", "patternContentUnits", "clipPathUnits", "markerWidth", "markerHeight", "markerUnits", "refX", "refY",
    "orient", "pathLength",
  ].map((n) => [n.toLowerCase(), n]),
);
const SVG_TRANSFORMS: Record<string, string> = { transform: "transform", gradienttransform: "gradientTransform", patterntransform: "patternTransform" };
const GEOMETRY_VALUE = /^[0-9A-Za-z.,+\-%\s]*$/;
const TRANSFORM_VALUE = /^(?:[\s,]*(?:matrix|translate|scale|rotate|skewX|skewY)\s*\([0-9eE.,+\-\s]*\))*[\s,]*$/;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^\d{1,4}$/;
const LENGTH = /^\d{1,5}(?:\.\d+)?%?$/;
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;
const IMAGE_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;

/** A global attribute's value as kept, or null when it is not kept (any element may carry these). */
function globalAttribute(name: string, value: string): string | null {
  switch (name) {
    case "class":
    case "id":
    case "title":
      return value.length <= 4096 ? value : null;
    case "role":
      return /^[a-z][a-z ]{0,99}$/.test(value) ? value : null;
    case "lang":
      return value === "" || LANG.test(value) ? value : null;
    case "dir":
      return /^(?:ltr|rtl|auto)$/i.test(value) ? value.toLowerCase() : null;
    case "hidden":
      return value.toLowerCase() === "until-found" ? "until-found" : "";
    case "popover":
      // Kept so a closed popover stays hidden; nothing here can open it.
      return /^(?:|auto|manual|hint)$/i.test(value) ? value.toLowerCase() : null;
    default:
      if (/^aria-[a-z]{1,40}$/.test(name)) return value.length <= 4096 ? value : null;
      return null;
  }
}

function htmlAttribute(element: string, name: string, value: string, maxImageChars: number): string | null {
  switch (name) {
    case "src":
      return element === "img" && value.length <= maxImageChars && IMAGE_DATA.test(value) ? value : null;
    case "alt":
    case "headers":
    case "abbr":
    case "datetime":
      return value.length <= 4096 ? value : null;
    case "colspan":
    case "rowspan":
    case "span":
    case "start":
      return INTEGER.test(value.trim()) ? value.trim() : null;
    case "width":
    case "height":
      return LENGTH.test(value.trim()) ? value.trim() : null;
    case "scope":
      return /^(?:row|col|rowgroup|colgroup)$/i.test(value) ? value.toLowerCase() : null;
    case "type":
      return /^[1aAiI]$/.test(value) ? value : null;
    case "reversed":
    case "open":
      return "";
    case "value":
    case "min":
    case "max":
    case "low":
    case "high":
    case "optimum":
      return NUMBER.test(value.trim()) ? value.trim() : null;
    default:
      return null;
  }
}

function svgAttribute(name: string, value: string): [string, string] | null {
  if (SVG_PRESENTATION.has(name)) {
    const v = sanitizePropertyValue(name, value);
    return v === null ? null : [name, v];
  }
  const geometry = SVG_GEOMETRY[name];
  if (geometry) return value.length <= 1_000_000 && GEOMETRY_VALUE.test(value) ? [geometry, value] : null;
  const transform = SVG_TRANSFORMS[name];
  if (transform) return value.length <= 10_000 && TRANSFORM_VALUE.test(value) ? [transform, value] : null;
  return null;
}

interface Output {
  parts: string[];
  size: number;
  max: number;
  css: string[];
  title: string | null;
  htmlAttrs: Map<string, string> | null;
  bodyAttrs: Map<string, string> | null;
  maxImageChars: number;
  link: ((href: string) => string | null) | null;
}

function write(out: Output, s: string): void {
  out.size += s.length;
  if (out.size > out.max) throw new InertDocumentError("document_too_large", `the inert document would be longer than ${out.max} characters`);
  out.parts.push(s);
}

function styleAttribute(value: string, prefix = ""): string | null {
  const css = sanitizeDeclarations(value);
  const all = prefix && css ? `${prefix}; ${css}` : prefix || css;
  return all ? all : null;
}

/** The attributes of an HTML element that may be kept, written out. */
function htmlAttributes(out: Output, element: string, attrs: Map<string, string>, stylePrefix = ""): string {
  const allowed = HTML_ELEMENTS[element] ?? [];
  let s = "";
  let styled = false;
  for (const [name, value] of attrs) {
    let kept: string | null;
    if (name === "style") {
      kept = styleAttribute(value, stylePrefix);
      styled = true;
    } else if (allowed.includes(name)) kept = htmlAttribute(element, name, value, out.maxImageChars);
    else kept = globalAttribute(name, value);
    if (kept !== null) s += kept === "" && name !== "alt" ? ` ${name}` : ` ${name}="${escapeAttr(kept)}"`;
  }
  if (!styled && stylePrefix) s += ` style="${escapeAttr(stylePrefix)}"`;
  return s;
}

function svgAttributes(attrs: Map<string, string>): string {
  let s = "";
  for (const [name, value] of attrs) {
    let kept: [string, string] | null = null;
    if (name === "style") {
      const css = styleAttribute(value);
      kept = css === null ? null : ["style", css];
    } else {
      const g = globalAttribute(name, value);
      if (g !== null && name !== "hidden" && name !== "popover") kept = [name, g];
      else kept = svgAttribute(name, value);
    }
    if (kept) s += ` ${kept[0]}="${escapeAttr(kept[1])}"`;
  }
  return s;
}

const CHECK_MARKS: Record<string, [string, string]> = { checkbox: ["\u2611", "\u2610"], radio: ["\u25c9", "\u25cb"] };

/** What an `<input>` shows, as text, or null for one that shows nothing. */
function inputText(attrs: Map<string, string>): string | null {
  const type = (attrs.get("type") ?? "text").toLowerCase();
  const marks = CHECK_MARKS[type];
  if (marks) return attrs.has("checked") ? marks[0] : marks[1];
  if (type === "hidden" || type === "file" || type === "image") return null;
  const value = attrs.get("value") ?? "";
  if (type === "password") return "\u2022".repeat(Math.min(value.length, 12));
  return value || attrs.get("placeholder") || "";
}

function selectText(el: El): string {
  const options: El[] = [];
  const visit = (nodes: Node[], inGroup: boolean) => {
    for (const n of nodes) {
      if (typeof n === "string") continue;
      if (n.name === "option") options.push(n);
      else if (n.name === "optgroup" && !inGroup) visit(n.children, true);
    }
  };
  visit(el.children, false);
  const chosen = options.filter((o) => o.attrs.has("selected"));
  const shown = chosen.length ? chosen : options.slice(0, 1);
  return shown.map((o) => (o.attrs.get("label") ?? textOf(o)).trim()).join(", ");
}

function writeChildren(out: Output, el: El, svg: boolean, depth: number): void {
  for (const child of el.children) writeNode(out, child, svg, depth);
}

function writeNode(out: Output, node: Node, svg: boolean, depth: number): void {
  if (typeof node === "string") {
    write(out, escapeText(node));
    return;
  }
  const name = node.name;
  if (name === "style") {
    // Every style element, HTML or SVG, goes to the head through the CSS rules.
    out.css.push(textOf(node));
    return;
  }
  if (depth >= INERT_LIMITS.maxDepth) {
    write(out, escapeText(textOf(node)));
    return;
  }
  if (svg) {
    writeSvg(out, node, depth);
    return;
  }
  switch (name) {
    case "html":
      out.htmlAttrs ??= node.attrs;
      writeChildren(out, node, false, depth);
      return;
    case "body":
      out.bodyAttrs ??= node.attrs;
      writeChildren(out, node, false, depth);
      return;
    case "title":
      out.title ??= textOf(node);
      return;
    case "head":
      // Only its style sheets and title matter.
      for (const child of node.children) if (typeof child !== "string" && (child.name === "style" || child.name === "title")) writeNode(out, child, false, depth);
      return;
    case "svg":
      writeSvg(out, node, depth);
      return;
    case "input": {
      const shown = inputText(node.attrs);
      if (shown !== null) write(out, `<span${htmlAttributes(out, "span", node.attrs)}>${escapeText(shown)}</span>`);
      return;
    }
    case "textarea":
      write(out, `<span${htmlAttributes(out, "span", node.attrs, "white-space: pre-wrap")}>${escapeText(decodeCharacterReferences(textOf(node)))}</span>`);
      return;
    case "select":
      write(out, `<span${htmlAttributes(out, "span", node.attrs)}>${escapeText(selectText(node))}</span>`);
      return;
    case "dialog":
      // A closed dialog shows nothing.
      if (!node.attrs.has("open")) return;
      break;
  }
  if (DROPPED_HTML.has(name)) return;
  if (name === "a") {
    const href = out.link ? keptLink(out.link, node.attrs.get("href")) : null;
    if (href !== null) {
      // A link to what the data names opens in a tab of its own, with no opener and no referrer.
      write(out, `<a href="${escapeAttr(href)}" target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer"${htmlAttributes(out, "span", node.attrs)}>`);
      writeChildren(out, node, false, depth + 1);
      write(out, `</a>`);
      return;
    }
  }
  const written = HTML_ELEMENTS[name] ? name : (HTML_RENAMED[name] ?? (CUSTOM_ELEMENT.test(name) && !RESERVED_CUSTOM.has(name) ? name : "span"));
  const attrs = htmlAttributes(out, written === name ? name : "span", node.attrs);
  write(out, `<${written}${attrs}>`);
  if (VOID.has(written)) return;
  writeChildren(out, node, false, depth + 1);
  write(out, `</${written}>`);
}

/** The address a link keeps: only one the caller names, plain http(s) or a path of this site. */
function keptLink(link: (href: string) => string | null, href: string | undefined): string | null {
  if (href === undefined) return null;
  const kept = link(href);
  if (kept === null || /[\u0000-\u0020\u007f-\u009f"<>`]/.test(kept)) return null;
  return /^(?:https?:\/\/|\/(?![/\\]))/i.test(kept) ? kept : null;
}

function writeSvg(out: Output, node: El, depth: number): void {
  const name = SVG_ELEMENTS[node.name] ?? SVG_RENAMED[node.name];
  if (!name) return;
  write(out, `<${name}${svgAttributes(node.attrs)}>`);
  if (name === "title" || name === "desc") {
    // The HTML parser reads markup inside these as HTML: only their text is written.
    write(out, escapeText(textOf(node)));
  } else {
    for (const child of node.children) {
      if (typeof child === "string") write(out, escapeText(child));
      else writeNode(out, child, true, depth + 1);
    }
  }
  write(out, `</${name}>`);
}

/**
 * The inert document for a capture (see ./capture.ts): a complete `<!doctype html>` document
 * with no script, no event handler, no address but `data:` images, `#fragment` references and
 * the links `link` keeps,
 * and its own policy (INERT_CSP). Throws InertDocumentError when the capture is malformed or
 * either side is larger than its bound.
 */
export function inertDocument(captured: unknown, options: InertOptions = {}): string {
  const capture = readCapture(captured, options);
  const out: Output = {
    parts: [],
    size: 0,
    max: options.maxOutputChars ?? INERT_LIMITS.maxOutputChars,
    css: [],
    title: null,
    htmlAttrs: null,
    bodyAttrs: null,
    maxImageChars: options.maxImageChars ?? INERT_LIMITS.maxImageChars,
    link: options.link ?? null,
  };
  writeChildren(out, parseTree(capture.html), false, 0);
  const body = out.parts.join("");

  const sheets = [...capture.css, ...out.css].map(sanitizeStylesheet).filter(Boolean);
  const htmlAttrs = out.htmlAttrs ?? new Map<string, string>();
  const lang = [capture.lang, htmlAttrs.get("lang") ?? "", options.lang ?? ""].find((l) => LANG.test(l)) ?? "en";
  const dir = [capture.dir, htmlAttrs.get("dir") ?? ""].map((d) => d.toLowerCase()).find((d) => /^(?:ltr|rtl|auto)$/.test(d));
  const rootAttrs = new Map([...htmlAttrs].filter(([k]) => k === "class" || k === "style" || k === "id"));
  const title = options.title ?? (capture.title || out.title || "");

  const head = [
    `<!doctype html>`,
    `<html lang="${escapeAttr(lang)}"${dir ? ` dir="${dir}"` : ""}${htmlAttributes(out, "html", rootAttrs)}>`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(INERT_CSP)}">`,
    `<meta name="referrer" content="no-referrer">`,
    `<meta name="viewport" content="width=${capture.width}">`,
    `<title>${escapeText(title.trim().slice(0, 1000))}</title>`,
    sheets.length ? `<style>\n${sheets.join("\n")}\n</style>` : "",
    `</head>`,
    `<body${htmlAttributes(out, "body", out.bodyAttrs ?? new Map())}>`,
  ].join("\n");
  const doc = `${head}${body}</body>\n</html>\n`;
  if (doc.length > out.max) throw new InertDocumentError("document_too_large", `the inert document would be longer than ${out.max} characters`);
  return doc;
}
