import { z } from "zod";

// An endpoint's query parameters as facts (name, whether required, type, bounds, values), read
// from the zod schema the API validates with. describe_endpoint answers them as they are, and a
// test holds every other surface (/docs, the Markdown pages, llms.txt, OpenAPI) to them.

interface QueryFact {
  name: string;
  required: boolean;
  type: string;
  /** Numbers: the least and greatest value; strings: the least and greatest length. */
  min?: number;
  max?: number;
  /** A closed set of values. */
  values?: readonly string[];
  description?: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function queryFacts(query: z.ZodType): QueryFact[] {
  // As the API reads a value once parsed (an integer with its bounds), the form the reference tabulates.
  const schema = z.toJSONSchema(query, { io: "output", unrepresentable: "any" }) as Json;
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props).map(([name, raw]) => {
    const s = isObj(raw) ? raw : {};
    const type = Array.isArray(s.enum) ? "enum" : typeof s.format === "string" ? `${String(s.type)} (${s.format})` : String(s.type ?? "string");
    const numeric = s.type === "integer" || s.type === "number";
    const min = numeric ? s.minimum : s.minLength;
    const max = numeric ? s.maximum : s.maxLength;
    return {
      name,
      required: required.has(name),
      type,
      ...(typeof min === "number" ? { min } : {}),
      ...(typeof max === "number" ? { max } : {}),
      ...(Array.isArray(s.enum) ? { values: s.enum.map(String) } : {}),
      ...(typeof s.description === "string" ? { description: s.description } : {}),
    };
  });
}
