// Render report: the frame tells the host what the dashboard did wrong as it happens (uncaught
// errors and rejections placed in the dashboard's HTML, console lines, requests it refused itself
// or its policy blocked). The host bounds, validates and sends the report
// (components/dashboard-frame); dashboard code can forge or spoil its own notices.
import type { FrameConfig } from "./config";
import { fmtArgs, fmtTable } from "./console-format";
import type { Dom } from "./dom";
import { placeInSource, sha256Hex } from "./render-helpers";
import { apply, defineProp, ErrorCtor, fixed, MapCtor, replaceAll, Str, strSlice } from "./primordials";

export type Send = (message: unknown) => void;
/** The kinds of notice, each with its own bound: a chatty log hides no error. */
type Kind = "error" | "console" | "refusal" | "log";
export type Tell = (kind: Kind, message: object) => void;

const LINE_BREAKS = fixed("\r\n?", "g");
const WRITE_FAILED = fixed("Failed to execute 'write' on 'Document': ", "");

/** Sends a notice while fewer than the bound of its kind went before it. */
export function teller(send: Send, config: FrameConfig): Tell {
  const told = { error: 0, console: 0, refusal: 0, log: 0 };
  return function tell(kind, message) {
    if (told[kind] >= (kind === "log" ? config.linesMax : config.noticesMax)) return;
    told[kind]++;
    send(message);
  };
}

/** Text of at most max characters, an ellipsis at the end of what was cut. */
export function clip(s: unknown, max: number): string {
  const text = Str(s);
  return text.length > max ? strSlice(text, 0, max - 1) + "\u2026" : text;
}

/** Any value as text: errors as the console prints them, objects as JSON where they can be. */
export function describe(v: unknown): string {
  try {
    if (typeof v === "string") return v;
    if (v instanceof ErrorCtor) return Str(v);
    if (v !== null && typeof v === "object") {
      const j = JSON.stringify(v);
      if (typeof j === "string") return j;
    }
    return Str(v);
  } catch {
    return "(" + typeof v + ")";
  }
}

/** What V8 hands Error.prepareStackTrace for each frame. */
interface CallSite {
  getFileName(): string | null | undefined;
  getScriptHash?: () => string;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
}
interface StackFrame {
  hash: string;
  line: number;
  column: number;
}
const ErrorTrace = ErrorCtor as unknown as { prepareStackTrace?: unknown };

/**
 * The first stack frame of the dashboard's own scripts (they have no file name; the
 * bootstrap's frames name this document), read once through Error.prepareStackTrace, which
 * hands the stack on as it would have been formatted.
 */
function frameOf(err: unknown): StackFrame | null {
  if (err === null || (typeof err !== "object" && typeof err !== "function")) return null;
  let found: StackFrame | null = null;
  const saved = ErrorTrace.prepareStackTrace;
  try {
    ErrorTrace.prepareStackTrace = function (e: unknown, sites: CallSite[]) {
      for (let i = 0; i < sites.length && !found; i++) {
        try {
          const site = sites[i] as CallSite;
          if (site.getFileName()) continue;
          const hash = typeof site.getScriptHash === "function" ? site.getScriptHash() : "";
          const line = site.getLineNumber();
          if (hash && line) found = { hash: hash, line: line, column: site.getColumnNumber() || 1 };
        } catch {}
      }
      if (typeof saved === "function") return apply(saved, ErrorCtor, [e, sites]);
      let out = describe(e);
      for (let j = 0; j < sites.length; j++) out += "\n    at " + Str(sites[j]);
      return out;
    };
    void (err as { stack?: unknown }).stack;
  } catch {
  } finally {
    try {
      ErrorTrace.prepareStackTrace = saved;
    } catch {}
  }
  return found;
}

/**
 * Uncaught errors and rejections, placed in the dashboard's HTML, and what the frame's policy
 * blocked. `wrote` hands it the document as written; `watchRender` puts its listeners on the
 * window (after each document.open, which drops them).
 */
