/**
 * The ADE pass of dispersive cells (dispersion/ade.ts) in the fast kernel's memory and code:
 * the same update as ade.ts's AdeState, which the reference backend runs in JavaScript, here
 * as a WebAssembly function of the kernel module over one x-plane's cells of one component,
 * with the cells' tables and state in the kernel's shared memory.
 *
 * Four cells per SIMD vector. Within each x-plane and component the cells are grouped by
 * entry (most of a metal body's cells share one) into groups of four lanes, and each group
 * steps its poles one at a time, the four cells side by side: the per-cell chain of the
 * earlier pass (every pole's J, P and h in turn, two poles per f64x2 vector, summed across
 * the vector at the end) becomes four independent lanes, and a pole's coefficients are
 * loaded once per four cells. A plane's last group of an entry, when short, repeats its last
 * cell in the unused lanes: such a lane has its own state, starts from the same zero state
 * with the same entry and reads the same E, so it computes the same values bit for bit, and
 * its stores repeat the real lane's. That costs up to three lanes per plane, component and
 * entry: 0.1–0.2 % more lanes than cells for a gold or a smoothed Si3N4 sphere at 128³.
 *
 * The state is not ade.ts's (P, J per pole; Σh, E^n, E^{n−1} per cell) but, per pole, its part
 * of the history term, h_k^n = cP·P^n + cJ·J^n + cE·(2E^n + E^{n−1}), beside P for the poles
 * with cP ≠ 0, and E^n per cell. That is the same update: ade.ts's J recursion reads
 * J_k^{n+1} = h_k^n + cE·E^{n+1}, and Σh^n = Σ_k h_k^n, so the pass sums the group's h_k,
 * corrects E, then per pole forms J from h_k, steps P and writes h_k^{n+1} = cP·P^{n+1} +
 * cJ·J^{n+1} + cE·(2E^{n+1} + E^n), which needs E^n but not E^{n−1} (all zero is the zero
 * state, h_k^0 = 0). Per group of four Au cells (6 poles, 5 with P) that is 12 state vectors
 * in place of 14: a step reads 212 bytes of state and records and writes 192, against 244 and
 * 224 (the E field's own vector and the coefficient rows, shared by the groups, aside). The
 * second pass over the h_k reads them from L1, where the sum has just brought them.
 *
 * The arithmetic is float32, like the bulk update's and the stored P and h; it differs from
 * the float64 reference pass by a few float32 ulps (the pass alone at 40³, driven by a
 * prescribed E for 1000 steps: 1.4–3.2e-7 of the peak E for Au, Ag, SiO2, Si3N4 and TiN,
 * against 1.2–2.2e-7 for the earlier J, Σh, E^{n−1} state in the same test;
 * wasm/agreement.test.ts's worst case 5.5e-6 of the peak, 7.2e-6 with the earlier state,
 * bound 1e-5). h's cJ·J is written J − (1 − cJ)·J with 1 − cJ rounded from
 * float64: cJ lies within 1e-3 of 1 for a Drude pole or a sharp resonance, where cJ's own
 * float32 rounding would move the damping by up to ~1e-4 relative. Measured on one thread
 * (docs/benchmarks.md): 0.6–0.7 ns per pole and cell component against 1.6–1.9 ns for the
 * earlier float64 pass. The h state in place of J, Σh and E^{n−1} took the gold sphere's pass
 * at 128³ alone on one thread, its state evicted from the caches between steps as the bulk
 * update does, from a median 1.77 to 1.62 ms of CPU time per step (17 alternating runs each on
 * a shared 2-core machine; best 1.40 and 1.32). Tried and not kept, for no gain or a loss:
 * two poles per loop iteration; each group's h, E, P and J in one interleaved stream (20 %
 * slower); each pole's h in place of J while still storing Σh and E^{n−1} (fewer operations,
 * same time: the pass is bound by its loads and stores as much as by arithmetic); each
 * coefficient stored four times over, loaded as a vector in place of a splat; with the h
 * state, Σh stored as well (no first pass over the h_k) or that pass unrolled by two (neither
 * stood out of the machine's scatter).
 *
 * Layout (byte offsets from the region's start, 16-byte aligned):
 *   per entry, its coefficients: (correction, 0, the address of its first pole row with
 *     cP ≠ 0, the address of the rows' end), then per pole (cP, 1 − cJ, cE, 0) (f32), the
 *     poles with cP = 0 (a Drude pole) first (where a model lists one later, Σh sums its poles
 *     in another order: a float32 rounding apart);
 *   per component, per group: the four cells' byte offsets in the component's array and the
 *     absolute address of its entry's coefficients (i32 × 5);
 *   per field set, per component: E^n (f32 × 4 per group), P (f32 × 4 per pole with cP ≠ 0 of
 *     each group: a Drude pole's P never enters the update) and h (f32 × 4 per pole), each
 *     group's P and h right after the previous group's, so that the pass finds them by
 *     counting from the plane's first group (AdeSweep's pStart and hStart).
 * Groups of four cells adjacent in memory (most inside a body) load and store E as one vector.
 * All state starts at zero, as the memory does.
 */
