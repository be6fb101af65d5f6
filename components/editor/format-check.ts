import { Parser, type DefaultTreeAdapterMap, type DefaultTreeAdapterTypes as Tree, type ParserError, type Token as Tokens } from "parse5";
import { exactTokens, scriptTokens, styleTokens, textTokens, type Token } from "./code-tokens";
import { formatHtml } from "./format-html";

// Format as the editor runs it: the re-indented copy replaces the document only when the HTML
// standard's parser (parse5) reads both to the same content: the same elements and attributes,
// the same text where whitespace can matter, the same script and style tokens. A document the
// parser would read differently from what its author sees (a <script> or comment never closed
// swallows everything after it) is not formatted either: the refusal names the line, so the
// author finds the mistake instead of having it moved around. Loaded when Format is first
// pressed, so the parser is not part of the editor's first script.

type FormatOutcome = { kind: "formatted"; text: string } | { kind: "unchanged" } | { kind: "refused"; line: number; message: string };

interface Finding {
  line: number;
  what: string;
}

const LEAVES = "Format leaves the document as it is.";
const HTML_NS = "http://www.w3.org/1999/xhtml";
/** Elements whose content the parser reads as text up to their end tag. */
const TEXT_ONLY = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"]);
/** Elements whose text is drawn with its whitespace. */
const PRE_LIKE = new Set(["pre", "textarea", "listing", "xmp", "plaintext"]);
/** Script types that hold JavaScript or JSON; any other is a data block, kept exactly. */
const CODE_TYPE = /^(|module|importmap|speculationrules|(text|application)\/(x-)?(java|ecma|j|live)script(1\.\d)?|(text|application)\/([\w.+-]+\+)?json)$/i;

export function formatChecked(source: string): FormatOutcome {
  const before = read(source);
  const finding = unclosedIn(source, before);
  if (finding) return refused({ line: finding.line, what: `this ${finding.what}` });
  const text = formatHtml(source);
  if (text === source) return { kind: "unchanged" };
  const change = compareDocuments(source, text, before);
  return change ? refused({ line: change.line, what: `formatting would change ${change.what}` }) : { kind: "formatted", text };
}

function refused(f: Finding): FormatOutcome {
  return { kind: "refused", line: f.line, message: `Line ${f.line}: ${f.what}; ${LEAVES}` };
}

interface Reading {
  doc: Tree.Document;
  errors: ParserError[];
  /** Every start and end tag as the parser met it, stray ones included, which the tree drops. */
  tags: Tokens.Location[];
}

/** The standard parser, noting each tag it is handed (the tokenizer alone would not know where a script ends). */
class TagNotingParser extends Parser<DefaultTreeAdapterMap> {
  tags: Tokens.Location[] = [];
  override onStartTag(token: Tokens.TagToken): void {
    if (token.location) this.tags.push(token.location);
    super.onStartTag(token);
  }
  override onEndTag(token: Tokens.TagToken): void {
    if (token.location) this.tags.push(token.location);
    super.onEndTag(token);
  }
}

function read(source: string): Reading {
  const errors: ParserError[] = [];
  const parser = new TagNotingParser({ sourceCodeLocationInfo: true, scriptingEnabled: true, onParseError: (e) => errors.push(e) });
  parser.tokenizer.write(source, true);
  return { doc: parser.document, errors, tags: parser.tags };
}

const lineAt = (source: string, offset: number) => source.slice(0, offset).split("\n").length;

type Node = Tree.ChildNode | Tree.Document | Tree.DocumentFragment;

function childrenOf(node: Node): Tree.ChildNode[] {
  if (node.nodeName === "template") return (node as Tree.Template).content.childNodes;
  return "childNodes" in node ? node.childNodes : [];
}

function* everyNode(node: Node): Generator<Tree.ChildNode> {
  for (const child of childrenOf(node)) {
    yield child;
    yield* everyNode(child);
  }
}

