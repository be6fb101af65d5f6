import type { z } from "zod";
import type { ErrorCode } from "../errors";

// What an operation outside /api is declared with (one entry each, in this folder's families):
// the facts the reference, the MCP server, the playground's handlers and the registry test all
// read, so none of them states them again.

/**
 * Prose, kept structured so it renders as React and as Markdown alike. Inline text may use
 * `code`, **strong** and [links](href); `{origin}` stands for the service's address.
 */
export type Block =
  | { kind: "p"; text: string }
  | { kind: "h"; text: string; id?: string }
  | { kind: "list"; items: readonly string[] }
  | { kind: "code"; lang: string; text: string; label: string }
  | { kind: "table"; caption: string; head: readonly string[]; rows: readonly (readonly string[])[] };

/** The reference's sections an operation outside /api is documented in (lib/reference/sections.ts). */
type OperationSection = "playground" | "demo-api" | "renders" | "events" | "saving" | "oauth" | "operations";

/** The MCP tool that does what an operation does: what tools/list shows of it. */
interface McpToolDef {
  name: string;
  title: string;
  description: string;
}

export interface SiteOperationDef {
  id: string;
  method: "GET" | "POST";
  /** The path as documented: path values as `:name`, `:apiPath` for the rest of a path. */
  path: string;
  summary: string;
  section: OperationSection;
  /** The reference's words on it: a string is a paragraph. */
  description?: readonly (string | Block)[];
  /** The error codes it may answer in the envelope. */
  errors: readonly ErrorCode[];
  /** Its query string, when the contract holds it as a schema. */
  query?: z.ZodObject;
  /** Its request body: JSON, or a form's fields. */
  input?: z.ZodType;
  /** Its answer's JSON body. */
  answer?: z.ZodType;
  /** The MCP tool that does the same, when there is one. */
  tool?: McpToolDef;
}
