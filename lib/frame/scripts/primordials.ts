// The built-ins the frame's guards call, taken as the script starts, before any dashboard code
// runs. Dashboard code shares this window and may patch any built-in before it next writes
// markup, so the guards call these and never look a method up again.

/** `uncurry(method)(self, ...args)` calls `method` on `self` without a lookup of `call`. */
export const uncurry = Function.prototype.bind.bind(Function.prototype.call) as <A extends unknown[], R>(method: (...args: A) => R) => (self: unknown, ...args: A) => R;

export const apply = Reflect.apply;
export const defineProp = Object.defineProperty;
export const getNames = Object.getOwnPropertyNames;
export const TypeErr = TypeError;
export const Str = String;
export const P = Promise;
export const ErrorCtor = Error;
export const MapCtor = Map;
export const parseJson = JSON.parse;
export const dateParse = Date.parse;
export const dateUTC = Date.UTC;
export const D = Date;
export const now = Date.now;

export const rxExec = uncurry(RegExp.prototype.exec);
const strReplace = uncurry(String.prototype.replace as (this: string, pattern: RegExp, by: string) => string);
export const strLower = uncurry(String.prototype.toLowerCase);
export const strIndexOf = uncurry(String.prototype.indexOf);
export const strCharAt = uncurry(String.prototype.charAt);
export const strSlice = uncurry(String.prototype.slice);

const rxReplaceSym = RegExp.prototype[Symbol.replace];
const origExec = RegExp.prototype.exec;

/** A regular expression whose replace and exec no later patch of RegExp.prototype can reach. */
export function fixed(source: string, flags: string): RegExp {
  const re = new RegExp(source, flags);
  defineProp(re, "exec", { value: origExec });
  defineProp(re, "flags", { value: flags });
  defineProp(re, "global", { value: flags.indexOf("g") !== -1 });
  defineProp(re, "unicode", { value: false });
  defineProp(re, "unicodeSets", { value: false });
  defineProp(re, Symbol.replace, { value: rxReplaceSym });
  return re;
}

export function matches(re: RegExp, s: string): boolean {
  re.lastIndex = 0;
  return rxExec(re, s) !== null;
}

export function replaceAll(s: string, re: RegExp, by: string): string {
  re.lastIndex = 0;
  return strReplace(s, re, by);
}
