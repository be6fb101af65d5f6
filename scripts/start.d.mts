/** Builds the production bundle when it is missing or older than the sources. */
export function ensureBuild(): void;