import type { AdeTerms } from "../dispersion/ade.js";

/** Cells per SIMD vector (f32x4). */
const LANES = 4;
/** Bytes of a group's record (see the layout above). */
const GROUP_BYTES = 20;
/** Bytes of one coefficient row (four f32). */
const ROW_BYTES = 16;

export interface AdeMemoryPlan {
  bytes: number;
  /** Per entry, the offset of its coefficient rows. */
  coefficients: number[];
  /** Per component, the offset of its group records. */
  groups: number[];
  /** Per component: per group, LANES padded cell offsets (the short groups' repeated). */
  groupCells: Int32Array[];
  /** Per component: per group, its entry. */
  groupEntry: Int32Array[];
  /** Per component: per x-plane index i from −1 to n + 1, its first group (as planeStart). */
  groupStart: Int32Array[];
  /** Per component, as groupStart: the byte offset of that group's P state and of its h state. */
  pStart: Int32Array[];
  hStart: Int32Array[];
  /** [set][component]: the offsets of the E^n, P and h state. */
  e1: number[][];
  p: number[][];
  h: number[][];
}

/** Poles of entry m. */
const polesOf = (terms: AdeTerms, m: number) => terms.poleStart[m + 1] - terms.poleStart[m];

/** Poles of entry m whose P enters the update (cP ≠ 0: all but Drude poles). */
function pPolesOf(terms: AdeTerms, m: number): number {
  let count = 0;
  for (let k = terms.poleStart[m]; k < terms.poleStart[m + 1]; k++) if (terms.cP[k] !== 0) count++;
  return count;
}

/** Entry m's pole slots in table order: those with cP = 0 (no P) first, each kind in order. */
function tableOrder(terms: AdeTerms, m: number): number[] {
  const slots: number[] = [];
  for (let k = terms.poleStart[m]; k < terms.poleStart[m + 1]; k++) slots.push(k);
  return [...slots.filter((k) => terms.cP[k] === 0), ...slots.filter((k) => terms.cP[k] !== 0)];
}

/** One component's cells in groups of LANES, per x-plane by entry (see the module comment). */
function groupCells(
  terms: AdeTerms,
  c: number,
): { cells: Int32Array; entry: Int32Array; start: Int32Array } {
  const planeStart = terms.planeStart[c];
  const cells: number[] = [];
  const entry: number[] = [];
  const start = new Int32Array(planeStart.length);
  for (let i = 0; i + 1 < planeStart.length; i++) {
    start[i] = entry.length;
    const byEntry = new Map<number, number[]>();
    for (let q = planeStart[i]; q < planeStart[i + 1]; q++) {
      const m = terms.entry[c][q];
      let list = byEntry.get(m);
      if (!list) byEntry.set(m, (list = []));
      list.push(terms.cells[c][q]);
    }
    for (const [m, list] of byEntry) {
      for (let g = 0; g < list.length; g += LANES) {
        for (let lane = 0; lane < LANES; lane++)
          cells.push(list[Math.min(g + lane, list.length - 1)]);
        entry.push(m);
      }
    }
  }
  start[planeStart.length - 1] = entry.length;
  return { cells: Int32Array.from(cells), entry: Int32Array.from(entry), start };
}

