// A PNG's size, read the way a decoder starts: the 8-byte signature, then the IHDR chunk first,
// whose data opens with the width and the height (big-endian). Anything else is not a PNG.

const SIGNATURE = "89504e470d0a1a0a";

export function pngSize(bytes: Buffer | Uint8Array): { width: number; height: number } {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 24 || b.subarray(0, 8).toString("hex") !== SIGNATURE) throw new Error("not a PNG: no PNG signature");
  if (b.readUInt32BE(8) !== 13 || b.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("not a PNG: the first chunk is not IHDR");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
