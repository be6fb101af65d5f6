import type { Page } from "@playwright/test";

let fences = 0;

/**
 * Proves a non-event without waiting a guessed time: the page asks for an address of its own, and
 * once that request is seen, every request the page (or a frame in it) started before it has been
 * seen too, since the browser reports requests in the order they are made. A listener registered
 * with `page.on("request")` before this call has then counted all of them.
 */
export async function fence(page: Page): Promise<void> {
  const marker = `/healthz?fence=${++fences}-${Date.now()}`;
  const seen = page.waitForRequest((r) => r.url().endsWith(marker));
  await page.evaluate((m) => fetch(m, { cache: "no-store" }).then(() => undefined), marker);
  await seen;
}