/** Where the ADE tables and state go, relative to the region's start. */
export function planAdeMemory(terms: AdeTerms, sets: number): AdeMemoryPlan {
  let offset = 0;
  const take = (bytes: number) => {
    const at = offset;
    offset += Math.ceil(bytes / 16) * 16;
    return at;
  };
  const entries = terms.correction.length;
  const coefficients = Array.from({ length: entries }, (_, m) =>
    take(ROW_BYTES * (1 + polesOf(terms, m))),
  );
  const grouped = [0, 1, 2].map((c) => groupCells(terms, c));
  const groups = grouped.map((g) => take(GROUP_BYTES * g.entry.length));
  const perSet = (bytes: (c: number) => number) =>
    Array.from({ length: sets }, () => [0, 1, 2].map((c) => take(bytes(c))));
  const stateBytes = (c: number, count: (terms: AdeTerms, m: number) => number) => {
    let poles = 0;
    for (const m of grouped[c].entry) poles += count(terms, m);
    return 4 * LANES * poles;
  };
  // The state of each plane's first group (a group's state follows the previous group's).
  const stateStart = (c: number, count: (terms: AdeTerms, m: number) => number) => {
    const { entry, start } = grouped[c];
    const out = new Int32Array(start.length);
    let g = 0;
    let bytes = 0;
    for (let i = 0; i < start.length; i++) {
      for (; g < start[i]; g++) bytes += 4 * LANES * count(terms, entry[g]);
      out[i] = bytes;
    }
    return out;
  };
  const e1 = perSet((c) => 4 * LANES * grouped[c].entry.length);
  const p = perSet((c) => stateBytes(c, pPolesOf));
  const h = perSet((c) => stateBytes(c, polesOf));
  return {
    bytes: offset,
    coefficients,
    groups,
    groupCells: grouped.map((g) => g.cells),
    groupEntry: grouped.map((g) => g.entry),
    groupStart: grouped.map((g) => g.start),
    pStart: [0, 1, 2].map((c) => stateStart(c, pPolesOf)),
    hStart: [0, 1, 2].map((c) => stateStart(c, polesOf)),
    e1,
    p,
    h,
  };
}

/** The tables into the region at byte address `base` (the state stays zero). */
export function writeAdeTables(
  buffer: ArrayBufferLike,
  base: number,
  plan: AdeMemoryPlan,
  terms: AdeTerms,
): void {
  for (let m = 0; m < terms.correction.length; m++) {
    const poles = polesOf(terms, m);
    const at = base + plan.coefficients[m];
    const rows = new Float32Array(buffer, at, 4 * (1 + poles));
    tableOrder(terms, m).forEach((slot, k) => {
      rows.set([terms.cP[slot], 1 - terms.cJ[slot], terms.cE[slot], 0], 4 * (k + 1));
    });
    rows.set([terms.correction[m], 0], 0);
    // The addresses of the first row with cP ≠ 0 (where the poles without P end) and of the end.
    new Int32Array(buffer, at + 8, 2).set([
      at + ROW_BYTES * (1 + poles - pPolesOf(terms, m)),
      at + ROW_BYTES * (1 + poles),
    ]);
  }
  for (let c = 0; c < 3; c++) {
    const entry = plan.groupEntry[c];
    const records = new Int32Array(buffer, base + plan.groups[c], (GROUP_BYTES / 4) * entry.length);
    for (let g = 0; g < entry.length; g++) {
      const m = entry[g];
      const at = (GROUP_BYTES / 4) * g;
      for (let lane = 0; lane < LANES; lane++) {
        records[at + lane] = 4 * plan.groupCells[c][LANES * g + lane];
      }
      records[at + 4] = base + plan.coefficients[m];
    }
  }
}

/** The coefficient at byte `offset` of the row at $c, in all four lanes. */
const splat = (offset: number) => `(v128.load32_splat offset=${offset} (local.get $c))`;
/** The address of the group's cell in lane k. */
const lane = (k: number) =>
  `(i32.add (local.get $field) (i32x4.extract_lane ${k} (local.get $cells)))`;
