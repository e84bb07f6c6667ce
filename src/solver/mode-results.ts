/**
 * Mode monitors: a plane's recorded fields decomposed into the plane's modes at each of its
 * wavelengths. The plane records what a flux plane records (flux.ts: E_b, E_c on the node
 * plane, H_b, H_c averaged from the half cells either side, each pair at its own Yee points);
 * after the run the plane's modes are solved on the run's own grid and medium
 * (modes/grid-modes.ts) and, with m's fields E_m, H_m (1 W along +normal),
 *   I1 = ∫ (E × H_m*)·n dA,   I2 = ∫ (E_m* × H)·n dA,
 *   a₊ = (I1 + I2)/4,   a₋ = (I1 − I2)/4,
 * the amplitudes along +normal and −normal (the −normal mode has the same E_t and the opposite
 * H_t; the modes of a lossless plane are orthogonal under these integrals). Each product is
 * formed at the flux plane's points with its weights, the mode's samples read at the same Yee
 * points. The average of H over the two half cells reads a wave e^{±iβz} as cos(βh/2) of its
 * value on the plane; dividing H by cos(β_m h/2) for each mode m makes the decomposition into
 * m exact for that factor. Across a mirror plane the recorded half counts for the whole.
 */
import { cellStepM } from "./grid.js";
import type { FluxFace } from "./flux.js";
import type { SampleBox } from "./monitors.js";
import { gridModes, placedModeWindow, type GridModeWindow } from "./modes/grid-modes.js";
import { guides } from "./modes/mode-notes.js";
import type { ModeFields } from "./modes/fields.js";
import type { SolvedMode } from "./modes/solve.js";
import { isEvanescent } from "./modes/solved-mode.js";
import type { FdtdSimulation, MonitorState } from "./simulation.js";
import { RunRequestError, type ModeMonitorResult } from "./types.js";

/** Every mode monitor's decomposition, in the order of the monitors. */
export function modeResults(sim: FdtdSimulation, allSums: Float64Array[][]): ModeMonitorResult[] {
  const out: ModeMonitorResult[] = [];
  sim.monitors.forEach((m, mi) => {
    if (m.mode && m.spec.monitor_type === "mode") out.push(modeResult(sim, m, allSums[mi]!));
  });
  return out;
}

function modeResult(sim: FdtdSimulation, m: MonitorState, sums: Float64Array[]): ModeMonitorResult {
  const surface = m.mode!;
  const face = surface.faces[0]!;
  const spec = m.spec as Extract<MonitorState["spec"], { monitor_type: "mode" }>;
  // The whole plane the request names (absorber included where it reaches into it), as a
  // mode source on it would solve it; the recorded face is the part of it off the absorber.
  const window = placedModeWindow(sim.plan, face.axis, face.plane, spec.center, spec.size);
  const { modes, edgeIndex } = gridModes(
    sim.model.layout,
    sim.model.medium,
    window,
    m.wavelengthsM,
    spec.mode_spec,
    { threads: sim.threadsAllowed, checkStop: sim.checkStop },
  );
  if (spec.port !== undefined) requireGuided(spec.port, modes, edgeIndex);
  const W = m.wavelengthsM.length;
  const M = spec.mode_spec.num_modes;
  const result = {
    nEff: new Float64Array(W * M),
    kEff: new Float64Array(W * M),
    forward: new Float64Array(2 * W * M),
    backward: new Float64Array(2 * W * M),
  };
  const norm = sim.source.normalisation();
  const images = 2 ** surface.mirrored.length;
  const hMean =
    (cellStepM(sim.plan.axes[face.axis], face.plane - 1) +
      cellStepM(sim.plan.axes[face.axis], face.plane)) /
    2;
  for (let w = 0; w < W; w++) {
    const f = m.frequencyIndex[w]!;
    const n: [number, number] = [norm[2 * f]!, norm[2 * f + 1]!];
    modes[w]!.forEach((mode, k) => {
      const o = w * M + k;
      result.nEff[o] = mode.n_eff;
      result.kEff[o] = mode.k_eff;
      if (isEvanescent(mode)) {
        for (const a of [result.forward, result.backward]) a.fill(NaN, 2 * o, 2 * o + 2);
        return;
      }
      const beta = (mode.n_eff * 2 * Math.PI) / m.wavelengthsM[w]!;
      const hScale = 1 / Math.cos((beta * hMean) / 2);
      const [i1, i2] = overlaps(face, surface.box, window, sums, w, n, mode, hScale);
      result.forward[2 * o] = (images * (i1[0] + i2[0])) / 4;
      result.forward[2 * o + 1] = (images * (i1[1] + i2[1])) / 4;
      result.backward[2 * o] = (images * (i1[0] - i2[0])) / 4;
      result.backward[2 * o + 1] = (images * (i1[1] - i2[1])) / 4;
    });
  }
  return {
    name: m.spec.name,
    center: [...m.spec.center],
    size: [...m.spec.size],
    wavelengthsM: m.wavelengthsM,
    frequenciesHz: m.frequencyIndex.map((f) => sim.omegas[f]! / (2 * Math.PI)),
    normal: face.axis,
    modes: M,
    ...result,
  };
}

