import "server-only";
import fs from "node:fs";
import path from "node:path";
import { buildASTSchema, Kind, parse, type DefinitionNode, type DocumentNode, type GraphQLSchema } from "graphql";

// Linear's published GraphQL schema, read from the copy kept beside this file. The stand-in
// executes every query against it, and the contract tests validate the client's documents with it.
//
// The copy is a snapshot of Linear's SDL (see tests/fixtures/vendor-api/SOURCES.md), and Linear's
// own SDK is generated from a later one: for the reads the stand-in serves (the viewer, the
// workspace, projects, an issue and the team it belongs to), the SDK selects a few fields the
// snapshot predates. The live API has them, so the stand-in's schema adds them, and only while the
// snapshot lacks them: a refreshed snapshot that defines one wins, and a contract test then asks
// for its line here to go.

/** Where the snapshot is, from the repository root (the working directory of the server and the tests). */
const LINEAR_SCHEMA_FILE = "lib/connectors/tracker/linear-schema.graphql";

/** Fields @linear/sdk selects in `organization`, `projects()` and `team(id)` that the snapshot has not got, typed as the SDK's own types declare them. */
export const FIELDS_AHEAD_OF_SNAPSHOT = `
extend type Organization {
  "The id of the specific initiative, project, view, dashboard, or page tab used as the default home view."
  defaultHomeViewTargetId: String
  "Whether the default prompt for copying an issue or opening it in a coding tool includes a suggested Git branch name."
  suggestedBranchNameEnabled: Boolean!
}

extend type Project {
  "The number of resources associated with the project, including documents, external links, and attachments."
  resourceCount: Int!
}

extend type Team {
  "The viewer's membership in the team. Null when the viewer is not a member."
  viewerMembership: TeamMembership
  "Whether the viewer can add themselves to the team."
  viewerCanJoin: Boolean!
  "Whether the viewer can remove themselves from the team."
  viewerCanLeave: Boolean!
}
`;

function readSnapshot(): DocumentNode {
  // Read on first use, never at import: most requests never reach the tracker's stand-in.
  const text = fs.readFileSync(path.join(process.cwd(), LINEAR_SCHEMA_FILE), "utf8");
  return parse(text, { noLocation: true });
}

/** Names of the fields each object type of a document defines. */
function fieldsByType(doc: DocumentNode): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_DEFINITION && def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const names = out.get(def.name.value) ?? new Set<string>();
    for (const f of def.fields ?? []) names.add(f.name.value);
    out.set(def.name.value, names);
  }
  return out;
}

/** The additions whose fields the snapshot does not define yet, one extension per field. */
export function additionsMissingFrom(snapshot: DocumentNode): DefinitionNode[] {
  const defined = fieldsByType(snapshot);
  const out: DefinitionNode[] = [];
  for (const def of parse(FIELDS_AHEAD_OF_SNAPSHOT, { noLocation: true }).definitions) {
    if (def.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const have = defined.get(def.name.value);
    for (const field of def.fields ?? []) {
      if (!have?.has(field.name.value)) out.push({ ...def, fields: [field] });
    }
  }
  return out;
}

// Built once per process and never changed: a schema is immutable, so sharing it is safe.
let published: GraphQLSchema | undefined;
let served: GraphQLSchema | undefined;

/** The snapshot exactly as Linear published it, checked as a schema. */
export function publishedLinearSchema(): GraphQLSchema {
  published ??= buildASTSchema(readSnapshot());
  return published;
}

/** What the stand-in executes against: the snapshot and the fields ahead of it. */
export function standInLinearSchema(): GraphQLSchema {
  if (!served) {
    const snapshot = readSnapshot();
    const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: [...snapshot.definitions, ...additionsMissingFrom(snapshot)] };
    // Linear's own SDL, checked by the contract tests: re-validating it on every start would only cost time.
    served = buildASTSchema(doc, { assumeValid: true, assumeValidSDL: true });
  }
  return served;
}
