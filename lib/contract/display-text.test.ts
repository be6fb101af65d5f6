import { describe, expect, it } from "vitest";
import { UNSAFE_DISPLAY_CHARACTERS, UNSAFE_DISPLAY_LIST, codePoint as hex } from "@/tests/fixtures/display-text";
import { neutralised, unsafeCharacter } from "./display-text";

// What counts as a character that makes text display other than it reads, and what is left of
// text without them.

describe("display text", () => {
  it.each(Object.entries(UNSAFE_DISPLAY_CHARACTERS))("names each %s character, wherever it stands", (kind, chars) => {
    const words = { bidi: "a bidirectional control", zeroWidth: "a zero-width character", control: "a control character" }[kind];
    for (const ch of chars) {
      for (const text of [`${ch}name`, `na${ch}me`, `name${ch}`]) expect(unsafeCharacter(text), hex(ch)).toBe(`${hex(ch)}, ${words}`);
    }
  });

  it("takes each of them out, keeping the words apart where a line broke", () => {
    for (const ch of UNSAFE_DISPLAY_LIST) {
      const out = neutralised(`Sales${ch}board`);
      expect(unsafeCharacter(out), hex(ch)).toBeNull();
      expect(["Salesboard", "Sales board"], hex(ch)).toContain(out);
    }
    expect(neutralised("Q3\nrevenue\tby\u2028region")).toBe("Q3 revenue by region");
    expect(neutralised("\u202egpj.exe")).toBe("gpj.exe");
    expect(neutralised("\u2067\u05e9\u05dc\u05d5\u05dd\u2069 app")).toBe("\u05e9\u05dc\u05d5\u05dd app");
  });

  it("refuses the other invisible ones too: tags, invisible operators, half a surrogate pair", () => {
    expect(unsafeCharacter("flag\u{e0067}")).toBe("U+E0067, an invisible formatting character");
    expect(unsafeCharacter("a\u2062b")).toBe("U+2062, a zero-width character");
    expect(unsafeCharacter("a\ud800b")).toBe("U+D800, half of a character");
  });

  it("leaves every script, accent, emoji and space alone", () => {
    for (const name of ["VS Code", "Crème brûlée", "Ωmega", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "日本語のアプリ", "Claude 🚀", "a\u00a0b", "naïve — café"]) {
      expect(unsafeCharacter(name), name).toBeNull();
      expect(neutralised(name)).toBe(name);
    }
  });
});