/**
 * The run's notes on the mode monitors' evanescent modes, one per monitor that has any (from
 * the n_eff and k_eff the results hold), naming the first found.
 */
export function evanescentNotes(monitors: readonly ModeMonitorResult[]): string[] {
  return monitors.flatMap((m) => {
    const found = Array.from(m.nEff, (n_eff, o) => ({ n_eff, k_eff: m.kEff[o]!, o })).filter(
      isEvanescent,
    );
    const first = found[0];
    if (!first) return [];
    const at = m.wavelengthsM[Math.floor(first.o / m.modes)]!;
    const indices = [...new Set(found.map((f) => f.o % m.modes))].join(", ");
    return [
      `mode monitor "${m.name}": mode(s) ${indices} evanescent at ${found.length} of ` +
        `${m.nEff.length} mode-wavelength pair(s) (mode ${first.o % m.modes} at ` +
        `${Number((at * 1e6).toPrecision(6))} µm: n_eff ${first.n_eff.toPrecision(3)}, ` +
        `k_eff ${first.k_eff.toPrecision(3)}): past cut-off, such a mode carries no power, so ` +
        "its amplitudes are not given (null); the plane may be too small for the guide, or " +
        "ask for fewer modes",
    ];
  });
}

/**
 * Fails the run when a port's mode does not guide: its n_eff not above the index at the
 * plane's edges (mode-notes.ts), as on a plane no guide crosses, or past the modes the guide
 * has. Its amplitudes would divide by next to nothing and its S-parameters run far above 1.
 */
function requireGuided(
  port: string,
  modes: readonly (readonly SolvedMode[])[],
  edgeIndex: readonly number[],
): void {
  modes.forEach((atWavelength, w) => {
    const edge = edgeIndex[w]!;
    const lost = atWavelength.find((m) => !guides(m, edge));
    if (!lost) return;
    throw new RunRequestError(
      `port ${port}: its mode ${lost.mode_index} at ${Number((lost.wavelength_m * 1e6).toPrecision(6))} µm ` +
        `has n_eff ${lost.n_eff.toPrecision(6)}, not above the index at the plane's edges ` +
        `(${edge.toPrecision(6)}): the port's plane holds no such guided mode. Check that a ` +
        `guide crosses the port's plane, or ask for fewer modes (mode_spec.num_modes)` +
        ` (POST /v1/modes shows the plane's modes)`,
    );
  });
}

/**
 * I1 = ∫(E × H_m*)·n and I2 = ∫(E_m* × H)·n over the face at wavelength w, the recorded fields
 * times the normalisation n and H times hScale, as [re, im] each.
 */
