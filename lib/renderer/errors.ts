// What a render ends with when it does not draw: no page for it now, its time limit, or an idle end.

/**
 * No render can be taken now: try again after this many seconds. `share` when the caller's own
 * address already holds its share of the renderer, `full` when every page and queue place is taken.
 */
export class RendererBusy extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly reason: "share" | "full" = "full",
  ) {
    super(reason === "share" ? "this address holds its share of the renderer" : "the renderer is busy");
  }
}

/** The render did not finish in time; its page was torn down. */
export class RenderTimeout extends Error {}

/** The render waited on nothing (no request, no work) for `idleMs` and was ended before its time limit. */
export class RenderIdle extends RenderTimeout {
  constructor(readonly idleMs: number) {
    super(`the page made no request and no work for ${idleMs} ms without finishing`);
  }
}

/**
 * What a failed render throws: its own ends (RenderTimeout, RenderIdle) as they are, a Playwright
 * wait that ran out as a RenderTimeout (its first line), anything else unchanged.
 */
export function renderFailure(err: unknown): unknown {
  if (err instanceof RenderTimeout) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/Timeout/i.test(message)) return new RenderTimeout(message.split("\n")[0] ?? message);
  return err;
}

/**
 * `work`, or a RenderTimeout named for `what` once `ms` have passed, or what `also` rejects with
 * first. The timer is cleared whichever way it ends.
 */
export async function withinLimit<T>(work: Promise<T>, ms: number, what: string, also: Promise<never>[] = []): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderTimeout(`${what} took longer than ${ms} ms`)), ms);
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, limit, ...also]);
  } finally {
    clearTimeout(timer);
  }
}
