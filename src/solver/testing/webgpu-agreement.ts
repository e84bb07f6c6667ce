/**
 * What the webgpu agreement tests share (webgpu/agreement*.test.ts, split so that each file
 * stays well inside the suite's per-file limit on a slow host running llvmpipe): the adapter
 * found once per process, the cases, their request and the reference backend's run of it.
 */
import { initSolverBackend } from "../backends.js";
import { runWithMaterials } from "../run.js";
import {
  AGREEMENT_MATERIALS as materials,
  agreementSpec,
  MIRROR_CASES,
  type AgreementCase,
} from "./agreement.js";
import { skipWithoutWebgpu } from "./require-webgpu.js";

export const TOLERANCE = 1e-5;

// Found once: naming `webgpu` allows a software adapter (backends.ts).
export const found = await initSolverBackend("webgpu").then(
  (backend) => ({ backend, reason: "" }),
  (err: Error) => ({ backend: null, reason: err.message }),
);
export const skip = skipWithoutWebgpu(found.backend ? null : found.reason);

export const CASES: AgreementCase[] = [
  {
    name: "+z, graded along x, y and z (mesh override), pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
    refine: [true, true, true],
  },
  {
    name: "oblique about x (Bloch along y and z), graded along x",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [1, 0.25, -0.2],
    polarization: "tm",
    cells: [20, 8, 7],
    refine: [true, false, false],
  },
  {
    name: "+z, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
  },
  {
    name: "−x, periodic y, pmc z",
    boundaries: ["pml", "periodic", "pmc"],
    direction: [-1, 0, 0],
    polarization: "tm",
    cells: [20, 7, 9],
  },
  {
    name: "+y, pec x, periodic z",
    boundaries: ["pec", "pml", "periodic"],
    direction: [0, 1, 0],
    polarization: "te",
    cells: [9, 20, 8],
  },
  {
    name: "oblique about z (Bloch along x and y)",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [12, 9, 20],
  },
  {
    name: "oblique about −x (Bloch along y and z)",
    boundaries: ["pml", "periodic", "periodic"],
    direction: [-1, 0.25, -0.2],
    polarization: "te",
    cells: [20, 8, 7],
  },
  {
    name: "oblique about y (Bloch along x and z), pmc walls absent",
    boundaries: ["periodic", "pml", "periodic"],
    direction: [0.2, 1, 0.3],
    polarization: "tm",
    cells: [11, 20, 9],
  },
  ...MIRROR_CASES,
  {
    name: "+z, graded along x, y and z, a PEC plate over half the section, pml on every face",
    boundaries: ["pml", "pml", "pml"],
    direction: [0, 0, 1],
    polarization: "te",
    cells: [8, 8, 20],
    refine: [true, true, true],
    pecPlate: true,
  },
  {
    name: "oblique about z (Bloch along x and y), a PEC plate over half the section",
    boundaries: ["periodic", "periodic", "pml"],
    direction: [0.3, 0.2, 1],
    polarization: "tm",
    cells: [12, 9, 20],
    pecPlate: true,
  },
];

/** The monitors 6 cells behind the centre and 7 in front. */
export const spec = (c: AgreementCase, steps: number) =>
  agreementSpec(c, steps, { transmitted: 6, reflected: 7 });

/** The reference backend's run of a request, once per request (float32 and float16 compare). */
const referenceRuns = new Map<string, ReturnType<typeof runWithMaterials>>();
export function referenceRun(s: ReturnType<typeof spec>): ReturnType<typeof runWithMaterials> {
  const key = JSON.stringify(s);
  if (!referenceRuns.has(key)) {
    referenceRuns.set(key, runWithMaterials(s, materials, { backend: "reference" }));
  }
  return referenceRuns.get(key)!;
}