/** Something left open that makes the parser read the rest of the document as one piece of text. */
function unclosedIn(source: string, { doc, errors }: Reading): Finding | null {
  let lastEnd = 0;
  for (const node of everyNode(doc)) {
    const loc = node.sourceCodeLocation;
    if (!loc) continue;
    if (!("tagName" in node)) {
      lastEnd = Math.max(lastEnd, loc.endOffset);
      continue;
    }
    // An element left open ends where the document does: its tags say how far the text was read.
    const el = loc as Tree.Element["sourceCodeLocation"] & object;
    lastEnd = Math.max(lastEnd, el.endTag?.endOffset ?? el.startTag?.endOffset ?? loc.startOffset);
    if (node.namespaceURI !== HTML_NS) continue;
    if (node.tagName === "plaintext") return { line: loc.startLine, what: "<plaintext> makes the rest of the document plain text" };
    if (TEXT_ONLY.has(node.tagName) && el.startTag && !el.endTag) return { line: loc.startLine, what: `<${node.tagName}> is never closed` };
  }
  const codes = new Set<string>(errors.map((e) => e.code));
  if (codes.has("eof-in-comment")) {
    const open = [...everyNode(doc)].find((n) => n.nodeName === "#comment" && n.sourceCodeLocation?.endOffset === source.length);
    return { line: open?.sourceCodeLocation?.startLine ?? lineAt(source, source.lastIndexOf("<!--")), what: "comment (<!--) is never closed" };
  }
  if (codes.has("eof-in-cdata")) return { line: lineAt(source, source.lastIndexOf("<![CDATA[")), what: "<![CDATA[ section is never closed" };
  if (codes.has("eof-in-tag")) return { line: lineAt(source, Math.max(0, source.indexOf("<", lastEnd))), what: "tag never ends (it has no >)" };
  if (codes.has("eof-in-doctype")) return { line: 1, what: "<!doctype> never ends (it has no >)" };
  return null;
}

/** How the text inside an element is compared. */
type TextRule = "text" | "exact" | "script" | "style";

/** Where `formatted` reads differently from `source`, or null when they are the same content. */
export function compareDocuments(source: string, formatted: string, before: Reading = read(source)): Finding | null {
  const after = read(formatted);
  const found = compareChildren(before.doc, after.doc, "text", { source, formatted }, 1);
  if (found) return found;
  // What the tree does not keep: a stray end tag, the second of two attributes of one name.
  const t = before.tags.findIndex((loc, n) => !sameText(source, loc, formatted, after.tags[n]));
  if (t >= 0 || after.tags.length !== before.tags.length) {
    const loc = before.tags[t < 0 ? before.tags.length - 1 : t];
    return { line: loc?.startLine ?? 1, what: "the tags here" };
  }
  // And what the parser complains about, which the tree hides too.
  const said = (e: ParserError | undefined, text: string) => (e ? `${e.code} ${tagTokens(text.slice(e.startOffset, e.endOffset)).map((t) => t.text).join("")}` : "");
  const i = before.errors.findIndex((e, n) => said(e, source) !== said(after.errors[n], formatted));
  if (i >= 0 || after.errors.length !== before.errors.length) {
    return { line: before.errors[i < 0 ? before.errors.length - 1 : i]?.startLine ?? 1, what: "how the parser reads the markup here" };
  }
  return null;
}

interface Texts {
  source: string;
  formatted: string;
}

function compareChildren(a: Node, b: Node, how: TextRule, texts: Texts, line: number): Finding | null {
  const xs = childrenOf(a);
  const ys = childrenOf(b);
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const x = xs[i];
    const y = ys[i];
    const at = x?.sourceCodeLocation?.startLine ?? line;
    if (!x || !y || x.nodeName !== y.nodeName) return { line: at, what: "the elements here (their nesting would change)" };
    const found = compareNode(x, y, how, texts, at);
    if (found) return found;
  }
  return null;
}

const isDoctype = (n: Tree.ChildNode): n is Tree.DocumentType => n.nodeName === "#documentType";
const isComment = (n: Tree.ChildNode): n is Tree.CommentNode => n.nodeName === "#comment";
const isText = (n: Tree.ChildNode): n is Tree.TextNode => n.nodeName === "#text";