export function errorReport(tell: Tell, tellRefusal: (method: string | null, input: unknown, error: string, reason: string) => void, dom: Dom, config: FrameConfig) {
  const { scriptsOf, currentScriptOf, scriptTextOf, TextEnc } = dom;
  // The written document, its line breaks as the parser reads them; made on the first error.
  let written = "";
  let source: string | null = null;
  const hashes = new MapCtor<string, string>();
  function sourceText() {
    if (source === null) source = replaceAll(written, LINE_BREAKS, "\n");
    return source;
  }
  function hashOf(text: string) {
    let h = hashes.get(text);
    if (h === undefined) {
      h = TextEnc ? sha256Hex(new TextEnc().encode(text)) : "";
      hashes.set(text, h);
    }
    return h;
  }
  function placeByHash(frame: StackFrame) {
    if (!scriptsOf || !scriptTextOf) return null;
    const list = scriptsOf(document);
    for (let i = 0; i < list.length; i++) {
      const text = scriptTextOf(list[i]);
      if (hashOf(text) === frame.hash) return placeInSource(sourceText(), text, 0, frame.line, frame.column);
    }
    return null;
  }
  // A script that failed to compile has no stack frame; it is the current script while its
  // error is reported, and the event's line counts from its start.
  function placeCurrentScript(line: number | undefined, column: number | undefined) {
    if (!currentScriptOf || !scriptsOf || !scriptTextOf || !line) return null;
    const el = currentScriptOf(document);
    if (!el) return null;
    const text = scriptTextOf(el);
    const list = scriptsOf(document);
    let nth = 0;
    for (let i = 0; i < list.length && list[i] !== el; i++) if (scriptTextOf(list[i]) === text) nth++;
    return placeInSource(sourceText(), text, nth, line, column || 1);
  }
  function tellError(kind: "error" | "rejection", err: unknown, message: string, line?: number, column?: number) {
    let at = null;
    try {
      const frame = frameOf(err);
      at = frame ? placeByHash(frame) : kind === "error" ? placeCurrentScript(line, column) : null;
    } catch {}
    tell("error", { type: "error", kind: kind, message: clip(message, config.messageMax), line: at ? at.line : null, column: at ? at.column : null });
  }
  function onError(event: ErrorEvent) {
    try {
      const message = replaceAll(Str(event.message || describe(event.error)), WRITE_FAILED, "");
      tellError("error", event.error, message, event.lineno, event.colno);
    } catch {}
  }
  function onRejection(event: PromiseRejectionEvent) {
    try {
      tellError("rejection", event.reason, "Uncaught (in promise) " + describe(event.reason));
    } catch {}
  }
  function onViolation(event: SecurityPolicyViolationEvent) {
    try {
      const uri = Str(event.blockedURI || "");
      const directive = Str(event.effectiveDirective || event.violatedDirective || "");
      const reason =
        uri === "eval"
          ? "The frame's Content-Security-Policy blocks eval and new Function."
          : "The frame's Content-Security-Policy (" + directive + ") blocks it: a dashboard reads data only with fetch(window.DASHBOARD_API_BASE + path) and loads nothing from elsewhere.";
      tellRefusal(null, uri, "blocked_by_policy", reason);
    } catch {}
  }
  return {
    wrote(html: string) {
      written = html;
    },
    watchRender() {
      dom.addListener.call(window, "error", onError as EventListener);
      dom.addListener.call(window, "unhandledrejection", onRejection as EventListener);
      dom.addListener.call(window, "securitypolicyviolation", onViolation as EventListener);
    },
  };
}

/**
 * Every console level reaches the page (the editor's console); console.error lines also go
 * into the render report. Each call still reaches the browser's own console.
 */
export function wrapConsoles(tell: Tell, config: FrameConfig): void {
  const con = window.console as unknown as Record<string, unknown> | undefined;
  function wrapConsole(method: string, level: string) {
    const original = con && con[method];
    if (typeof original !== "function") return;
    try {
      defineProp(con, method, {
        value: function (this: unknown, ...args: unknown[]) {
          try {
            const line = method === "table" ? fmtTable(args[0], args[1]) : fmtArgs(args);
            if (line) tell(level === "error" ? "console" : "log", { type: "console", level: level, message: clip(line, config.messageMax) });
          } catch {}
          return apply(original, this, args);
        },
        writable: true,
        configurable: true,
      });
    } catch {}
  }
  if (con) {
    wrapConsole("log", "log");
    wrapConsole("info", "info");
    wrapConsole("warn", "warn");
    wrapConsole("error", "error");
    wrapConsole("debug", "debug");
    wrapConsole("table", "log");
  }
}
