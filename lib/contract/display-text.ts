// Names and titles that people read: an app's client_name on the consent page, a person's name
// and handle, a dashboard's <title>. Some characters make text show something other than what it
// is: a bidirectional control reorders what follows it (after U+202E, "gpj.exe" reads "exe.jpg"),
// a zero-width character makes two different names look the same, a control character breaks a
// line or vanishes. Where someone chooses the text (a client registering), such text is refused;
// where it is content (a document's title, a provider's claims), those characters are taken out.
// Plain TypeScript: the editor and watch page name drafts in the browser with the same rules.

// Every C0 and C1 control and DEL (Cc), every format character (Cf: the bidirectional embeddings,
// overrides, isolates and marks, U+061C, the zero-width space, joiners and word joiner, U+FEFF,
// U+180E, the tag characters), the line and paragraph separators, and unpaired surrogates.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;
// Characters that separate words where they stand: taking them out would join the words.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const INVISIBLE = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/u;

/**
 * The first character that would make the text display other than it reads, named for a person
 * fixing it ("U+202E, a bidirectional control"), or null when there is none.
 */
export function unsafeCharacter(text: string): string | null {
  const m = UNSAFE.exec(text);
  if (!m) return null;
  const ch = m[0];
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  if (BIDI.test(ch)) return `${code}, a bidirectional control`;
  if (INVISIBLE.test(ch)) return `${code}, a zero-width character`;
  if (/\p{Cf}/u.test(ch)) return `${code}, an invisible formatting character`;
  if (/\p{Cs}/u.test(ch)) return `${code}, half of a character`;
  return `${code}, a control character`;
}

/** The text without those characters: line breaks and tabs become spaces, the rest are dropped. */
export function neutralised(text: string): string {
  return text.replace(BREAKS, " ").replace(UNSAFE_ALL, "");
}
