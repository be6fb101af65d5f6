import { Tokenizer } from "htmlparser2";
import { clip, type Context } from "./context";
import { scanCss } from "./css";
import { checkText } from "./text";
import { SNAPSHOT_TAKEN_AT_ATTRIBUTE } from "@/lib/frame/snapshot";
import { ACTIVITY_BASIS, SCENARIO_PARAM, isBlockedResource, isForeignLink, pagedEndpoint, readsCx } from "./urls";

// The HTML pass: htmlparser2's tokenizer, which knows HTML's raw-text elements (a `</p>` inside
// a script is not a tag) and hands back source offsets. Scripts and styles are cut out of the
// source by offset, so positions inside them map back to the document exactly.

export type ScriptKind = "classic" | "module" | "handler";

interface HtmlHooks {
  /** `exact` false: the code is not the source text (it had character references), so map every position to `offset`. */
  script(code: string, offset: number, kind: ScriptKind, exact: boolean): void;
  /** `block`: the element's id and `data-taken-at`, for the snapshot rules. */
  json(text: string, offset: number, block: JsonBlock): void;
}

export interface JsonBlock {
  id: string | undefined;
  /** The `data-taken-at` attribute's value and where it is; undefined when absent. */
  takenAt: { value: string; offset: number } | undefined;
  /** Where the element's tag starts. */
  tagOffset: number;
}

interface Attr {
  name: string;
  value: string;
  /** Offset of the value's first character; the name's when the value is empty or starts with an entity. */
  offset: number;
  /** The value equals the source text (no character references), so offsets inside it are exact. */
  exact: boolean;
}

type ResourceKind = "script" | "stylesheet" | "image" | "font" | "frame" | "media" | "object" | "resource";

// A Map, not an object: tag names come from the document (`<constructor>` is a valid tag name).
const RESOURCE_ATTRS = new Map<string, readonly (readonly [attr: string, kind: ResourceKind])[]>([
  ["script", [["src", "script"]]],
  ["img", [["src", "image"], ["srcset", "image"]]],
  ["iframe", [["src", "frame"]]],
  ["frame", [["src", "frame"]]],
  ["embed", [["src", "object"]]],
  ["object", [["data", "object"]]],
  ["audio", [["src", "media"]]],
  ["video", [["src", "media"], ["poster", "image"]]],
  ["source", [["src", "media"], ["srcset", "image"]]],
  ["track", [["src", "media"]]],
  ["image", [["href", "image"], ["xlink:href", "image"]]],
  ["use", [["href", "image"], ["xlink:href", "image"]]],
  ["feimage", [["href", "image"], ["xlink:href", "image"]]],
]);

const READ_ATTRS = new Set(["id", "style", "src", "srcset", "href", "xlink:href", "data", "poster", "rel", "as", "type", "method", "formmethod", "action", "formaction"]);

const TEXT_ATTRS = new Set(["title", "alt", "aria-label", "aria-description", "placeholder", "label"]);
const URL_ATTRS = new Set(["href", "src", "action", "formaction"]);
const RAW_TEXT = new Set(["script", "style"]);
const JS_TYPE = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/jscript|module)$/;
const JSON_TYPE = /(?:^|[/+])json$|^importmap$/;

function isReadAttribute(name: string): boolean {
  return READ_ATTRS.has(name) || TEXT_ATTRS.has(name) || name.startsWith("on") || name.startsWith("data-");
}

const HINTS: Record<ResourceKind, string> = {
  script: "Paste the code into an inline <script> element (or draw charts with inline SVG or canvas code); the frame runs inline scripts only.",
  stylesheet: "Copy the CSS into a <style> element; the frame applies inline styles only.",
  image: "Embed the image as a data: URL or inline <svg>; the frame loads data: and blob: images only.",
  font: "Use a system font stack (font-family: system-ui, sans-serif) or embed the font as a data: URL.",
  frame: "Remove the frame: a dashboard cannot embed other pages. Link to them with <a href> instead.",
  media: "Remove the media element or embed a small poster image as a data: URL; the frame loads no media.",
  object: "Remove the embedded object; the frame loads nothing from URLs.",
  resource: "Inline it in the document; the frame loads nothing from URLs except data:/blob: images and fonts.",
};

export function reportBlockedResource(ctx: Context, offset: number, what: string, url: string, kind: ResourceKind): void {
  ctx.report(
    "external-resource",
    offset,
    `${what} "${clip(url)}" will not load: the dashboard frame's Content-Security-Policy blocks ${kind === "image" || kind === "font" ? `${kind}s other than data: and blob: URLs` : `every ${kind} loaded from a URL`}.`,
    HINTS[kind],
  );
}

