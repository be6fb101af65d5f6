import "server-only";
import { z } from "zod";
import { UpstreamError, upstreamJson, type UpstreamOptions } from "@/lib/connectors/http";

// A typed client of the Gong API v2: the three call reads the API needs, each following
// `records.cursor` until the last page. Gong answers 404 when a filter matches no calls, which
// for a list means "none", so the list readers turn that into an empty result.

/** Past this many pages the answer is treated as broken rather than returned in part. */
export const MAX_PAGES = 50;

const records = z.object({
  totalRecords: z.number().int().nonnegative(),
  currentPageSize: z.number().int().nonnegative(),
  currentPageNumber: z.number().int().nonnegative(),
  cursor: z.string().min(1).optional(),
});

/** The fields of a call's metadata the API maps; Gong sends many more, which are dropped. */
const callMetaData = z.object({
  id: z.string().min(1),
  title: z.string().nullish(),
  started: z.string().min(1),
  duration: z.number().nullish(),
  url: z.string().min(1),
});

export const gongCallsPage = z.object({
  requestId: z.string().optional(),
  records,
  calls: z.array(callMetaData),
});

const party = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  emailAddress: z.string().nullish(),
  phoneNumber: z.string().nullish(),
  // Kept as a string: a value Gong adds later maps to "Unknown" instead of failing the list.
  affiliation: z.string().nullish(),
  speakerId: z.string().nullish(),
});

const extensiveCall = z.object({
  metaData: callMetaData,
  parties: z.array(party).nullish(),
});

export const gongExtensivePage = z.object({
  requestId: z.string().optional(),
  records,
  calls: z.array(extensiveCall),
});

const sentence = z.object({
  start: z.number().optional(),
  end: z.number().optional(),
  text: z.string(),
});

const monologue = z.object({
  speakerId: z.string().nullish(),
  topic: z.string().nullish(),
  sentences: z.array(sentence),
});

const callTranscript = z.object({
  callId: z.string().min(1),
  transcript: z.array(monologue),
});

export const gongTranscriptPage = z.object({
  requestId: z.string().optional(),
  records: records.optional(),
  callTranscripts: z.array(callTranscript),
});

export type GongCall = z.infer<typeof callMetaData>;
export type GongParty = z.infer<typeof party>;
export type GongExtensiveCall = z.infer<typeof extensiveCall>;
export type GongCallTranscript = z.infer<typeof callTranscript>;
type GongCallsPage = z.infer<typeof gongCallsPage>;

/** A time window, in Gong's terms: `from` inclusive, `to` exclusive. */
interface CallWindow {
  fromDateTime: string;
  toDateTime: string;
}

export function windowEndingAt(now: number, days: number): CallWindow {
  return { fromDateTime: new Date(now - days * 86_400_000).toISOString(), toDateTime: new Date(now).toISOString() };
}

/** Gong call ids are long decimal numbers; anything else cannot name a call. */
export function isGongCallId(id: string): boolean {
  return /^\d{1,24}$/.test(id);
}

async function emptyOnNotFound<T>(read: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof UpstreamError && err.kind === "not_found") return empty;
    throw err;
  }
}

/** Follows cursors until the last page, refusing to loop or to run past MAX_PAGES. */
async function collectPages<T>(path: string, fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; cursor: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, cursor: next } = await fetchPage(cursor);
    out.push(...items);
    if (!next) return out;
    if (seen.has(next)) throw new UpstreamError("bad_response", `${path} repeated a paging cursor`);
    seen.add(next);
    cursor = next;
  }
  throw new UpstreamError("bad_response", `${path} had more than ${MAX_PAGES} pages`);
}

/** One page of `GET /v2/calls`; an empty window is an empty page. */
export async function fetchCallsPage(up: UpstreamOptions, window: CallWindow, cursor?: string): Promise<GongCallsPage> {
  return emptyOnNotFound(
    () => upstreamJson(up, "/v2/calls", gongCallsPage, { query: { fromDateTime: window.fromDateTime, toDateTime: window.toDateTime, cursor } }),
    { records: { totalRecords: 0, currentPageSize: 0, currentPageNumber: 0 }, calls: [] },
  );
}

/** Every call started in the window (`GET /v2/calls`, all pages). */
export async function listGongCalls(up: UpstreamOptions, window: CallWindow): Promise<GongCall[]> {
  return collectPages("/v2/calls", async (cursor) => {
    const page = await fetchCallsPage(up, window, cursor);
    return { items: page.calls, cursor: page.records.cursor };
  });
}

/** Every call started in the window, with its parties (`POST /v2/calls/extensive`, all pages). */
export async function listGongCallsExtensive(up: UpstreamOptions, window: CallWindow, callIds?: string[]): Promise<GongExtensiveCall[]> {
  return collectPages("/v2/calls/extensive", (cursor) =>
    emptyOnNotFound(
      async () => {
        const page = await upstreamJson(up, "/v2/calls/extensive", gongExtensivePage, {
          method: "POST",
          json: {
            filter: { ...window, ...(callIds ? { callIds } : {}) },
            contentSelector: { exposedFields: { parties: true } },
            ...(cursor ? { cursor } : {}),
          },
        });
        return { items: page.calls, cursor: page.records.cursor };
      },
      { items: [], cursor: undefined },
    ),
  );
}

/** Transcripts of the given calls started in the window (`POST /v2/calls/transcript`, all pages). */
export async function getGongTranscripts(up: UpstreamOptions, window: CallWindow, callIds: string[]): Promise<GongCallTranscript[]> {
  return collectPages("/v2/calls/transcript", (cursor) =>
    emptyOnNotFound(
      async () => {
        const page = await upstreamJson(up, "/v2/calls/transcript", gongTranscriptPage, {
          method: "POST",
          json: { filter: { ...window, callIds }, ...(cursor ? { cursor } : {}) },
        });
        return { items: page.callTranscripts, cursor: page.records?.cursor };
      },
      { items: [], cursor: undefined },
    ),
  );
}
