import "server-only";
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Secrets at rest (OAuth tokens, the shared calls credential) are sealed with AES-256-GCM.
// The context string (e.g. "token:tracker:42") is bound as associated data, so a sealed value
// copied into another row does not open there.

const VERSION = "v1";

export interface Sealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** A keyed MAC for values that must be recognised later but never decrypted. */
  mac(value: string, purpose: string): string;
}

export function createSealer(keyMaterial: string | Buffer): Sealer {
  const root = createHash("sha256").update(keyMaterial).digest();
  const encKey = createHmac("sha256", root).update("seal").digest();
  const macKey = createHmac("sha256", root).update("mac").digest();
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", encKey, iv);
      cipher.setAAD(Buffer.from(context));
      const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), ct.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
    },
    open(sealed, context) {
      const [version, iv, ct, tag] = sealed.split(".");
      if (version !== VERSION || !iv || ct === undefined || !tag) throw new Error("not a sealed value");
      const decipher = createDecipheriv("aes-256-gcm", encKey, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
    },
    mac(value, purpose) {
      return createHmac("sha256", macKey).update(purpose).update("\0").update(value).digest("base64url");
    },
  };
}

/**
 * The deployment's key: SECRET_KEY when set; otherwise one generated on first start and kept
 * beside the SQLite file (owner-only), which suits the single-instance embedded default.
 */
export function loadKeyMaterial(secretKey: string | undefined, dataDir: string): string {
  if (secretKey) return secretKey;
  const file = path.join(dataDir, "secret.key");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, key, { mode: 0o600, flag: "wx" });
      return key;
    } catch {
      // Another process wrote it first: use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
