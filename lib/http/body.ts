import "server-only";

// Request bodies for the routes that take one: the media type, and the body read with a ceiling
// so an oversized upload is refused without being held in memory.

export function contentType(request: Request): { essence: string; charset: string | undefined } {
  const [essence = "", ...params] = (request.headers.get("content-type") ?? "").split(";").map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/^"|"$/g, "");
  return { essence, charset };
}

/** True when a declared charset is one a UTF-8 decoder reads correctly (or none is declared). */
export function utf8Charset(charset: string | undefined): boolean {
  return charset === undefined || charset === "utf-8" || charset === "utf8" || charset === "us-ascii";
}

/** Reads at most `max` bytes; null when the body (declared or actual) is longer. */
export async function readBodyCapped(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
