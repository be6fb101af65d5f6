// Where in the dashboard's HTML an error happened. Scripts written by document.write count their
// lines from their own start, and V8 names each script by the SHA-256 of its UTF-8 source
// (CallSite.getScriptHash), so a stack frame is placed by finding the script element whose text
// has that hash and that text in the written document (the frame may lack crypto.subtle, hence a
// SHA-256 of its own). Hostile code that patches a built-in these use spoils only its own report:
// the host validates every notice, and nothing here holds the port.

const SHA_K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

// Every index below is in range: the reads use `!` rather than checks in the inner loops.
/** SHA-256 of a byte array, as lowercase hex. */
export function sha256Hex(bytes: ArrayLike<number>): string {
  const len = bytes.length;
  const blocks = ((len + 8) >> 6) + 1;
  const m = new Uint32Array(blocks * 16);
  for (let i = 0; i < len; i++) m[i >> 2]! |= bytes[i]! << (24 - (i & 3) * 8);
  m[len >> 2]! |= 0x80 << (24 - (len & 3) * 8);
  m[blocks * 16 - 1] = (len * 8) >>> 0;
  m[blocks * 16 - 2] = Math.floor(len / 0x20000000);
  const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const w = new Uint32Array(64);
  for (let b = 0; b < blocks; b++) {
    let t: number;
    for (t = 0; t < 16; t++) w[t] = m[b * 16 + t]!;
    for (t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      w[t] = (w[t - 16]! + (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[t - 7]! + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))) | 0;
    }
    let a = h[0]!, c1 = h[1]!, c2 = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
    for (t = 0; t < 64; t++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & c1) ^ (a & c2) ^ (c1 & c2))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c2;
      c2 = c1;
      c1 = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + c1) | 0;
    h[2] = (h[2]! + c2) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
  let hex = "";
  for (let j = 0; j < 8; j++) hex += ("0000000" + (h[j]! >>> 0).toString(16)).slice(-8);
  return hex;
}

/** Line and column, from 1, of the character at offset in source. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let from = 0;
  for (;;) {
    const nl = source.indexOf("\n", from);
    if (nl < 0 || nl >= offset) return { line: line, column: offset - from + 1 };
    line++;
    from = nl + 1;
  }
}

/**
 * Where the nth script element whose text is text (in document order) starts its text in
 * source, the written document with its line breaks as the parser reads them (LF only).
 */
function scriptTextAt(source: string, text: string, nth: number): number {
  if (!text) return -1;
  let from = 0;
  let seen = 0;
  for (;;) {
    const at = source.indexOf(text, from);
    if (at < 0) return -1;
    const end = at + text.length;
    if (at > 0 && source.charAt(at - 1) === ">" && (end === source.length || source.slice(end, end + 8).toLowerCase() === "</script")) {
      if (seen === nth) return at;
      seen++;
    }
    from = at + 1;
  }
}

/**
 * A position within a script (line and column from 1, the first line starting where the
 * script's text does) as a position in the document, or null when the script is not in it.
 */
export function placeInSource(source: string, text: string, nth: number, line: number, column: number): { line: number; column: number } | null {
  const at = scriptTextAt(source, text, nth);
  if (at < 0) return null;
  const start = lineColumn(source, at);
  return { line: start.line + line - 1, column: line === 1 ? start.column + column - 1 : column };
}
