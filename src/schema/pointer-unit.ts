/**
 * The unit of the value a JSON Pointer sets in a simulation request, from the request's schema
 * (its lengths carry `x-unit: "m"`, simulation.ts IN_METRES): a batch parameter's sweep
 * coordinate is then written with its units, and the dashboard can show a swept width in µm.
 */
import { pointerTokens } from "./json-pointer.js";
import { SimulationRequestSchema } from "./simulation.js";

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schemas a token leads to from `node`: every branch of a union that has it. */
function childrenOf(node: Node, token: string): Node[] {
  const branches = [node.anyOf, node.oneOf, node.allOf].filter(Array.isArray).flat();
  const found: Node[] = branches.filter(isNode).flatMap((b) => childrenOf(b, token));
  const properties = node.properties;
  if (isNode(properties) && isNode(properties[token])) found.push(properties[token]);
  else if (isNode(node.additionalProperties)) found.push(node.additionalProperties);
  const index = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1;
  if (index >= 0) {
    const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : node.items;
    if (Array.isArray(tuple)) {
      if (isNode(tuple[index])) found.push(tuple[index]);
    } else if (isNode(node.items)) found.push(node.items);
  }
  return found;
}

/** The units a schema's scalar value may have: its own, or its union's branches'. */
function unitsOf(node: Node): Set<string | null> {
  if (typeof node["x-unit"] === "string") return new Set([node["x-unit"]]);
  const branches = [node.anyOf, node.oneOf].filter(Array.isArray).flat().filter(isNode);
  // A parameter's value is a scalar: a union's arrays (a per-axis form) and nulls are no part.
  const scalars = branches.filter((b) => !["null", "array", "object"].includes(b.type as string));
  if (scalars.length === 0) return new Set([null]);
  return new Set(scalars.flatMap((b) => [...unitsOf(b)]));
}

/**
 * The unit ("m") of what `pointer` sets, when every schema it may reach agrees on one; null
 * when it is unitless (an index, a permittivity), a string, or not a place the schema knows.
 */
export function unitAt(pointer: string, schema: object = SimulationRequestSchema): string | null {
  const tokens = pointerTokens(pointer);
  if (!tokens) return null;
  let nodes: Node[] = [schema as Node];
  for (const token of tokens) {
    nodes = nodes.flatMap((n) => childrenOf(n, token));
    if (nodes.length === 0) return null;
  }
  const units = new Set(nodes.flatMap((n) => [...unitsOf(n)]));
  return units.size === 1 ? [...units][0]! : null;
}
