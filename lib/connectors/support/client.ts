import "server-only";
import { z } from "zod";
import { retryAfterMs, retryAfterReader, upstreamJson, UpstreamError, type RateLimitReader, type UpstreamOptions } from "@/lib/connectors/http";

// A typed client of the Intercom REST API (version 2.11): the signed-in teammate (/me) and the
// workspace's conversations, cursor-paged with `starting_after`. Intercom's 429 says when its
// window resets in X-RateLimit-Reset (epoch seconds), not in Retry-After.

export const INTERCOM_VERSION = "2.11";
/** Intercom's documented ceiling for `per_page` on the conversation list. */
const MAX_PER_PAGE = 150;
export const DEFAULT_PER_PAGE = 50;
/** Enough for 30,000 conversations at the ceiling; beyond that the listing is refused rather than truncated. */
const MAX_PAGES = 200;

export const intercomAdmin = z.object({
  type: z.literal("admin"),
  id: z.string(),
  name: z.string(),
  email: z.string(),
  app: z.object({ name: z.string(), id_code: z.string() }),
});
export type IntercomAdmin = z.infer<typeof intercomAdmin>;

export const intercomConversation = z.object({
  type: z.literal("conversation"),
  id: z.string(),
  title: z.string().nullish(),
  // Intercom documents open, closed and snoozed; a state added later should still be listed,
  // not fail the whole page.
  state: z.string().min(1),
  open: z.boolean(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type IntercomConversation = z.infer<typeof intercomConversation>;

const intercomAuthor = z.object({
  // admin, user, lead, bot or team; a type added later is read as a bot's.
  type: z.string(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  email: z.string().nullish(),
});

const intercomConversationPart = z.object({
  type: z.literal("conversation_part"),
  id: z.string(),
  part_type: z.string(),
  body: z.string().nullish(),
  created_at: z.number().int(),
  author: intercomAuthor,
});

/** GET /conversations/{id}: the conversation, its opening message (`source`) and its parts. */
export const intercomConversationDetail = intercomConversation.extend({
  source: z.object({ body: z.string().nullish(), author: intercomAuthor }).nullish(),
  conversation_parts: z.object({ type: z.literal("conversation_part.list"), conversation_parts: z.array(intercomConversationPart), total_count: z.number().int() }).nullish(),
});
export type IntercomConversationDetail = z.infer<typeof intercomConversationDetail>;

export const intercomPages = z.object({
  type: z.literal("pages"),
  // Intercom's cursor_pages requires only `type`; the counts are informative.
  page: z.number().int().optional(),
  per_page: z.number().int().optional(),
  total_pages: z.number().int().optional(),
  // The description lets `starting_after` be null; with no cursor there is no next page.
  next: z.object({ page: z.number().int().optional(), per_page: z.number().int().optional(), starting_after: z.string().nullish() }).nullish(),
});
export type IntercomPages = z.infer<typeof intercomPages>;

const intercomConversationList = z.object({
  type: z.literal("conversation.list"),
  conversations: z.array(intercomConversation),
  total_count: z.number().int(),
  pages: intercomPages,
});
type IntercomConversationList = z.infer<typeof intercomConversationList>;

/** Intercom's error body, for stand-in answers and anyone reading a failed response. */
export const intercomErrorList = z.object({
  type: z.literal("error.list"),
  request_id: z.string().nullish(),
  errors: z.array(z.object({ code: z.string(), message: z.string().optional() })),
});

/**
 * Intercom's rate limit: a 429 whose X-RateLimit-Reset (epoch seconds) says when the window's
 * allowance is whole again; a Retry-After, should one come, is honoured first. Anything else is
 * read as any vendor's (503 an overloaded server).
 */
export const intercomRateLimit: RateLimitReader = (res, now) => {
  if (res.status !== 429) return retryAfterReader(res, now);
  const after = retryAfterMs(res.headers.get("retry-after"), now);
  if (after !== null) return { waitMs: after, kind: "rate_limited" };
  const reset = res.headers.get("x-ratelimit-reset")?.trim() ?? "";
  // The reset is to the second, and clocks differ: never ask again sooner than a second on.
  return { waitMs: /^\d{1,12}$/.test(reset) ? Math.max(1_000, Number(reset) * 1000 - now) : null, kind: "rate_limited" };
};

/** Pins the API version, so a workspace's default version cannot change the shapes read here. */
function withVersion(up: UpstreamOptions): UpstreamOptions {
  return { ...up, headers: { ...up.headers, accept: "application/json", "intercom-version": INTERCOM_VERSION }, rateLimit: up.rateLimit ?? intercomRateLimit };
}

export function getMe(up: UpstreamOptions): Promise<IntercomAdmin> {
  return upstreamJson(withVersion(up), "/me", intercomAdmin);
}

function checkPerPage(perPage: number): void {
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    throw new RangeError(`perPage must be an integer from 1 to ${MAX_PER_PAGE}, got ${perPage}`);
  }
}

/** One page of the conversation list, after `startingAfter` (a cursor Intercom issued). */
export async function fetchConversationPage(
  up: UpstreamOptions,
  opts: { startingAfter?: string; perPage?: number } = {},
): Promise<IntercomConversationList> {
  const perPage = opts.perPage ?? DEFAULT_PER_PAGE;
  checkPerPage(perPage);
  return upstreamJson(withVersion(up), "/conversations", intercomConversationList, {
    query: { per_page: perPage, starting_after: opts.startingAfter },
  });
}

/**
 * One conversation with its parts, bodies as plain text; null when Intercom has no conversation
 * with that id. Intercom's ids are digits: anything else is not asked for at all.
 */
export async function fetchConversation(up: UpstreamOptions, id: string): Promise<IntercomConversationDetail | null> {
  if (!/^\d{1,20}$/.test(id)) return null;
  try {
    return await upstreamJson(withVersion(up), `/conversations/${id}`, intercomConversationDetail, { query: { display_as: "plaintext" } });
  } catch (err) {
    if (err instanceof UpstreamError && err.kind === "not_found") return null;
    throw err;
  }
}

/** Every conversation of the workspace, following `pages.next` until Intercom says there is no more. */
export async function fetchAllConversations(
  up: UpstreamOptions,
  opts: { perPage?: number; maxPages?: number } = {},
): Promise<IntercomConversation[]> {
  const maxPages = opts.maxPages ?? MAX_PAGES;
  const all: IntercomConversation[] = [];
  const cursorsSeen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await fetchConversationPage(up, { startingAfter: cursor, perPage: opts.perPage });
    all.push(...answer.conversations);
    const next = answer.pages.next?.starting_after;
    if (!next) return all;
    // A cursor handed out twice would page forever; better a clear failure than a partial list.
    if (cursorsSeen.has(next)) throw new UpstreamError("bad_response", "/conversations repeated a paging cursor");
    cursorsSeen.add(next);
    cursor = next;
  }
  throw new UpstreamError("bad_response", `/conversations did not finish within ${maxPages} pages`);
}
