import "server-only";

// Minimal cookie reading and writing over standard Request/Response headers, so handlers stay
// plain functions that tests can call without a framework.

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
  path?: string;
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${o.path ?? "/"}`, "HttpOnly", "SameSite=Lax"];
  if (o.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAgeSeconds))}`);
  if (o.secure) parts.push("Secure");
  return parts.join("; ");
}

export function isHttps(request: Request, publicOrigin?: string): boolean {
  if (publicOrigin) return publicOrigin.startsWith("https:");
  return new URL(request.url).protocol === "https:";
}