function overlaps(
  face: FluxFace,
  box: SampleBox,
  window: GridModeWindow,
  sums: Float64Array[],
  w: number,
  n: [number, number],
  mode: SolvedMode,
  hScale: number,
): [[number, number], [number, number]] {
  const a = face.axis;
  const [b, c] = [(a + 1) % 3, (a + 2) % 3];
  const first = face.weights[0];
  const second = face.weights[1];
  const points = pointIndices(face, box, window);
  // Streams: 0 E_b and 3 H_c at the first points, 1 E_c and 2 H_b at the second.
  const p1 = pairSums(
    sums[0]!,
    sums[3]!,
    first,
    points.first,
    w,
    n,
    hScale,
    modeSamples(mode.fields, window, b, c),
  );
  const p2 = pairSums(
    sums[1]!,
    sums[2]!,
    second,
    points.second,
    w,
    n,
    hScale,
    modeSamples(mode.fields, window, c, b),
  );
  return [
    [p1.eh[0] - p2.eh[0], p1.eh[1] - p2.eh[1]],
    [p1.he[0] - p2.he[0], p1.he[1] - p2.he[1]],
  ];
}

/** The mode's E along `e` and H along `h` (global axes) as arrays over its window. */
function modeSamples(f: ModeFields, window: GridModeWindow, e: number, h: number) {
  const [u] = window.transverse;
  return { E: e === u ? f.Eu : f.Ev, H: h === u ? f.Hu : f.Hv };
}

/**
 * For each of the face's two point sets (flux.ts: cells along b × nodes along c, then nodes
 * along b × cells along c, b outermost), the index of each point in the mode's arrays
 * (i·cells_v + j over the window), or −1 where the point lies on the window's far wall.
 */
function pointIndices(
  face: FluxFace,
  box: SampleBox,
  window: GridModeWindow,
): { first: Int32Array; second: Int32Array } {
  const a = face.axis;
  const [b, c] = [(a + 1) % 3, (a + 2) % 3];
  const { transverse, origin, cells } = window;
  const at = (gb: number, gc: number) => {
    const g = [0, 0, 0];
    g[b] = gb;
    g[c] = gc;
    const i = g[transverse[0]]! - origin[0];
    const j = g[transverse[1]]! - origin[1];
    return i < 0 || j < 0 || i >= cells[0] || j >= cells[1] ? -1 : i * cells[1] + j;
  };
  const set = (count: number, alongB: number) => {
    const out = new Int32Array(count);
    const acrossC = count / alongB;
    for (let ib = 0, q = 0; ib < alongB; ib++) {
      for (let ic = 0; ic < acrossC; ic++, q++) out[q] = at(box.lo[b]! + ib, box.lo[c]! + ic);
    }
    return out;
  };
  const cellsB = box.hi[b]! - box.lo[b]! + 1;
  const cellsC = box.hi[c]! - box.lo[c]! + 1;
  return {
    first: set(face.weights[0].length, cellsB),
    second: set(face.weights[1].length, face.weights[1].length / cellsC),
  };
}

/** Σ weight·E·conj(H_m) and Σ weight·conj(E_m)·H over one point set, E and H normalised. */
function pairSums(
  eSums: Float64Array,
  hSums: Float64Array,
  weights: Float64Array,
  index: Int32Array,
  w: number,
  [nr, ni]: [number, number],
  hScale: number,
  mode: { E: { re: Float64Array; im: Float64Array }; H: { re: Float64Array; im: Float64Array } },
): { eh: [number, number]; he: [number, number] } {
  const P = weights.length;
  let ehRe = 0;
  let ehIm = 0;
  let heRe = 0;
  let heIm = 0;
  for (let q = 0, o = 2 * w * P; q < P; q++, o += 2) {
    const k = index[q]!;
    if (k < 0) continue;
    const er = eSums[o]! * nr - eSums[o + 1]! * ni;
    const ei = eSums[o]! * ni + eSums[o + 1]! * nr;
    const hr = (hSums[o]! * nr - hSums[o + 1]! * ni) * hScale;
    const hi = (hSums[o]! * ni + hSums[o + 1]! * nr) * hScale;
    const [mer, mei, mhr, mhi] = [mode.E.re[k]!, mode.E.im[k]!, mode.H.re[k]!, mode.H.im[k]!];
    const wq = weights[q]!;
    // E·conj(H_m) and conj(E_m)·H
    ehRe += wq * (er * mhr + ei * mhi);
    ehIm += wq * (ei * mhr - er * mhi);
    heRe += wq * (mer * hr + mei * hi);
    heIm += wq * (mer * hi - mei * hr);
  }
  return { eh: [ehRe, ehIm], he: [heRe, heIm] };
}
