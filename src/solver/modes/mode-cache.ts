/**
 * A bounded cache of solved modes, keyed by everything a solve at one wavelength depends on:
 * the plane's axes (nodes, boundaries, mirrors, absorber), its permittivity at that
 * wavelength (and either side of it when the group index is asked for: material dispersion),
 * the wavelength and the mode_spec. Equal inputs give equal modes, so a hit is exact.
 *
 * Why: one ports job solves the same plane many times. Each run's mode source solves the plane
 * just inside its port, each run's mode monitors solve every port's plane, and a straight
 * port's source plane holds the same cells as its monitor plane. With the cache a port plane
 * is solved once per wavelength for the whole job (and for the next job on the same worker
 * with the same ports, as in a sweep), not once per run and per use.
 *
 * Entries are compared in full on a hit (the digest only finds the candidate), stored and
 * handed out as copies (callers turn modes round in place), and evicted least recently used
 * beyond a byte budget.
 */
import type { ModeFields } from "./fields.js";
import type { ComplexVector } from "./sparse.js";
import type { SolvedMode } from "./solved-mode.js";

/** What one solve depends on, flattened into numbers (see modeKey in solve.ts). */
export type ModeKey = Float64Array;

/** One wavelength's solve: the modes chosen and the size of the problem solved. */
export interface SolvedPlane {
  modes: SolvedMode[];
  unknowns: number;
  factorEntries: number;
}

interface Entry {
  key: ModeKey;
  value: SolvedPlane;
  bytes: number;
}

export class ModeCache {
  private readonly entries = new Map<string, Entry[]>();
  private bytes = 0;
  private readonly order: Entry[] = [];
  /** Lookups served so far (for tests and reports). */
  hits = 0;

  constructor(private readonly maxBytes: number) {}

  /** A copy of the solve stored under `key`, or undefined. */
  get(key: ModeKey): SolvedPlane | undefined {
    const entry = this.entries.get(digest(key))?.find((e) => sameKey(e.key, key));
    if (!entry) return undefined;
    this.hits += 1;
    this.touch(entry);
    return copyPlane(entry.value);
  }

  /** Whether a solve is stored under `key` (not counted as a hit). */
  has(key: ModeKey): boolean {
    return this.entries.get(digest(key))?.some((e) => sameKey(e.key, key)) ?? false;
  }

  /** Stores a copy of `value` under `key` (nothing when one entry alone exceeds the budget). */
  set(key: ModeKey, value: SolvedPlane): void {
    const bytes = key.byteLength + value.modes.reduce((n, m) => n + fieldBytes(m.fields), 0);
    if (bytes > this.maxBytes) return;
    const d = digest(key);
    const bucket = (this.entries.get(d) ?? []).filter((e) => {
      if (!sameKey(e.key, key)) return true;
      this.forget(e);
      return false;
    });
    const entry: Entry = { key: key.slice(), value: copyPlane(value), bytes };
    bucket.push(entry);
    this.entries.set(d, bucket);
    this.order.push(entry);
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) this.evict(this.order[0]!);
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.order.length;
  }

  /** Bytes held (for tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  private touch(entry: Entry): void {
    this.order.splice(this.order.indexOf(entry), 1);
    this.order.push(entry);
  }

  private evict(entry: Entry): void {
    const d = digest(entry.key);
    const bucket = this.entries.get(d)!.filter((e) => e !== entry);
    if (bucket.length > 0) this.entries.set(d, bucket);
    else this.entries.delete(d);
    this.forget(entry);
  }

  private forget(entry: Entry): void {
    this.order.splice(this.order.indexOf(entry), 1);
    this.bytes -= entry.bytes;
  }
}

/** The modes the solver caches between runs in this process (64 MiB). */
export const sharedModeCache = new ModeCache(64 * 1024 * 1024);

/** FNV-1a over the key's bytes, with its length: finds the bucket, never decides a hit. */
function digest(key: ModeKey): string {
  const words = new Uint32Array(key.buffer, key.byteOffset, key.length * 2);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h ^= words[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return `${key.length}:${(h >>> 0).toString(36)}`;
}

/** Bit-for-bit equality (NaN equals NaN, so a null target encoded as NaN still matches). */
function sameKey(a: ModeKey, b: ModeKey): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  }
  return true;
}

const copyVector = (v: ComplexVector): ComplexVector => ({ re: v.re.slice(), im: v.im.slice() });

const copyPlane = (p: SolvedPlane): SolvedPlane => ({ ...p, modes: p.modes.map(copyMode) });

function copyMode(m: SolvedMode): SolvedMode {
  const f = m.fields;
  const fields: ModeFields = {
    Eu: copyVector(f.Eu),
    Ev: copyVector(f.Ev),
    Ew: copyVector(f.Ew),
    Hu: copyVector(f.Hu),
    Hv: copyVector(f.Hv),
    Hw: copyVector(f.Hw),
  };
  return { ...m, fields };
}

function fieldBytes(f: ModeFields): number {
  return [f.Eu, f.Ev, f.Ew, f.Hu, f.Hv, f.Hw].reduce(
    (n, c) => n + c.re.byteLength + c.im.byteLength,
    0,
  );
}
