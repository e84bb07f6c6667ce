/** JSON Pointers (RFC 6901), as batch parameters and validation errors name places with them. */

/**
 * A pointer's reference tokens, unescaped ("/a~1b/0" → ["a/b", "0"]); null for a string that
 * is no pointer into a document's members ("" is the whole document, and "x" no pointer).
 */
export function pointerTokens(pointer: string): string[] | null {
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}
