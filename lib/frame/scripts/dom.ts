import { uncurry } from "./primordials";

function getterOf<T>(ctor: unknown, key: string): ((self: unknown) => T) | null {
  const d = typeof ctor === "function" ? Object.getOwnPropertyDescriptor(ctor.prototype, key) : null;
  return d && d.get ? uncurry(d.get as () => T) : null;
}

/**
 * The browser's built-ins the frame's script calls, taken as it starts, so the dashboard's own
 * patches cannot stop the frame following its size or reporting its errors. Those a browser
 * (or a test's stand-in window) may lack are null.
 */
export function takeDom() {
  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const RO = typeof ResizeObserver === "function" ? ResizeObserver : null;
  return {
    R: Response,
    H: Headers,
    DE: typeof DOMException === "function" ? DOMException : Error,
    setT: setTimeout.bind(window) as (fn: () => void, ms: number) => number,
    clearT: clearTimeout.bind(window) as (id: number) => void,
    addListener,
    removeListener,
    TextEnc: typeof TextEncoder === "function" ? TextEncoder : null,
    scriptsOf: typeof Document === "function" ? getterOf<ArrayLike<HTMLScriptElement>>(Document, "scripts") : null,
    currentScriptOf: typeof Document === "function" ? getterOf<HTMLOrSVGScriptElement | null>(Document, "currentScript") : null,
    scriptTextOf: typeof HTMLScriptElement === "function" ? getterOf<string>(HTMLScriptElement, "text") : null,
    raf: typeof window.requestAnimationFrame === "function" ? window.requestAnimationFrame.bind(window) : null,
    RO,
    rectOf: typeof Element === "function" ? uncurry(Element.prototype.getBoundingClientRect) : null,
    scrollHeightOf: typeof Element === "function" ? getterOf<number>(Element, "scrollHeight") : null,
    observe: RO ? uncurry(RO.prototype.observe) : null,
  };
}

export type Dom = ReturnType<typeof takeDom>;
