// The dashboard's fetch: GET and HEAD only, each read sent to the host over the port as a
// `fetch` request and answered by its `response`. The host re-checks every request it relays.
import { clip, type Send, type Tell } from "./report";
import type { FrameConfig } from "./config";
import type { Dom } from "./dom";
import { fixed, matches, P, TypeErr as TE } from "./primordials";

const METHOD = fixed("^[A-Z]{1,16}$", "");

/** What the host answers a request with (its shape unchecked: a dashboard's own port could post anything). */
export interface Answer {
  id: number;
  status?: unknown;
  body?: unknown;
  headers?: HeadersInit;
}

interface FetchOptions {
  method?: unknown;
  signal?: AbortSignal | null;
  headers?: HeadersInit;
}

export function fetchShim(send: Send, tell: Tell, dom: Dom, config: FrameConfig) {
  const { R, H, DE, setT, clearT, addListener, removeListener } = dom;
  const pending = new Map<number, { settle(m: Answer): void }>();
  let nextId = 1;
  const origin = location.origin;

  function urlOf(input: unknown): string {
    const given = input as { url?: unknown } | null | undefined;
    let raw = typeof input === "string" ? input : input instanceof URL ? input.href : given && typeof given.url === "string" ? given.url : String(input);
    // Request and URL objects come back absolute against this document's address; the broker
    // only relays paths, so the frame's own origin is taken off again here.
    if (origin !== "null" && raw.indexOf(origin + "/") === 0) raw = raw.slice(origin.length);
    return raw;
  }

  function tellRefusal(method: string | null, input: unknown, error: string, reason: string): void {
    try {
      tell("refusal", { type: "refusal", method: method, path: clip(typeof input === "string" ? input : urlOf(input), config.reportPathMax), error: error, reason: clip(reason, config.reasonMax) });
    } catch {}
  }

  function shimFetch(input: unknown, options?: FetchOptions): Promise<Response> {
    const given = input as { method?: unknown } | null | undefined;
    const asked = (options && options.method) || (given && typeof given === "object" && typeof given.method === "string" ? given.method : "GET");
    const method = String(asked).toUpperCase();
    if (method !== "GET" && method !== "HEAD") {
      const refused = "Dashboards only read data: fetch with " + method + " is not allowed.";
      tellRefusal(matches(METHOD, method) ? method : "OTHER", input, "method_not_allowed", refused);
      return P.reject(new TE(refused));
    }
    const path = urlOf(input);
    if (path.length > config.pathMax) {
      tellRefusal(method, path, "invalid_path", "The request URL is too long.");
      return P.reject(new TE("The request URL is too long."));
    }
    const signal = options && options.signal;
    if (signal && signal.aborted) return P.reject(new DE("The operation was aborted.", "AbortError"));
    const headers: Record<string, string> = {};
    try {
      new H((options && options.headers) || undefined).forEach(function (v, k) {
        headers[k] = v;
      });
    } catch (e) {
      return P.reject(e);
    }
    const id = nextId++;
    return new P<Response>(function (resolve, reject) {
      const timer = setT(function () {
        done();
        reject(new TE("The dashboard API did not answer in time."));
      }, config.fetchTimeoutMs);
      function onAbort() {
        done();
        reject(new DE("The operation was aborted.", "AbortError"));
      }
      function done() {
        pending.delete(id);
        clearT(timer);
        if (signal) removeListener.call(signal, "abort", onAbort);
      }
      if (signal) addListener.call(signal, "abort", onAbort);
      pending.set(id, {
        settle: function (m) {
          done();
          try {
            const status = (m.status as number) | 0;
            const nullBody = status === 204 || status === 205 || status === 304 || method === "HEAD";
            resolve(new R(nullBody ? null : String(m.body), { status: status, headers: m.headers || {} }));
          } catch {
            reject(new TE("The dashboard API sent an unreadable answer."));
          }
        },
      });
      send({ type: "fetch", id: id, method: method, path: path, headers: headers });
    });
  }

  return {
    fetch: shimFetch,
    tellRefusal,
    /** Settles the request a response answers, if it is still waiting. */
    answer(m: Answer): void {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      p.settle(m);
    },
  };
}
