/**
 * The field names the builder's JSON editor offers at the cursor (static/builder-complete.js),
 * read from the request's own JSON schema so that a field added to the schema is offered
 * without an edit here. Keyed by where an object sits in a request: "" for the request itself,
 * "domain", "structures[]" for any structure, "structures[].layers[]" for a gds layer. The
 * alternatives of a union (sources, structures, monitors) are merged under one key: the
 * editor does not follow the `type` the user has chosen, which keeps it simple and still
 * narrows the list to the fields that can appear there.
 */
import { SimulationRequestSchema } from "../../schema/simulation.js";

export interface FieldHint {
  name: string;
  /** The schema's description, its first sentence, shortened. */
  description: string;
}

export type CompletionTable = Record<string, FieldHint[]>;

/** Deeper than any object of a request (structures[].ports.labels is the deepest, 3). */
const MAX_DEPTH = 5;
const MAX_DESCRIPTION = 110;

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode | SchemaNode[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  description?: string;
}

function firstSentence(text: string | undefined): string {
  if (!text) return "";
  const sentence = (/^(.*?)[.;](\s|$)/.exec(text)?.[1] ?? text) + ".";
  return sentence.length > MAX_DESCRIPTION
    ? `${sentence.slice(0, MAX_DESCRIPTION - 1)}…`
    : sentence;
}

function visit(node: SchemaNode, at: string, table: CompletionTable, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const alternative of [...(node.oneOf ?? []), ...(node.anyOf ?? [])]) {
    visit(alternative, at, table, depth);
  }
  // A tuple (a vector) holds numbers, not objects: only a list's one item schema is followed.
  if (node.items && !Array.isArray(node.items)) visit(node.items, `${at}[]`, table, depth + 1);
  if (!node.properties || Object.keys(node.properties).length === 0) return;
  const hints = (table[at] ??= []);
  for (const [name, child] of Object.entries(node.properties)) {
    if (!hints.some((h) => h.name === name)) {
      hints.push({ name, description: firstSentence(child.description) });
    }
    visit(child, at === "" ? name : `${at}.${name}`, table, depth + 1);
  }
}

/** The field names of every object a simulation request may hold, by where it sits. */
export function completionTable(schema: object = SimulationRequestSchema): CompletionTable {
  const table: CompletionTable = {};
  visit(schema as SchemaNode, "", table, 0);
  return table;
}
