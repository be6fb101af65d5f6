import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSealer, loadKeyMaterial } from "./secrets";

describe("sealing secrets", () => {
  const s = createSealer("k".repeat(32));

  it("round-trips and never stores the plaintext", () => {
    const sealed = s.seal("lin_oauth_abc123", "token:tracker:1");
    expect(sealed).not.toContain("abc123");
    expect(s.open(sealed, "token:tracker:1")).toBe("lin_oauth_abc123");
    expect(s.seal("x", "c")).not.toBe(s.seal("x", "c")); // fresh IV each time
  });

  it("refuses another context, another key, or a tampered value", () => {
    const sealed = s.seal("secret", "token:tracker:1");
    expect(() => s.open(sealed, "token:tracker:2")).toThrow();
    expect(() => createSealer("j".repeat(32)).open(sealed, "token:tracker:1")).toThrow();
    const parts = sealed.split(".");
    parts[2] = Buffer.from("tampered").toString("base64url");
    expect(() => s.open(parts.join("."), "token:tracker:1")).toThrow();
    expect(() => s.open("plain", "token:tracker:1")).toThrow();
  });

  it("keeps a generated key across restarts when none is configured", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-key-"));
    const first = loadKeyMaterial(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(loadKeyMaterial(undefined, dir)).toBe(first);
    expect((fs.statSync(path.join(dir, "secret.key")).mode & 0o777).toString(8)).toBe("600");
    expect(loadKeyMaterial("configured-key-configured-key-configured", dir)).toBe("configured-key-configured-key-configured");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
