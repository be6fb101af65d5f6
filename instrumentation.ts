// Runs once when a server instance starts: storage is opened and the background sync begins.
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-syntax -- the framework's own runtime marker, not configuration
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Stamps each request with its peer address before any handler runs (rate limits need it).
  (await import("./lib/playground/limits")).installPeerStamp();
  const { runtime } = await import("./lib/runtime");
  await runtime();
  const { startBackground } = await import("./lib/background");
  startBackground();
}