/** Reports what a stylesheet (a <style> element, a style attribute, a CSS string in code) would load. */
export function checkCss(ctx: Context, css: string, offset: number, exact: boolean): void {
  for (const load of scanCss(css)) {
    const at = offset + (exact ? load.offset : 0);
    if (load.kind === "import") reportBlockedResource(ctx, at, "@import", load.url, "stylesheet");
    else if (isBlockedResource(load.url, true)) {
      const kind = /\.(?:woff2?|ttf|otf|eot)(?:$|[?#])/i.test(load.url) || /fonts?\./i.test(load.url) ? "font" : "image";
      reportBlockedResource(ctx, at, "url()", load.url, kind);
    }
  }
}

function srcsetUrls(value: string): string[] {
  if (/^\s*data:/i.test(value)) return [];
  return value
    .split(",")
    .map((c) => c.trim().split(/\s+/)[0] ?? "")
    .filter((u) => u !== "");
}

function attrOf(attrs: Attr[], name: string): Attr | undefined {
  for (const a of attrs) if (a.name === name) return a;
  return undefined;
}

function checkResources(ctx: Context, tag: string, attrs: Attr[]): void {
  if (attrs.length === 0) return;
  let spec = RESOURCE_ATTRS.get(tag);
  if (tag === "input" && attrOf(attrs, "type")?.value.trim().toLowerCase() === "image") spec = [["src", "image"]];
  if (tag === "link") spec = linkSpec(attrs);
  if (!spec) return;
  for (const [name, kind] of spec) {
    const a = attrOf(attrs, name);
    if (!a) continue;
    const urls = name === "srcset" ? srcsetUrls(a.value) : [a.value];
    const dataAllowed = kind === "image" || kind === "font";
    for (const url of urls) {
      if (isBlockedResource(url, dataAllowed)) reportBlockedResource(ctx, a.offset, `<${tag} ${name}>`, url, kind);
    }
  }
}

function linkSpec(attrs: Attr[]): readonly (readonly [string, ResourceKind])[] | undefined {
  const rel = ` ${attrOf(attrs, "rel")?.value.toLowerCase() ?? ""} `.replace(/\s+/g, " ");
  if (rel.includes(" stylesheet ")) return [["href", "stylesheet"]];
  if (/ (?:icon|apple-touch-icon|apple-touch-icon-precomposed|mask-icon) /.test(rel)) return [["href", "image"]];
  if (/ (?:preload|prefetch|modulepreload|manifest) /.test(rel)) {
    const as = attrOf(attrs, "as")?.value.toLowerCase();
    const kind: ResourceKind = as === "font" ? "font" : as === "image" ? "image" : as === "style" ? "stylesheet" : as === "script" ? "script" : "resource";
    return [["href", kind]];
  }
  return undefined;
}

/** What works instead of a hard-coded address, for the `dead-link` finding. */
const DEAD_LINK_HINT =
  'Link to what the data names: `a.href = issue.url` (or `call.url`, `repo.url`) with the URL exactly as the API answered it, and `target="_blank"`; a link to a page of this site (/docs, /~/<person>/<dashboard>) works too. The page opens it in a new tab, with no referrer, when the viewer clicks it.';

export function reportDeadLink(ctx: Context, offset: number, what: string, url: string): void {
  ctx.report(
    "dead-link",
    offset,
    `${what} "${clip(url)}" never opens: a dashboard's link opens only when its address is exactly a URL from an API answer this dashboard read, or a page of this site.`,
    DEAD_LINK_HINT,
  );
}

function checkLink(ctx: Context, tag: string, attrs: Attr[]): void {
  if (tag !== "a" && tag !== "area") return;
  const href = attrOf(attrs, "href") ?? attrOf(attrs, "xlink:href");
  if (href && isForeignLink(href.value)) reportDeadLink(ctx, href.offset, `<${tag} ${href.name}>`, href.value);
}

/** URL-valued attributes say what a dashboard reads as much as code does. */
function checkUrlAttr(ctx: Context, a: Attr): void {
  const v = a.value;
  if (SCENARIO_PARAM.test(v)) reportScenario(ctx, a.offset, v);
  if (ACTIVITY_BASIS.test(v)) ctx.facts.activityUses.push(a.offset);
  if (readsCx(v)) ctx.facts.cxReads.push(a.offset);
  const paged = pagedEndpoint(v);
  if (paged) ctx.facts.pagedReads.push({ path: paged, offset: a.offset });
}

export function reportScenario(ctx: Context, offset: number, url: string): void {
  ctx.report(
    "scenario-in-code",
    offset,
    `"${clip(url)}" sets the \`scenario\` query parameter; it only selects demo data in the playground and must not be part of the dashboard.`,
    "Remove `scenario` from the URL. Pick demo data per draft instead: the draft's `scenario` field (or `examples` per path) when creating it.",
  );
}

function checkForm(ctx: Context, tag: string, attrs: Attr[]): void {
  const method = tag === "form" ? attrOf(attrs, "method") : tag === "button" || tag === "input" ? attrOf(attrs, "formmethod") : undefined;
  if (!method) return;
  const m = method.value.trim().toLowerCase();
  if (m === "" || m === "get" || m === "dialog") return;
  ctx.report(
    "non-get-request",
    method.offset,
    `<${tag} ${method.name}="${clip(method.value, 20)}"> submits with ${m.toUpperCase()}; the dashboard frame can only read data, with GET through the API base.`,
    "Remove the form submission; a dashboard reads data with GET requests (fetch) and cannot write anything.",
  );
}

function onOpenTag(ctx: Context, hooks: HtmlHooks, tag: string, attrs: Attr[]): void {
  for (const a of attrs) {
    if (a.name.length > 2 && a.name.startsWith("on")) {
      if (a.value.trim() !== "") hooks.script(a.value, a.offset, "handler", a.exact);
    } else if (a.name === "style") {
      checkCss(ctx, a.value, a.offset, a.exact);
    } else if (TEXT_ATTRS.has(a.name)) {
      checkText(ctx, a.value, a.offset);
    } else if (URL_ATTRS.has(a.name) || a.name.startsWith("data-")) {
      checkUrlAttr(ctx, a);
    }
  }
  checkResources(ctx, tag, attrs);
  checkLink(ctx, tag, attrs);
  if (tag === "form" || tag === "button" || tag === "input") checkForm(ctx, tag, attrs);
}

function scriptRole(attrs: Attr[]): "js-classic" | "js-module" | "json" | "other" | "external" {
  if (attrOf(attrs, "src")) return "external";
  const type = (attrOf(attrs, "type")?.value ?? "").trim().toLowerCase().split(";")[0]?.trim() ?? "";
  if (type === "" || (JS_TYPE.test(type) && type !== "module")) return "js-classic";
  if (type === "module") return "js-module";
  if (JSON_TYPE.test(type)) return "json";
  return "other";
}

/**
 * Scans a whole document (with `hooks` for its scripts), or markup found in a string in code
 * (`hooks` null: only what it would load counts). With `exact` false every position maps to
 * `base`: the text scanned is not the source text (a string with escapes and holes).
 */
export function scanHtml(ctx: Context, html: string, hooks: HtmlHooks | null, base = 0, exact = true): void {
  const at = (i: number) => (exact ? base + i : base);
  let tag = "";
  let attrs: Attr[] = [];
  let attr: Attr | null = null;
  let tagStart = 0;
  let raw: { tag: string; attrs: Attr[]; start: number; tagStart: number } | null = null;
  // Text between two tags, with character references decoded, checked as one run.
  let text = "";
  let textStart = -1;

  const flushText = () => {
    if (textStart >= 0) {
      // Shorter than any word the text rules look for ("derived", "priority").
      if (hooks && text.length >= 7) checkText(ctx, text, at(textStart));
      text = "";
      textStart = -1;
    }
  };
  const closeRaw = (end: number) => {
    if (!raw) return;
    const content = html.slice(raw.start, end);
    if (raw.tag === "style") checkCss(ctx, content, at(raw.start), exact);
    else if (hooks) {
      const role = scriptRole(raw.attrs);
      if (role === "js-classic" || role === "js-module") hooks.script(content, at(raw.start), role === "js-module" ? "module" : "classic", exact);
      else if (role === "json") {
        const takenAt = attrOf(raw.attrs, SNAPSHOT_TAKEN_AT_ATTRIBUTE);
        hooks.json(content, at(raw.start), {
          id: attrOf(raw.attrs, "id")?.value,
          takenAt: takenAt ? { value: takenAt.value, offset: at(takenAt.offset) } : undefined,
          tagOffset: at(raw.tagStart),
        });
      }
    }
    raw = null;
  };
  const openTag = () => {
    if (hooks) return onOpenTag(ctx, hooks, tag, attrs);
    checkResources(ctx, tag, attrs);
    checkLink(ctx, tag, attrs);
    const style = attrOf(attrs, "style");
    if (style) checkCss(ctx, style.value, style.offset, style.exact && exact);
  };

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext(start, end) {
        if (raw) return;
        if (textStart < 0) textStart = start;
        text += html.slice(start, end);
      },
      ontextentity(cp, end) {
        if (raw) return;
        if (textStart < 0) textStart = end;
        text += String.fromCodePoint(cp);
      },
      onopentagname(start, end) {
        flushText();
        tag = html.slice(start, end).toLowerCase();
        tagStart = start - 1;
        attrs = [];
      },
      onattribname(start, end) {
        const name = html.slice(start, end).toLowerCase();
        // Most attributes (class, id, SVG geometry) matter to no rule: their values are not read.
        attr = isReadAttribute(name) ? { name, value: "", offset: at(start), exact: true } : null;
      },
      onattribdata(start, end) {
        if (!attr) return;
        if (attr.value === "") attr.offset = at(start);
        attr.value += html.slice(start, end);
      },
      onattribentity(cp) {
        if (!attr) return;
        attr.value += String.fromCodePoint(cp);
        attr.exact = false;
      },
      onattribend() {
        if (attr) attrs.push(attr);
        attr = null;
      },
      onopentagend(end) {
        openTag();
        if (RAW_TEXT.has(tag)) raw = { tag, attrs, start: end + 1, tagStart };
      },
      onselfclosingtag() {
        openTag();
      },
      onclosetag(start) {
        flushText();
        // `start` is the name's offset, right after "</".
        if (raw && html.slice(start, start + raw.tag.length).toLowerCase() === raw.tag) closeRaw(start - 2);
      },
      oncomment() {
        flushText();
      },
      oncdata() {
        flushText();
      },
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        flushText();
        closeRaw(html.length);
      },
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}