/** The store of lane k of the corrected E to its cell. */
const store = (k: number) => `(v128.store32_lane ${k} (local.get $a${k}) (local.get $stored))`;
/** J^{n+1} = h^n + cE·E^{n+1}, the row at $c. */
const NEXT_J = `(f32x4.add (local.get $vh) (f32x4.mul ${splat(8)} (local.get $value)))`;
/** cJ·J + cE·(2E^{n+1} + E^n), cJ·J written J − (1 − cJ)·J. */
const J_TERMS = `(f32x4.add
              (f32x4.sub (local.get $vj) (f32x4.mul ${splat(4)} (local.get $vj)))
              (f32x4.mul ${splat(8)} (local.get $x)))`;

/**
 * The WAT of `ade(g0, g1, field, groups, e1, p, h)`: the pass over groups [g0, g1) of one
 * component, whose array (of the field set being stepped) starts at byte `field`; the other
 * arguments are absolute byte addresses of that component's group records and E^n state (for
 * group 0), and of the P and h state of group g0. Stored E values below `flushBelow` in
 * magnitude become zero, as in the kernel. Per group, in order: its record, Σh^n, the
 * corrected E^{n+1}, the E history, the poles without P, the poles with P.
 */
export function adeWat(flushBelow: string): string {
  return `
  (func (export "ade") (param $g0 i32) (param $g1 i32) (param $field i32) (param $groups i32)
      (param $e1 i32) (param $p i32) (param $h i32)
    (local $rec i32) (local $end i32) (local $o i32) (local $c i32) (local $cEnd i32)
    (local $mid i32) (local $runs i32) (local $s i32) (local $hEnd i32)
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32)
    (local $cells v128) (local $value v128) (local $stored v128) (local $sum v128) (local $x v128)
    (local $vp v128) (local $vh v128) (local $vj v128) (local $next v128)
    (local.set $rec (i32.add (local.get $groups) (i32.mul (local.get $g0) (i32.const ${GROUP_BYTES}))))
    (local.set $end (i32.add (local.get $groups) (i32.mul (local.get $g1) (i32.const ${GROUP_BYTES}))))
    (local.set $o (i32.shl (local.get $g0) (i32.const 4)))
    (block $done
      (loop $group
        (br_if $done (i32.ge_u (local.get $rec) (local.get $end)))
        ${groupRecord()}
        ${historySum()}
        ${correctedE(flushBelow)}
        ${eHistory()}
        ${polesWithoutP()}
        ${polesWithP()}
        (local.set $rec (i32.add (local.get $rec) (i32.const ${GROUP_BYTES})))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (br $group)))
  )`;
}

/** The group's record: its cells, whether they are adjacent, its entry's coefficient rows. */
function groupRecord(): string {
  return `(local.set $cells (v128.load (local.get $rec)))
        (local.set $a0 ${lane(0)})
        ;; whether the four cells are adjacent in memory (most groups inside a body)
        (local.set $runs (i32x4.all_true (i32x4.eq (local.get $cells) (i32x4.add
          (i32x4.splat (i32x4.extract_lane 0 (local.get $cells)))
          (v128.const i32x4 0 4 8 12)))))
        (local.set $c (i32.load offset=16 (local.get $rec)))
        (local.set $mid (i32.load offset=8 (local.get $c)))
        (local.set $cEnd (i32.load offset=12 (local.get $c)))`;
}

/** Σh^n over the group's poles into $sum. */
function historySum(): string {
  return `;; Σh^n over the group's poles: one h vector per coefficient row, from $h on
        (local.set $hEnd (i32.add (local.get $h)
          (i32.sub (local.get $cEnd) (i32.add (local.get $c) (i32.const ${ROW_BYTES})))))
        (local.set $sum (v128.load (local.get $h)))
        (local.set $s (i32.add (local.get $h) (i32.const 16)))
        (block $summed
          (loop $add
            (br_if $summed (i32.ge_u (local.get $s) (local.get $hEnd)))
            (local.set $sum (f32x4.add (local.get $sum) (v128.load (local.get $s))))
            (local.set $s (i32.add (local.get $s) (i32.const 16)))
            (br $add)))`;
}

