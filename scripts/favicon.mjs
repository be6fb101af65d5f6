// node scripts/favicon.mjs: draws public/favicon.ico, a 32×32 icon: three bars of a chart in
// white on the accent blue (app/globals.css --accent) with rounded corners. The PNG is made by
// hand (RGBA, one zlib stream) and wrapped in an ICO container, which browsers read since ICO
// files may carry PNG images.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const SIZE = 32;
const ACCENT = [0x0b, 0x5c, 0xad];
const WHITE = [0xff, 0xff, 0xff];
const RADIUS = 6;
// x from, x to (exclusive), top y; bars stand on y = 25.
const BARS = [
  [7, 12, 16],
  [14, 19, 9],
  [21, 26, 13],
];
const BASE = 25;

function pixel(x, y) {
  // Outside the rounded square: transparent.
  const cx = Math.min(Math.max(x + 0.5, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(y + 0.5, RADIUS), SIZE - RADIUS);
  const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
  const alpha = Math.round(255 * Math.min(1, Math.max(0, RADIUS - d + 0.5)));
  if (alpha === 0) return [0, 0, 0, 0];
  const onBar = BARS.some(([x0, x1, top]) => x >= x0 && x < x1 && y >= top && y < BASE);
  return [...(onBar ? WHITE : ACCENT), alpha];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function faviconPng() {
  const rows = [];
  for (let y = 0; y < SIZE; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < SIZE; x++) rows.push(...pixel(x, y));
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(SIZE, 0);
  ihdr.writeUInt32BE(SIZE, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits a channel, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.from(rows), { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export function faviconIco() {
  const png = faviconPng();
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  const entry = Buffer.alloc(16);
  entry.writeUInt8(SIZE, 0);
  entry.writeUInt8(SIZE, 1);
  entry.writeUInt8(0, 2); // no palette
  entry.writeUInt8(0, 3);
  entry.writeUInt16LE(1, 4); // colour planes
  entry.writeUInt16LE(32, 6); // bits a pixel
  entry.writeUInt32LE(png.length, 8);
  entry.writeUInt32LE(header.length + entry.length, 12);
  return Buffer.concat([header, entry, png]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "public", "favicon.ico");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, faviconIco());
  console.log(`wrote ${path.relative(process.cwd(), out)} (${fs.statSync(out).size} bytes)`);
}
