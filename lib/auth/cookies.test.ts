import { describe, expect, it } from "vitest";
import { readCookie, serializeCookie } from "./cookies";

describe("cookies", () => {
  it("reads one cookie among several, decoding it", () => {
    const r = new Request("http://x.test", { headers: { cookie: "a=1; dd_session=abc%2Bd; b=2" } });
    expect(readCookie(r, "dd_session")).toBe("abc+d");
    expect(readCookie(r, "missing")).toBeUndefined();
    expect(readCookie(new Request("http://x.test", { headers: { cookie: "dd_session=%E0%A4%A" } }), "dd_session")).toBeUndefined();
  });

  it("always sets HttpOnly and SameSite=Lax explicitly, Secure when asked", () => {
    expect(serializeCookie("n", "v", { secure: false, maxAgeSeconds: 60 })).toBe("n=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60");
    expect(serializeCookie("n", "v", { secure: true })).toBe("n=v; Path=/; HttpOnly; SameSite=Lax; Secure");
  });
});
