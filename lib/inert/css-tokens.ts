// The CSS tokenizer of css.ts: CSS Syntax Level 3's tokens, read as a browser reads them
// (escapes, comments, strings, url tokens and their bad forms).

export type Token =
  | { t: "ws" }
  | { t: "ident"; v: string }
  | { t: "function"; v: string }
  | { t: "at"; v: string }
  | { t: "hash"; v: string }
  | { t: "string"; v: string }
  | { t: "bad-string" }
  | { t: "url"; v: string }
  | { t: "bad-url" }
  | { t: "delim"; v: string }
  | { t: "number"; repr: string }
  | { t: "percentage"; repr: string }
  | { t: "dimension"; repr: string; unit: string }
  | { t: "cdo" }
  | { t: "cdc" }
  | { t: ":" }
  | { t: ";" }
  | { t: "," }
  | { t: "(" }
  | { t: ")" }
  | { t: "[" }
  | { t: "]" }
  | { t: "{" }
  | { t: "}" };

export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
export const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isIdentStart = (c: number) => isLetter(c) || c === 0x5f || c >= 0x80;
const isIdentChar = (c: number) => isIdentStart(c) || isDigit(c) || c === 0x2d;
const isWs = (c: number) => c === 0x0a || c === 0x09 || c === 0x20;
const isNonPrintable = (c: number) => (c >= 0 && c <= 8) || c === 0x0b || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
const EOF = -1;

