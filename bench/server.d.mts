export const root: string;
/** Starts `next start` and resolves once `readyPath` answers 2xx; the result stops it. */
export function startServer(options: { port: number; dataDir: string; readyPath: string; env?: Record<string, string>; quiet?: RegExp }): Promise<(() => Promise<void>) & { pid: number | undefined }>;
/** The production build on a fresh data folder under .data/<name>, and Debian's Chromium. */
export function startServerAndBrowser(options: { name: string; port: number }): Promise<{ browser: import("@playwright/test").Browser; stop: () => Promise<void> }>;