/** E^{n+1} from the bulk update's value and Σh^n, stored flushed (one vector or per lane). */
function correctedE(flushBelow: string): string {
  return `;; E^{n+1} = bulk − ε0·cb/Δt·Σh^n, four cells at once
        (local.set $value (f32x4.sub
          (if (result v128) (local.get $runs)
            (then (v128.load (local.get $a0)))
            (else
              (local.set $a1 ${lane(1)})
              (local.set $a2 ${lane(2)})
              (local.set $a3 ${lane(3)})
              (v128.load32_lane 3 (local.get $a3) (v128.load32_lane 2 (local.get $a2)
                (v128.load32_lane 1 (local.get $a1) (v128.load32_zero (local.get $a0)))))))
          (f32x4.mul ${splat(0)} (local.get $sum))))
        (local.set $stored (v128.andnot (local.get $value)
          (f32x4.lt (f32x4.abs (local.get $value)) (f32x4.splat (f32.const ${flushBelow})))))
        (if (local.get $runs)
          (then (v128.store (local.get $a0) (local.get $stored)))
          (else
            ${store(0)}
            ${store(1)}
            ${store(2)}
            ${store(3)}))`;
}

/** X = 2E^{n+1} + E^n, the E^n state stepped, and $c on to the first pole row. */
function eHistory(): string {
  return `;; X = 2E^{n+1} + E^n; E^n ← E^{n+1}
        (local.set $x (f32x4.add (f32x4.add (local.get $value) (local.get $value))
          (v128.load (i32.add (local.get $e1) (local.get $o)))))
        (v128.store (i32.add (local.get $e1) (local.get $o)) (local.get $value))
        (local.set $c (i32.add (local.get $c) (i32.const ${ROW_BYTES})))`;
}

/** The poles with cP = 0 (Drude): h stepped, no P. */
function polesWithoutP(): string {
  return `;; the poles with cP = 0 (Drude): J = h + cE·E^{n+1}, h ← cJ·J + cE·X
        (block $jPoles
          (loop $jPole
            (br_if $jPoles (i32.ge_u (local.get $c) (local.get $mid)))
            (local.set $vh (v128.load (local.get $h)))
            (local.set $vj ${NEXT_J})
            (v128.store (local.get $h) ${J_TERMS})
            (local.set $c (i32.add (local.get $c) (i32.const ${ROW_BYTES})))
            (local.set $h (i32.add (local.get $h) (i32.const 16)))
            (br $jPole)))`;
}

/** The poles with cP ≠ 0: P and h stepped. */
function polesWithP(): string {
  return `;; the other poles: J = h + cE·E^{n+1}, P ← P + J, h ← cP·P + cJ·J + cE·X (new P)
        (block $poles
          (loop $pole
            (br_if $poles (i32.ge_u (local.get $c) (local.get $cEnd)))
            (local.set $vh (v128.load (local.get $h)))
            (local.set $vj ${NEXT_J})
            (local.set $vp (f32x4.add (v128.load (local.get $p)) (local.get $vj)))
            (v128.store (local.get $p) (local.get $vp))
            (v128.store (local.get $h) (f32x4.add (f32x4.mul ${splat(0)} (local.get $vp))
              ${J_TERMS}))
            (local.set $c (i32.add (local.get $c) (i32.const ${ROW_BYTES})))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $h (i32.add (local.get $h) (i32.const 16)))
            (br $pole)))`;
}
/** What a kernel thread needs to run the pass (structured-clonable). */
export interface AdeSweep {
  /** Per component, per x-plane index i from −1 to n + 1: the plane's first group. */
  planeStart: Int32Array[];
  /** Per component, as planeStart: what the plane adds to the P and the h address (bytes). */
  pStart: Int32Array[];
  hStart: Int32Array[];
  /** [set][component]: the absolute addresses ade() takes after g0 and g1 (for plane −1). */
  args: number[][][];
}

/** The sweep's view of the region at byte address `base`. */
export function adeSweep(
  plan: AdeMemoryPlan,
  base: number,
  components: readonly number[],
  setBytes: number,
  sets: number,
): AdeSweep {
  const args = Array.from({ length: sets }, (_, set) =>
    [0, 1, 2].map((c) => [
      components[c] + set * setBytes,
      base + plan.groups[c],
      base + plan.e1[set][c],
      base + plan.p[set][c],
      base + plan.h[set][c],
    ]),
  );
  return { planeStart: plan.groupStart, pStart: plan.pStart, hStart: plan.hStart, args };
}
