import { createHash } from "node:crypto";

/** What a gallery picture was made from: a picture whose hash differs from its example's is stale. */
export const exampleHash = (html: string): string => createHash("sha256").update(html).digest("hex").slice(0, 16);
