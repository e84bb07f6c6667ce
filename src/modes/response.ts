/**
 * The mode endpoint's answer (docs/api.md "Modes"): the plane as the grid placed it, each
 * mode's n_eff, k_eff, TE fraction and group index, and, when asked, its six field components
 * at the centres of the plane's cells, named by the domain's axes.
 *
 * The solver keeps each component where the Yee grid has it (modes/operator.ts); here each is
 * averaged onto the cell centres from its two (or four) neighbouring samples, so that every
 * component shares one grid for plotting. Past the plane's edge a periodic axis wraps and a
 * walled one repeats its last sample.
 */
import type { PlaneModes, SolvedMode } from "../solver/index.js";

const AXES = "xyz";

export interface ModeFieldsJson {
  /** Per component (Ex … Hz): real and imaginary parts at the cell centres, index i·n_v + j. */
  [component: string]: { re: number[]; im: number[] };
}

export interface ModeJson {
  wavelength_m: number;
  mode_index: number;
  n_eff: number;
  k_eff: number;
  te_fraction: number;
  group_index?: number;
  fields?: ModeFieldsJson;
}

export interface ModesResponse {
  plane: {
    normal: string;
    /** The transverse axes (u, v): the fields' index is i·n_v + j, i along u. */
    axes: [string, string];
    position_m: number;
    cells: [number, number];
  };
  wavelengths_m: number[];
  modes: ModeJson[];
  /** With fields: the cell centres along u and v (metres). */
  grid?: Record<string, number[]>;
  unknowns: number;
  solve_seconds: number;
  /**
   * What the answer cannot say by itself: a mode whose k_eff the absorber made negative, a
   * bend with no absorber on its outer side (solver/modes/mode-notes.ts).
   */
  notes: string[];
}

/** The JSON answer for a solved plane. */
export function modesResponse(solved: PlaneModes, includeFields: boolean): ModesResponse {
  const { plane } = solved;
  const [u, v] = plane.transverse;
  const nodes = plane.axes.map((a) => a.nodesM);
  const cells: [number, number] = [nodes[0]!.length - 1, nodes[1]!.length - 1];
  const wrap: [boolean, boolean] = [
    plane.axes[0].boundary === "periodic",
    plane.axes[1].boundary === "periodic",
  ];
  const modes = solved.modes.flat().map((m) => {
    const json: ModeJson = {
      wavelength_m: m.wavelength_m,
      mode_index: m.mode_index,
      n_eff: m.n_eff,
      k_eff: m.k_eff,
      te_fraction: m.te_fraction,
      ...(m.group_index !== undefined ? { group_index: m.group_index } : {}),
    };
    if (includeFields) json.fields = centredFields(m, [u, v, plane.normal], cells, wrap);
    return json;
  });
  return {
    plane: {
      normal: AXES[plane.normal]!,
      axes: [AXES[u]!, AXES[v]!],
      // originM + i·step leaves rounding where the node is 0 (−2.1e-22 for x = 0).
      position_m: Math.abs(plane.positionM) < 1e-15 ? 0 : plane.positionM,
      cells,
    },
    wavelengths_m: solved.wavelengthsM,
    modes,
    ...(includeFields
      ? { grid: { [`${AXES[u]}_m`]: centres(nodes[0]!), [`${AXES[v]}_m`]: centres(nodes[1]!) } }
      : {}),
    unknowns: solved.unknowns,
    solve_seconds: solved.seconds,
    notes: solved.notes,
  };
}

function centres(nodes: Float64Array): number[] {
  return Array.from({ length: nodes.length - 1 }, (_, i) => (nodes[i]! + nodes[i + 1]!) / 2);
}

/**
 * Each component averaged onto the cell centres: `half` says along which of (u, v) it already
 * sits at centres (E_u and H_v along u; E_v and H_u along v; H_w along both; E_w along none).
 */
function centredFields(
  m: SolvedMode,
  [u, v, w]: [number, number, number],
  [nu, nv]: [number, number],
  wrap: [boolean, boolean],
): ModeFieldsJson {
  const f = m.fields;
  const parts: [string, { re: Float64Array; im: Float64Array }, [boolean, boolean]][] = [
    [`E${AXES[u]}`, f.Eu, [true, false]],
    [`E${AXES[v]}`, f.Ev, [false, true]],
    [`E${AXES[w]}`, f.Ew, [false, false]],
    [`H${AXES[u]}`, f.Hu, [false, true]],
    [`H${AXES[v]}`, f.Hv, [true, false]],
    [`H${AXES[w]}`, f.Hw, [true, true]],
  ];
  const out: ModeFieldsJson = {};
  for (const [name, values, half] of parts) {
    out[name] = {
      re: centred(values.re, [nu, nv], half, wrap),
      im: centred(values.im, [nu, nv], half, wrap),
    };
  }
  return out;
}

/** One array averaged onto the centres along each axis where it sits on nodes. */
function centred(
  values: Float64Array,
  [nu, nv]: [number, number],
  half: [boolean, boolean],
  wrap: [boolean, boolean],
): number[] {
  const next = (k: number, n: number, periodic: boolean) =>
    k + 1 < n ? k + 1 : periodic ? 0 : n - 1;
  const out = new Array<number>(nu * nv);
  for (let i = 0; i < nu; i++) {
    const iNext = half[0] ? i : next(i, nu, wrap[0]);
    for (let j = 0; j < nv; j++) {
      const jNext = half[1] ? j : next(j, nv, wrap[1]);
      const sum =
        values[i * nv + j]! +
        values[iNext * nv + j]! +
        values[i * nv + jNext]! +
        values[iNext * nv + jNext]!;
      out[i * nv + j] = sum / 4;
    }
  }
  return out;
}