/** CSS Syntax's preprocessing: newlines normalised, NUL and lone surrogates replaced. */
function preprocess(css: string): string {
  return css
    .replace(/\r\n?|\f/g, "\n")
    .replace(/\0/g, "\ufffd")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

// Tokens without a value are shared: a sheet of a million semicolons makes no million objects.
const WS: Token = { t: "ws" };
const PUNCTUATION: Record<number, Token> = {
  0x28: { t: "(" },
  0x29: { t: ")" },
  0x2c: { t: "," },
  0x3a: { t: ":" },
  0x3b: { t: ";" },
  0x5b: { t: "[" },
  0x5d: { t: "]" },
  0x7b: { t: "{" },
  0x7d: { t: "}" },
};

/**
 * The tokens of `css`, read by UTF-16 code unit: a surrogate pair is two code units at or above
 * 0x80, which CSS reads as name characters either way.
 */
export function tokenize(css: string): Token[] {
  return new Tokenizer(preprocess(css)).tokens();
}

class Tokenizer {
  private i = 0;
  private readonly n: number;

  constructor(private readonly s: string) {
    this.n = s.length;
  }

  private at(k: number): number {
    return this.i + k < this.n ? this.s.charCodeAt(this.i + k) : EOF;
  }

  private validEscape(a: number, b: number): boolean {
    return a === 0x5c && b !== 0x0a && b !== EOF;
  }

  private startsIdent(a: number, b: number, c: number): boolean {
    if (a === 0x2d) return isIdentStart(b) || b === 0x2d || this.validEscape(b, c);
    if (isIdentStart(a)) return true;
    return this.validEscape(a, b);
  }

  private startsNumber(a: number, b: number, c: number): boolean {
    if (a === 0x2b || a === 0x2d) return isDigit(b) || (b === 0x2e && isDigit(c));
    if (a === 0x2e) return isDigit(b);
    return isDigit(a);
  }

  /** After the backslash. */
  private escape(): string {
    const c = this.at(0);
    if (c === EOF) return "\ufffd";
    this.i++;
    if (!isHex(c)) return String.fromCodePoint(c);
    let hex = String.fromCharCode(c);
    while (hex.length < 6 && isHex(this.at(0))) hex += this.s[this.i++];
    if (isWs(this.at(0))) this.i++;
    const cp = parseInt(hex, 16);
    return cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ? "\ufffd" : String.fromCodePoint(cp);
  }

  private identSequence(): string {
    let v = "";
    for (;;) {
      const start = this.i;
      while (this.i < this.n && isIdentChar(this.s.charCodeAt(this.i))) this.i++;
      v += this.s.slice(start, this.i);
      if (this.validEscape(this.at(0), this.at(1))) {
        this.i++;
        v += this.escape();
      } else return v;
    }
  }

  private numberRepr(): string {
    const start = this.i;
    if (this.at(0) === 0x2b || this.at(0) === 0x2d) this.i++;
    while (isDigit(this.at(0))) this.i++;
    if (this.at(0) === 0x2e && isDigit(this.at(1))) {
      this.i++;
      while (isDigit(this.at(0))) this.i++;
    }
    if ((this.at(0) === 0x45 || this.at(0) === 0x65) && (isDigit(this.at(1)) || ((this.at(1) === 0x2b || this.at(1) === 0x2d) && isDigit(this.at(2))))) {
      this.i += isDigit(this.at(1)) ? 1 : 2;
      while (isDigit(this.at(0))) this.i++;
    }
    return this.s.slice(start, this.i);
  }

  private numeric(): Token {
    const repr = this.numberRepr();
    if (this.startsIdent(this.at(0), this.at(1), this.at(2))) return { t: "dimension", repr, unit: this.identSequence() };
    if (this.at(0) === 0x25) {
      this.i++;
      return { t: "percentage", repr };
    }
    return { t: "number", repr };
  }

  private badUrlRemnants(): void {
    for (;;) {
      const c = this.at(0);
      if (c === EOF) return;
      this.i++;
      if (c === 0x29) return;
      if (this.validEscape(c, this.at(0))) this.escape();
    }
  }

  private url(): Token {
    let v = "";
    while (isWs(this.at(0))) this.i++;
    for (;;) {
      const c = this.at(0);
      if (c === EOF) return { t: "url", v };
      this.i++;
      if (c === 0x29) return { t: "url", v };
      if (isWs(c)) {
        while (isWs(this.at(0))) this.i++;
        if (this.at(0) === 0x29 || this.at(0) === EOF) {
          if (this.at(0) === 0x29) this.i++;
          return { t: "url", v };
        }
        this.badUrlRemnants();
        return { t: "bad-url" };
      }
      if (c === 0x22 || c === 0x27 || c === 0x28 || isNonPrintable(c)) {
        this.badUrlRemnants();
        return { t: "bad-url" };
      }
      if (c === 0x5c) {
        if (this.validEscape(c, this.at(0))) v += this.escape();
        else {
          this.badUrlRemnants();
          return { t: "bad-url" };
        }
        continue;
      }
      v += this.s[this.i - 1];
    }
  }

  private identLike(): Token {
    const v = this.identSequence();
    if (v.toLowerCase() === "url" && this.at(0) === 0x28) {
      this.i++;
      while (isWs(this.at(0)) && isWs(this.at(1))) this.i++;
      const next = isWs(this.at(0)) ? this.at(1) : this.at(0);
      if (next === 0x22 || next === 0x27) return { t: "function", v };
      return this.url();
    }
    if (this.at(0) === 0x28) {
      this.i++;
      return { t: "function", v };
    }
    return { t: "ident", v };
  }

  private string(quote: number): Token {
    let v = "";
    for (;;) {
      const c = this.at(0);
      if (c === EOF) return { t: "string", v };
      this.i++;
      if (c === quote) return { t: "string", v };
      if (c === 0x0a) {
        this.i--;
        return { t: "bad-string" };
      }
      if (c === 0x5c) {
        if (this.at(0) === EOF) continue;
        if (this.at(0) === 0x0a) {
          this.i++;
          continue;
        }
        v += this.escape();
        continue;
      }
      v += this.s[this.i - 1];
    }
  }

  tokens(): Token[] {
    const tokens: Token[] = [];
    while (this.i < this.n) {
      const c = this.s.charCodeAt(this.i);
      if (c === 0x2f && this.at(1) === 0x2a) {
        const end = this.s.indexOf("*/", this.i + 2);
        this.i = end === -1 ? this.n : end + 2;
        continue;
      }
      if (isWs(c)) {
        while (isWs(this.at(0))) this.i++;
        tokens.push(WS);
        continue;
      }
      if (c === 0x22 || c === 0x27) {
        this.i++;
        tokens.push(this.string(c));
        continue;
      }
      if (c === 0x23) {
        if (isIdentChar(this.at(1)) || this.validEscape(this.at(1), this.at(2))) {
          this.i++;
          tokens.push({ t: "hash", v: this.identSequence() });
        } else {
          this.i++;
          tokens.push({ t: "delim", v: "#" });
        }
        continue;
      }
      const single = PUNCTUATION[c];
      if (single) {
        this.i++;
        tokens.push(single);
        continue;
      }
      if (c === 0x2b || c === 0x2e) {
        if (this.startsNumber(c, this.at(1), this.at(2))) tokens.push(this.numeric());
        else {
          this.i++;
          tokens.push({ t: "delim", v: String.fromCharCode(c) });
        }
        continue;
      }
      if (c === 0x2d) {
        if (this.startsNumber(c, this.at(1), this.at(2))) tokens.push(this.numeric());
        else if (this.at(1) === 0x2d && this.at(2) === 0x3e) {
          this.i += 3;
          tokens.push({ t: "cdc" });
        } else if (this.startsIdent(c, this.at(1), this.at(2))) tokens.push(this.identLike());
        else {
          this.i++;
          tokens.push({ t: "delim", v: "-" });
        }
        continue;
      }
      if (c === 0x3c) {
        if (this.at(1) === 0x21 && this.at(2) === 0x2d && this.at(3) === 0x2d) {
          this.i += 4;
          tokens.push({ t: "cdo" });
        } else {
          this.i++;
          tokens.push({ t: "delim", v: "<" });
        }
        continue;
      }
      if (c === 0x40) {
        this.i++;
        if (this.startsIdent(this.at(0), this.at(1), this.at(2))) tokens.push({ t: "at", v: this.identSequence() });
        else tokens.push({ t: "delim", v: "@" });
        continue;
      }
      if (c === 0x5c) {
        if (this.validEscape(c, this.at(1))) tokens.push(this.identLike());
        else {
          this.i++;
          tokens.push({ t: "delim", v: "\\" });
        }
        continue;
      }
      if (isDigit(c)) {
        tokens.push(this.numeric());
        continue;
      }
      if (isIdentStart(c)) {
        tokens.push(this.identLike());
        continue;
      }
      this.i++;
      tokens.push({ t: "delim", v: this.s[this.i - 1]! });
    }
    return tokens;
  }
}
