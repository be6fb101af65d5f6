// Containment, before any dashboard code runs. What CSP cannot govern, the bootstrap takes out
// of reach:
// - WebRTC: every RTC* constructor is deleted from the window (REMOVED).
// - Child realms: a child frame would be a new window with WebRTC back in it. An about:blank
//   child of this sandboxed document gets a new opaque origin of its own, so it cannot be
//   reached or neutered from here, and it runs nothing unless it is given a srcdoc; frame-src
//   'none' does not stop srcdoc. So no frame element may exist at all: the Trusted Types
//   default policy renames frame-like tags in every HTML string (innerHTML, outerHTML,
//   insertAdjacentHTML, document.write, DOMParser, createContextualFragment, setHTMLUnsafe,
//   srcdoc) and refuses XML entity declarations (which could spell a tag no string check
//   sees); createElement/createElementNS and customized built-ins refuse those names; the
//   dashboard's own markup gets the same renaming before it is written.
// - Navigations the dashboard starts by markup or events: see navigation.ts.
import { apply, defineProp, fixed, getNames, matches, replaceAll, rxExec, Str, strIndexOf, strLower, TypeErr } from "./primordials";

/**
 * Elements a dashboard may not create: each would give it a child document, a realm of its own
 * where none of the bootstrap's containment applies (a srcdoc frame runs scripts, with
 * WebRTC, in a new opaque origin the bootstrap cannot reach), or a meta refresh navigation.
 * In markup they are renamed `x-blocked-<name>`, harmless unknown elements.
 */
const BLOCKED = ["iframe", "frame", "frameset", "object", "embed", "fencedframe", "portal", "meta"];

const BLOCKED_NAME = fixed("^(?:[^:]*:)?(?:" + BLOCKED.join("|") + ")$", "i");
const FRAME_TAGS = fixed("<(\\/?)((?:[^\\t\\n\\f\\r \\/>:<]*:)?)(i?frame(?:set)?|object|embed|fencedframe|portal)(?=[\\t\\n\\f\\r \\/>]|$)", "gi");
const META_TAGS = fixed("<(\\/?)((?:[^\\t\\n\\f\\r \\/>:<]*:)?)(meta)(?=[\\t\\n\\f\\r \\/>]|$)", "gi");
const PARTIAL_TAG = fixed("<\\/?(?:[^\\t\\n\\f\\r \\/><:]*:)?([^\\t\\n\\f\\r \\/><:]*)$", "");
const ENTITY = fixed("<!ENTITY", "i");
const HTTP_EQUIV = fixed("http-equiv", "i");
const SRCDOC = fixed("srcdoc", "i");
const WRITE = fixed("^Document write", "");
const INSERT_HTML = fixed("^insertHTML$", "i");
/**
 * Globals the bootstrap deletes before the dashboard runs: WebRTC, which CSP does not govern
 * (a peer connection sends STUN to any address and port the page names, with a USERNAME it
 * chose), and XSLT, which could build a frame element out of markup no string check sees.
 */
const REMOVED = fixed("^(?:webkit|moz)?RTC[A-Z]|^XSLTProcessor$", "");

export function refuse(what: string): never {
  throw new TypeErr("Dashboards cannot " + what + ": the frame allows no child frames, WebRTC or navigation away.");
}

/**
 * Renames frame-like elements (and meta, when an http-equiv could be in play) in markup. An
 * XML entity declaration matters only where markup may be parsed as XML (DOMParser), so the
 * dashboard's own HTML may mention one.
 */
export function neutralise(html: unknown, strict?: boolean): string {
  let s = Str(html);
  if (strict && matches(ENTITY, s)) refuse("declare XML entities");
  s = replaceAll(s, FRAME_TAGS, "<$1$2x-blocked-$3");
  if (matches(HTTP_EQUIV, s)) s = replaceAll(s, META_TAGS, "<$1$2x-blocked-$3");
  return s;
}

/**
 * Whether a document.write chunk ends inside a tag name that could grow into a blocked one in
 * the next chunk ("<ifr" + "ame>"): such a chunk is refused, as the renaming sees one chunk at a time.
 */
