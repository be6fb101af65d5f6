export const root: string;
/** Starts `next start` and resolves once `readyPath` answers 2xx; the result stops it. */
export function startServer(options: { port: number; dataDir: string; readyPath: string; env?: Record<string, string>; quiet?: RegExp }): Promise<(() => Promise<void>) & { pid: number | undefined }>;
