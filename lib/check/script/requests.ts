// The requests' rule families: where a request goes (hardcoded-api-base, external-resource, the
// blocked resources and dead links) and what it asks (non-get-request), from the strings, calls,
// assignments and objects of a script.
import { clip, TRACKED_NAMES, type Context } from "../context";
import { checkCss, reportBlockedResource, reportDeadLink, reportScenario, scanHtml } from "../html";
import {
  ACTIVITY_BASIS,
  HOLE,
  SCENARIO_PARAM,
  classifyApiUrl,
  isAbsoluteUrl,
  isBlockedResource,
  isForeignLink,
  pagedEndpoint,
  readsCx,
  type ApiUrlKind,
} from "../urls";
import { startOf, type AnyNode } from "../walk";
import { isFunction, isPlus, keyName, shapeOf, type CallExpression, type NewExpression, type Script } from "./nodes";

export const NON_GET = new Set(["POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE"]);
export const REQUEST_INIT_KEYS = new Set(["body", "headers", "credentials", "mode", "cache", "redirect", "keepalive", "signal", "referrerPolicy"]);
/** What a string must hold to be judged as a URL, a query string or markup. */
export const URLISH = /[/=<(]/;

const API_HINT =
  'Build every URL on the API base: `const API = window.DASHBOARD_API_BASE || "/api";` then `fetch(API + "/cx/owners")`. The playground sets DASHBOARD_API_BASE to /dashboards/playground/api and the saved page serves the API at /api. To tell demo data from live, read `window.DASHBOARD_DATA_MODE` ("demo" or "live") rather than comparing URLs.';

/** What a string in code says as a URL, a query string, markup or CSS. */
export function checkStringShape(ctx: Context, shape: string, offset: number, besideApiBase: () => boolean): void {
  const kind = classifyApiUrl(shape);
  if (kind !== null && kind !== "bare-path" && !(kind === "base-only" && besideApiBase())) {
    ctx.report("hardcoded-api-base", offset, apiUrlMessage(kind, `"${clip(shape)}"`), API_HINT);
  }
  if (SCENARIO_PARAM.test(shape)) reportScenario(ctx, offset, shape);
  if (ACTIVITY_BASIS.test(shape)) ctx.facts.activityUses.push(offset);
  if (readsCx(shape)) ctx.facts.cxReads.push(offset);
  const paged = pagedEndpoint(shape);
  if (paged) ctx.facts.pagedReads.push({ path: paged, offset });
  if (shape.includes("<") && /\b(?:src|srcset|href|poster|data)\s*=|url\(|@import/i.test(shape)) scanHtml(ctx, shape, null, offset, false);
  else if (/url\(|@import/i.test(shape)) checkCss(ctx, shape, offset, false);
}

function apiUrlMessage(kind: Exclude<ApiUrlKind, "bare-path">, quoted: string): string {
  switch (kind) {
    case "base-only":
      return `${quoted} hard-codes the API base without reading window.DASHBOARD_API_BASE; in the playground the API is at /dashboards/playground/api, so requests built on it fail there.`;
    case "api":
      return `${quoted} hard-codes the API base "/api"; in the playground the API is at /dashboards/playground/api, so this request fails there.`;
    case "playground":
      return `${quoted} hard-codes the playground's API base; once the dashboard is saved the API is at /api, so this request fails there.`;
    case "absolute":
      return `${quoted} is an absolute URL to the API; the frame reaches the API only through paths under the API base and refuses absolute URLs.`;
  }
}

export function reportNonGet(ctx: Context, offset: number, what: string, method: string): void {
  ctx.report(
    "non-get-request",
    offset,
    `${what} sends a ${method} request; the data broker answers GET only, so it is refused.`,
    "Read data with GET only (fetch without a method, or method: \"GET\"); a dashboard cannot write anything.",
  );
}

const LIBRARIES = new Set(["axios", "$", "jQuery", "ky", "superagent"]);

export class RequestRules {
  private readonly methodVars = new Map<string, { offset: number; method: string }>();
  private readonly initVars: { name: string; what: string }[] = [];

  constructor(private readonly script: Script) {}

  /** A string expression whole (not a piece of a larger one), with the node's ancestors. */
  stringExpression(node: AnyNode, anc: AnyNode[]): void {
    const parent = anc[anc.length - 2];
    // Pieces of a larger string are judged as part of it.
    if (isPlus(parent) || parent?.type === "TemplateLiteral") return;
    const shape = shapeOf(node);
    if (shape === null || !URLISH.test(shape)) return;
    checkStringShape(this.script.ctx, shape, this.script.at(startOf(node)), () => this.besideApiBase(anc));
  }

  /** The "/api" fallback is right where the same function (or top-level statement) reads DASHBOARD_API_BASE. */
  private besideApiBase(anc: AnyNode[]): boolean {
    for (let i = anc.length - 2; i >= 1; i--) {
      const a = anc[i];
      if (!a) break;
      if (isFunction(a) || i === 1) return this.script.src(a).includes("DASHBOARD_API_BASE");
    }
    return false;
  }

  /** The URL handed to fetch, XMLHttpRequest.open, Request, EventSource or WebSocket. */
  private requestUrl(arg: AnyNode | undefined, what: string): void {
    if (!arg || arg.type === "SpreadElement") return;
    const { ctx, at } = this.script;
    // Only fetch reaches the broker: XMLHttpRequest, EventSource and WebSocket are the frame
    // policy's to stop, and a Request object is a read once it is fetched.
    if (what === "fetch") ctx.reads.request(arg, at(startOf(arg)), this.script.src(arg));
    const shape = shapeOf(arg);
    if (shape === null) return;
    const offset = at(startOf(arg));
    const kind = classifyApiUrl(shape);
    if (kind === "bare-path") {
      ctx.report(
        "hardcoded-api-base",
        offset,
        `${what}("${clip(shape)}") requests an API path without the API base, so it goes to the frame's own origin instead of the API.`,
        API_HINT,
      );
    } else if (kind === null && isAbsoluteUrl(shape)) {
      ctx.report(
        "external-resource",
        offset,
        `${what}("${clip(shape)}") cannot reach another server: the frame's Content-Security-Policy has connect-src 'none', and data comes only through the API base.`,
        "Fetch data from the API base only (`window.DASHBOARD_API_BASE || \"/api\"`); embed anything else the dashboard needs in the document.",
      );
    }
  }

  moduleLoad(source: AnyNode): void {
    const shape = shapeOf(source);
    reportBlockedResource(this.script.ctx, this.script.at(startOf(source)), "import", shape ?? this.script.src(source), "script");
  }

  /** `fetch(url, init)` */
  fetch(args: CallExpression["arguments"]): void {
    this.script.ctx.facts.requests = true;
    this.requestUrl(args[0], "fetch");
    const init = args[1];
    if (init?.type === "Identifier") this.initVars.push({ name: init.name, what: "fetch" });
  }

  /** `xhr.open(method, url)` */
  xhrOpen(node: CallExpression, method: string): void {
    this.script.ctx.facts.requests = true;
    if (NON_GET.has(method)) this.nonGet(startOf(node), `XMLHttpRequest.open("${method}", …)`, method);
    this.requestUrl(node.arguments[1], "XMLHttpRequest.open");
  }

  sendBeacon(node: CallExpression): void {
    this.script.ctx.facts.requests = true;
    this.nonGet(startOf(node), "navigator.sendBeacon()", "POST");
  }

  /** `library.name(…)` is a request library's call. */
  isLibrary(obj: AnyNode | null): obj is Extract<AnyNode, { type: "Identifier" }> {
    return obj?.type === "Identifier" && LIBRARIES.has(obj.name);
  }

  /** `axios.post(…)`, `$.getJSON(url)` */
  libraryCall(node: CallExpression, library: string, name: string): void {
    this.script.ctx.facts.requests = true;
    const method = name.toUpperCase();
    if (NON_GET.has(method)) this.nonGet(startOf(node), `${library}.${name}()`, method);
    else if (name === "get" || name === "getJSON") this.requestUrl(node.arguments[0], `${library}.${name}`);
  }

  /** `params.set("scenario", …)`, `params.get("basis", "activity")` and the like, on `obj`. */
  searchParam(node: CallExpression, name: string, key: string, obj: AnyNode): void {
    const { ctx, at } = this.script;
    const params = /search|param|query|url|qs/i.test(this.script.src(obj));
    if (key === "scenario" && params) reportScenario(ctx, at(startOf(node)), `${this.script.src(obj)}.${name}("scenario", …)`);
    const arg1 = node.arguments[1];
    if (key === "basis" && arg1?.type === "Literal" && arg1.value === "activity") ctx.facts.activityUses.push(at(startOf(node)));
  }

  newExpression(node: NewExpression, name: string | null): void {
    const arg0 = node.arguments[0];
    const { ctx, at } = this.script;
    const facts = ctx.facts;
    if (name === "Request") {
      facts.requests = true;
      this.requestUrl(arg0, "new Request");
    } else if (name === "XMLHttpRequest") {
      facts.requests = true;
    } else if (name === "EventSource" || name === "WebSocket") {
      facts.requests = true;
      this.requestUrl(arg0, `new ${name}`);
    } else if ((name === "Worker" || name === "SharedWorker") && arg0 && arg0.type !== "SpreadElement") {
      const shape = shapeOf(arg0);
      if (shape !== null && isBlockedResource(shape, true)) reportBlockedResource(ctx, at(startOf(arg0)), `new ${name}`, shape, "script");
    } else if (name === "URLSearchParams" && arg0?.type === "ObjectExpression") {
      for (const p of arg0.properties) {
        if (p.type === "Property" && keyName(p.key, p.computed) === "scenario") {
          reportScenario(ctx, at(startOf(p)), "new URLSearchParams({ scenario: … })");
        }
      }
    }
  }

  private nonGet(pos: number, what: string, method: string): void {
    reportNonGet(this.script.ctx, this.script.at(pos), what, method);
  }

  srcAssignment(value: AnyNode, what: string): void {
    if (value.type === "SpreadElement") return;
    const shape = shapeOf(value);
    if (shape !== null && isBlockedResource(shape, true) && !shape.startsWith(HOLE)) {
      reportBlockedResource(this.script.ctx, this.script.at(startOf(value)), what, shape, "resource");
    }
  }

  linkAssignment(value: AnyNode, what: string): void {
    if (value.type === "SpreadElement") return;
    const shape = shapeOf(value);
    if (shape !== null && isForeignLink(shape)) reportDeadLink(this.script.ctx, this.script.at(startOf(value)), what, shape);
  }

  apiBaseAssignment(node: Extract<AnyNode, { type: "AssignmentExpression" }>): void {
    // `window.DASHBOARD_API_BASE = window.DASHBOARD_API_BASE || "/api"` only fills in a default.
    if (this.script.src(node.right).includes("DASHBOARD_API_BASE")) return;
    this.script.ctx.report(
      "hardcoded-api-base",
      this.script.at(startOf(node)),
      "Assigning window.DASHBOARD_API_BASE replaces the API base that the playground and the saved page provide.",
      'Read it, never assign it: `const API = window.DASHBOARD_API_BASE || "/api";`.',
    );
  }

  /** An object literal that may be a request's init (`{ method: "POST", body }`), or a variable holding one. */
  objectExpression(node: Extract<AnyNode, { type: "ObjectExpression" }>, anc: AnyNode[]): void {
    let method: { value: string; pos: number } | null = null;
    let requestInit = false;
    for (const p of node.properties) {
      if (p.type !== "Property") continue;
      const k = keyName(p.key, p.computed);
      if (k === null) continue;
      if (TRACKED_NAMES.has(k)) this.script.ctx.facts.names.add(k);
      const v = p.value;
      const lit = v.type === "Literal" && typeof v.value === "string" ? v.value : null;
      if ((k === "method" || k === "type") && lit !== null && NON_GET.has(lit.toUpperCase())) method = { value: lit.toUpperCase(), pos: startOf(p) };
      else if (k === "basis" && lit === "activity") this.script.ctx.facts.activityUses.push(this.script.at(startOf(p)));
      else if (REQUEST_INIT_KEYS.has(k)) requestInit = true;
    }
    if (!method) return;
    const parent = anc[anc.length - 2];
    const isArgument =
      (parent?.type === "CallExpression" || parent?.type === "NewExpression") && parent.arguments.some((a) => a === node);
    if (isArgument || requestInit) this.nonGet(method.pos, `{ method: "${method.value}" }`, method.value);
    else if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") {
      this.methodVars.set(parent.id.name, { offset: method.pos, method: method.value });
    }
  }

  /** `fetch(url, init)` where `init` was declared as `{ method: "POST" }`. */
  finish(): void {
    for (const v of this.initVars) {
      const m = this.methodVars.get(v.name);
      if (m) {
        this.script.ctx.report(
          "non-get-request",
          m.offset,
          `${v.what}(…, ${v.name}) sends a ${m.method} request; the data broker answers GET only, so it is refused.`,
          "Read data with GET only (fetch without a method, or method: \"GET\"); a dashboard cannot write anything.",
        );
      }
    }
  }
}
