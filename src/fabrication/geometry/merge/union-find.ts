/**
 * Union–find over indices 0 … n−1 in an Int32Array of parents (parent[i] === i at a root),
 * with path compression; a union keeps the smaller root, so a set's root is its smallest index.
 */

export function find(parent: Int32Array, i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r]!;
  while (parent[i] !== r) {
    const next = parent[i]!;
    parent[i] = r;
    i = next;
  }
  return r;
}

export function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a);
  const rb = find(parent, b);
  if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
}
