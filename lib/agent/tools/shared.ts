import "server-only";
import type { McpServer, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ApiError } from "@/lib/contract/errors";
import { siteOperationById, type DeclarationOf, type ToolOperationId } from "@/lib/contract/operations";
import { PLAYGROUND_BASE, draftInput } from "@/lib/contract/playground";
import type { Playground } from "@/lib/playground/service";

// What the playground's tools share: the caller they serve, the fields that name a draft, and
// a draft read as its watchers read it. Each tool is a module of its own (this folder), registered
// on the server built for one request (../mcp.ts).

export interface ToolContext {
  /** The MCP request: its address, Host and browser headers are the caller's, and each tool's stages run on it. */
  request: Request;
  playground: () => Promise<Playground>;
  /** An initialize-era client, which may read a result's text alone: it gets the answer whole there. */
  legacy: boolean;
  /** Where an unexpected failure is written. */
  log: (line: string) => void;
}

/**
 * A tool: the operation it mirrors, whose declaration (lib/contract/operations/) gives its name,
 * title and description, and what registers it on the server built for one request's caller.
 */
export interface PlaygroundTool {
  readonly op: ToolOperationId;
  register(server: McpServer, ctx: ToolContext): void;
}

/** A tool that registers itself with what its operation's declaration says of it. */
export function playgroundTool<I extends ToolOperationId>(op: I, register: (server: McpServer, ctx: ToolContext, declared: DeclarationOf<I>) => void): PlaygroundTool {
  const declared = siteOperationById(op);
  return { op, register: (server, ctx) => register(server, ctx, declared) };
}

export const reading: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
export const writing: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/**
 * MCP wants an object schema at the root of a tool's input and output; a schema the contract
 * names (meta id) is written as a bare $ref, so the tools use an unnamed copy of it.
 */
export const unnamed = <S extends z.ZodObject>(schema: S) => schema.extend({});

/** A string argument's refusal in words: what it is when it is missing, and that it is a string otherwise. */
export const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `required: ${what}` : `must be a string: ${what}`);

/** create_draft and check_html take what POST /draft takes; baseRevision has nothing to guard before a draft exists. */
export const draftFields = draftInput.omit({ baseRevision: true });

/** A draft to read: its read id or its watchUrl, named for what each is; either one. */
export const readBy = {
  readId: z.string({ error: 'must be a string: the draft\'s read id, the `id` create_draft answered' }).optional().meta({ description: "The `id` create_draft answered" }),
  watchUrl: z.string({ error: "must be a string: the watchUrl create_draft answered" }).optional().meta({ description: "Or its watchUrl" }),
};
export const oneDraft = (v: { readId?: string; watchUrl?: string }) => (v.readId === undefined) !== (v.watchUrl === undefined);
export const oneDraftMessage = { message: "required: readId (the `id` create_draft answered) or watchUrl, one of the two" };

export const WRITE_URL = new RegExp(`^${PLAYGROUND_BASE}/draft/([^/]+)$`);
export const READ_URL = new RegExp(`^${PLAYGROUND_BASE}/(?:watch/([^/]+)|draft/([^/]+)(?:/events|/revisions)?)$`);

/** The read id a tool was given, by either name. */
export const readIdOf = (v: { readId?: string; watchUrl?: string }) =>
  v.readId !== undefined ? capabilityOf(v.readId, READ_URL, "readId: pass the `id` create_draft answered.") : capabilityOf(v.watchUrl ?? "", READ_URL, "watchUrl: pass the watchUrl create_draft answered, or use readId.");

/**
 * The capability a URL the playground handed out carries (its path's token segment), or the
 * value itself when it is not a URL. The playground then decides, as for any request, whether
 * the draft exists; no origin is checked, since the address an agent was given may be a proxy's.
 */
export function capabilityOf(value: string, shape: RegExp, hint: string): string {
  const trimmed = value.trim();
  if (!trimmed.includes("/")) return trimmed;
  const match = shape.exec(new URL(trimmed, "http://localhost").pathname);
  const segment = match?.slice(1).find((s) => s !== undefined);
  if (segment === undefined) throw new ApiError("invalid_request", hint);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A draft as its watchers read it, as JSON text: one of the caller's reads, the same as GET /draft/<read_id>. */
export async function readDraft({ request }: ToolContext, p: Playground, id: string): Promise<string> {
  await p.stages.read(request, id);
  const held = await p.read(id, p.stages.address(request));
  try {
    return new TextDecoder().decode(held.bytes);
  } finally {
    held.release();
  }
}
