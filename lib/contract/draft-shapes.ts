import { arrayOf, boolean, finiteNumber, integer, nullable, object, oneOf, positiveInteger, recordOf, string, type Parsed } from "./json-shape";
import type { DraftEvent, DraftView } from "./playground";

// A draft and its stream's events as the watch page and the editor read them, checked without
// the schema library. The zod schemas in playground.ts stay the contract: the types below must
// equal theirs (a change to one that the other lacks fails to compile), and draft-shapes.test.ts
// holds the two to the same answers on the same inputs.

const warning = object({
  rule: string,
  severity: oneOf("error", "warning", "info"),
  message: string,
  line: positiveInteger,
  column: positiveInteger,
  hint: string,
});

const viewFields = {
  id: string,
  revision: integer,
  html: string,
  dataMode: oneOf("demo", "live"),
  scenario: string,
  examples: recordOf(string),
  dash: nullable(string),
  updatedAt: finiteNumber,
  warnings: arrayOf(warning),
  reads: object({ paths: arrayOf(string), complete: boolean }),
};

const eventFields = {
  revision: integer,
  scenario: string,
  examples: recordOf(string),
  dash: nullable(string),
  html: string,
};

/** Holds only when A and B are the same type, either way round. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agrees = <T extends true>(): T | undefined => undefined;
agrees<Same<Parsed<typeof viewFields>, DraftView>>();
agrees<Same<Parsed<typeof eventFields>, DraftEvent>>();

export const draftViewShape = object(viewFields);
export const draftEventShape = object(eventFields);