export function partialTag(s: string): boolean {
  PARTIAL_TAG.lastIndex = 0;
  const m = rxExec(PARTIAL_TAG, s);
  if (m === null) return false;
  const name = strLower(m[1] as string);
  for (let i = 0; i < BLOCKED.length; i++) if (strIndexOf(BLOCKED[i] as string, name) === 0) return true;
  return false;
}

type Method = (...args: never[]) => unknown;

/** Puts `wrap(original)` in the place of a method, where the method exists. */
export function replaceMethod<M extends Method>(proto: object | null | undefined, key: string, wrap: (original: M) => M): void {
  const original = proto && (proto as Record<string, unknown>)[key];
  if (typeof original !== "function") return;
  defineProp(proto, key, { value: wrap(original as M), writable: true, configurable: true });
}

/** The Trusted Types API, where the browser has it. */
interface TrustedTypes {
  createPolicy(name: string, rules: { createHTML?: (html: string, type: unknown, sink: unknown) => string; createScript?: (s: string) => string; createScriptURL?: (s: string) => string }): {
    createHTML(s: string): unknown;
  };
}

/**
 * Takes WebRTC off the window, installs the default Trusted Types policy and refuses frame-like
 * elements. Answers how the bootstrap marks its own (already renamed) markup as trusted.
 */
export function containMarkup(): (html: string) => string {
  const win = window as unknown as Record<string, unknown>;
  const names = getNames(window);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (matches(REMOVED, name)) {
      try {
        delete win[name];
      } catch {}
    }
  }

  const tt = win.trustedTypes as TrustedTypes | undefined;
  let bootstrapPolicy: { createHTML(s: string): unknown } | null = null;
  if (tt && typeof tt.createPolicy === "function") {
    tt.createPolicy("default", {
      createHTML: function (html, _type, sink) {
        const where = Str(sink);
        if (matches(SRCDOC, where)) refuse("give a frame a srcdoc");
        const s = neutralise(html, true);
        if (matches(WRITE, where) && partialTag(s)) refuse("write part of a tag name");
        return s;
      },
      // Scripts and script URLs stay governed by the CSP alone, as before.
      createScript: function (s) {
        return s;
      },
      createScriptURL: function (s) {
        return s;
      },
    });
    bootstrapPolicy = tt.createPolicy("dashboard-bootstrap", {
      createHTML: function (s) {
        return s;
      },
    });
  }

  guardElements();
  const policy = bootstrapPolicy;
  // document.write takes TrustedHTML where it takes a string.
  return (s) => (policy ? (policy.createHTML(s) as string) : s);
}

/** createElement, createElementNS, execCommand insertHTML and customized built-ins refuse blocked elements. */
function guardElements(): void {
  if (typeof Document === "function") {
    replaceMethod<(this: Document, name: unknown, options: unknown) => unknown>(Document.prototype, "createElement", function (original) {
      return function (name, options) {
        const n = Str(name);
        if (matches(BLOCKED_NAME, n)) refuse("create <" + n + "> elements");
        return apply(original, this, [n, options]);
      };
    });
    replaceMethod<(this: Document, ns: unknown, name: unknown, options: unknown) => unknown>(Document.prototype, "createElementNS", function (original) {
      return function (ns, name, options) {
        const n = Str(name);
        if (matches(BLOCKED_NAME, n)) refuse("create <" + n + "> elements");
        return apply(original, this, [ns, n, options]);
      };
    });
    replaceMethod<(this: Document, command: unknown, ui: unknown, value: unknown) => unknown>(Document.prototype, "execCommand", function (original) {
      return function (command, ui, value) {
        const c = Str(command);
        return apply(original, this, matches(INSERT_HTML, c) ? [c, ui, neutralise(value, true)] : [c, ui, value]);
      };
    });
  }
  if (typeof CustomElementRegistry === "function") {
    replaceMethod<(this: CustomElementRegistry, name: unknown, ctor: unknown, options?: { extends?: unknown }) => unknown>(CustomElementRegistry.prototype, "define", function (original) {
      return function (name, ctor, options) {
        const given = options ? options.extends : undefined;
        if (given === undefined) return apply(original, this, [name, ctor]);
        const ext = Str(given);
        if (matches(BLOCKED_NAME, ext)) refuse("extend <" + ext + ">");
        return apply(original, this, [name, ctor, { extends: ext }]);
      };
    });
  }
}