function compareNode(x: Tree.ChildNode, y: Tree.ChildNode, how: TextRule, texts: Texts, line: number): Finding | null {
  if (isDoctype(x) && isDoctype(y)) {
    const same = x.name === y.name && x.publicId === y.publicId && x.systemId === y.systemId && sameAsWritten(x, y, texts);
    return same ? null : { line, what: "the doctype" };
  }
  if (isComment(x) && isComment(y)) return x.data === y.data ? null : { line, what: "this comment" };
  if (isText(x) && isText(y)) {
    const differs = firstDifference(tokensOf(x.value, how), tokensOf(y.value, how));
    if (differs === null) return null;
    const where = line + (x.value.slice(0, differs).match(/\n/g)?.length ?? 0);
    return { line: where, what: TEXT_WHAT[how] };
  }
  if (!("tagName" in x) || !("tagName" in y)) return { line, what: "the elements here (their nesting would change)" };
  const tag = `<${x.tagName}>`;
  const written = (e: Tree.Element) => `${e.sourceCodeLocation?.startTag ? 1 : 0}${e.sourceCodeLocation?.endTag ? 1 : 0}`;
  if (x.tagName !== y.tagName || x.namespaceURI !== y.namespaceURI || written(x) !== written(y)) return { line, what: "the elements here (their nesting would change)" };
  const sameAttrs = x.attrs.length === y.attrs.length && x.attrs.every((a, i) => a.name === y.attrs[i]?.name && a.value === y.attrs[i]?.value && a.namespace === y.attrs[i]?.namespace);
  if (!sameAttrs) return { line, what: `the attributes of this ${tag}` };
  return compareChildren(x, y, inside(x, how), texts, line);
}

/** Whether two nodes read the same as written, but for the whitespace between attributes. */
function sameAsWritten(x: Tree.ChildNode, y: Tree.ChildNode, texts: Texts): boolean {
  const a = x.sourceCodeLocation;
  const b = y.sourceCodeLocation;
  if (!a || !b) return !a && !b;
  return sameText(texts.source, a, texts.formatted, b);
}

function sameText(source: string, a: Tokens.Location, formatted: string, b: Tokens.Location | undefined): boolean {
  return b !== undefined && firstDifference(tagTokens(source.slice(a.startOffset, a.endOffset)), tagTokens(formatted.slice(b.startOffset, b.endOffset))) === null;
}

const TEXT_WHAT: Record<TextRule, string> = { text: "the text here", exact: "text whose spaces are drawn (pre, textarea)", script: "the script here", style: "the style sheet here" };

function inside(el: Tree.Element, how: TextRule): TextRule {
  if (how === "exact") return "exact";
  if (el.tagName === "script") {
    const type = el.attrs.find((a) => a.name === "type")?.value.trim() ?? "";
    return CODE_TYPE.test(type) ? "script" : "exact";
  }
  if (el.tagName === "style") return "style";
  if (el.namespaceURI === HTML_NS && PRE_LIKE.has(el.tagName)) return "exact";
  return how;
}

function tokensOf(text: string, how: TextRule): Token[] {
  if (how === "exact") return exactTokens(text);
  if (how === "script") return scriptTokens(text);
  if (how === "style") return styleTokens(text);
  return textTokens(text);
}

/** Where in the first text the two token lists part, or null when they are the same. */
function firstDifference(a: Token[], b: Token[]): number | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]?.text !== b[i]?.text) return a[i]?.at ?? a.at(-1)?.at ?? 0;
  }
  return null;
}

/** A start tag as written: quoted values exact, whitespace between attributes as in text. */
function tagTokens(tag: string): Token[] {
  const tokens: Token[] = [];
  for (const m of tag.matchAll(/"[^"]*"?|'[^']*'?|[^"'\t\n\f\r ]+|[\t\n\f\r ]+/g)) {
    tokens.push(...(/^[\t\n\f\r ]/.test(m[0]) ? textTokens(m[0]) : [{ text: m[0], at: m.index }]));
  }
  return tokens;
}
