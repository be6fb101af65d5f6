// Which links a dashboard may open. The frame has no allow-popups and never gets one: a click on a
// link in it is cancelled by the bootstrap and sent to the host as a request, and the host decides
// here. A link opens only when its address is exactly a URL that an answer relayed to this very
// frame carried as a string value (a call's recording, a tracker issue, a repository), or a page
// of this site that only shows something; so a dashboard can choose among the addresses its data
// names, and can write no address of its own, nor carry data out in one.
//
// Browser-safe: the host page (components/dashboard-frame) and the safe view's drawing
// (lib/saved/drawings.ts, lib/inert) keep the same ledger of answered URLs.

/** Longest address a link may have, and longest one the frame's request carries. */
export const LINK_URL_MAX = 2048;
/** Addresses one frame's ledger keeps; a dashboard reading more links to the first ones. */
const LINKS_KEPT_MAX = 10_000;
/** Strings of one answer looked at, so a huge answer costs a bounded walk. */
const STRINGS_SEEN_MAX = 200_000;
/** Answers longer than this are not read for addresses. */
const ANSWER_READ_MAX = 8 * 1024 * 1024;

// A plain absolute http(s) address: no spaces or controls, no user name or password.
const LINKABLE = /^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f\u2028\u2029\\]+$/i;

/** The value as an address a link may open, or null: http or https, absolute, no credentials. */
function linkable(value: string): URL | null {
  if (value.length > LINK_URL_MAX || !LINKABLE.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || url.hostname === "") return null;
  return url;
}

/** Every string value of a JSON answer that is an absolute http(s) address, in order, once each. */
export function answerUrls(body: string): string[] {
  if (body.length > ANSWER_READ_MAX || !body.includes("http")) return [];
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return [];
  }
  const found = new Set<string>();
  // A stack, not recursion: how deep an answer nests is the answer's to choose.
  const todo: unknown[] = [root];
  let seen = 0;
  while (todo.length > 0 && seen < STRINGS_SEEN_MAX) {
    const v = todo.pop();
    if (typeof v === "string") {
      seen++;
      if (linkable(v)) found.add(v);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
    } else if (typeof v === "object" && v !== null) {
      const values = Object.values(v);
      for (let i = values.length - 1; i >= 0; i--) todo.push(values[i]);
    }
  }
  return [...found];
}

/** The addresses the answers relayed to one frame named: what its links may open. */
export class LinkLedger {
  private readonly urls = new Set<string>();

  /** Takes the addresses of one answer (a JSON body) relayed to the frame. */
  addAnswer(body: string): void {
    for (const url of answerUrls(body)) {
      if (this.urls.size >= LINKS_KEPT_MAX) return;
      this.urls.add(url);
    }
  }

  has(url: string): boolean {
    return this.urls.has(url);
  }

  get size(): number {
    return this.urls.size;
  }
}

// The pages of this site a dashboard may link to: the landing page, the reference, a person's
// space and a saved dashboard (with its `p.` parameters and kiosk mode). Nothing that acts, signs
// in or out, connects or redirects elsewhere: a link must not be a way to send a viewer anywhere
// but a page to read.
const SITE_PAGE = /^\/(?:docs(?:\/[a-z0-9-]{1,64})?|~\/[A-Za-z0-9_.-]{1,64}(?:\/[A-Za-z0-9_.-]{1,128})?)?$/;
const SITE_QUERY_NAME = /^(?:p\.[A-Za-z_][A-Za-z0-9_]{0,63}|kiosk)$/;

function isSitePage(url: URL, origin: string): boolean {
  if (url.origin !== origin || !SITE_PAGE.test(url.pathname)) return false;
  for (const name of new URLSearchParams(url.search).keys()) if (!SITE_QUERY_NAME.test(name)) return false;
  return true;
}

export type LinkDecision =
  /** `url`: what to open; `path` for a page of this site, its path, query and fragment alone. */
  | { ok: true; url: string; kind: "answer" }
  | { ok: true; url: string; kind: "site"; path: string }
  | { ok: false; reason: string };

/** What a link may open, and the words for the console when it may not. */
export const LINK_RULE =
  "A dashboard's link opens when its href is exactly a URL from an API answer (such as an issue's or a call's `url` field) or a page of this site (/docs, /~/<person>/<dashboard>), on a real click.";

/**
 * Whether a link the frame asked to open may open. `href` is the link's attribute as written;
 * relative addresses resolve against the frame's own address on `origin`, this site.
 */
export function decideLink(href: unknown, ledger: LinkLedger, origin: string, framePath: string): LinkDecision {
  if (typeof href !== "string" || href.length === 0) return { ok: false, reason: `The link has no address. ${LINK_RULE}` };
  if (href.length > LINK_URL_MAX) return { ok: false, reason: `The link's address is longer than ${LINK_URL_MAX} characters. ${LINK_RULE}` };
  if (ledger.has(href)) return { ok: true, url: href, kind: "answer" };
  let url: URL | null = null;
  try {
    url = new URL(href, `${origin}${framePath}`);
  } catch {
    url = null;
  }
  if (url && isSitePage(url, origin)) return { ok: true, url: url.href, kind: "site", path: `${url.pathname}${url.search}${url.hash}` };
  return { ok: false, reason: `${clipped(href)} is not a URL from this dashboard's data. ${LINK_RULE}` };
}

function clipped(s: string): string {
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}
