// Runs once when a server instance starts: requests start being logged and counted, SIGTERM
// shuts down gracefully, storage is opened, the instance registers in it (for the database
// tools) and the background sync begins.
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-syntax -- the framework's own runtime marker, not configuration
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { app } = await import("./lib/root");
  app().startOperations();
  await app().storage();
  await app().announce();
  app().startBackground();
}
