/**
 * The solver backends the physics tests run their analytic checks on: reference, wasm and
 * webgpu, each as this process can run it.
 *
 * Each is resolved once per process, when this module loads (every test file is a process of
 * its own under `node --test`). Naming `webgpu` takes a software adapter too (backends.ts): on
 * a machine without a GPU, CI's included, that is Mesa's llvmpipe through Dawn's OpenGL ES
 * mode, so the WGSL kernels are checked there as well. A backend that cannot run here is
 * skipped with the reason it gave, never replaced by another: the checks run through `runOn`
 * (run-on.ts), which asserts that the run report names the backend asked for, so a silent
 * fallback fails.
 *
 * Two tiers. `npm test` is the quick one: each analytic check runs on wasm, the backend jobs
 * run on where there is no GPU, and on a hardware GPU's webgpu where there is one. The
 * reference backend and webgpu on a software adapter are held to the same fields as wasm by
 * the agreement files instead (wasm/agreement.test.ts: wasm against the reference backend;
 * webgpu/agreement*.test.ts: webgpu against it, every boundary, source and material kind),
 * which keeps the suite within its twelve minutes on a 2-core machine. The full tier,
 * `EMSIM_TEST_TIER=full` (`npm run test:full`), runs every check on every backend that can run
 * here but the checks too slow for one backend (`except` below, each listed in
 * docs/validation.md); `EMSIM_TEST_EVERY_CASE=1` runs those too.
 */
import { describe } from "node:test";
import type { BackendName } from "../backend.js";
import { describeAdapter, initSolverBackend } from "../backends.js";
import { webgpuSkipReason } from "./require-webgpu.js";

/** A backend as the tests see it in this process. */
export interface BackendUnderTest {
  readonly name: BackendName;
  /** How the tests' titles name it, with the adapter for webgpu. */
  readonly label: string;
  /** Why it cannot run in this process, or null when it can. */
  readonly unavailable: string | null;
  /** A GPU backend on a software adapter (llvmpipe): the GPU's kernels, at the CPU's pace. */
  readonly software: boolean;
}

/** The order the checks run in: the plain implementation first, then the fast ones. */
const ORDER: readonly BackendName[] = ["reference", "wasm", "webgpu"];

async function resolve(name: BackendName): Promise<BackendUnderTest> {
  try {
    const backend = await initSolverBackend(name);
    const label = backend.adapter ? `${name}: ${describeAdapter(backend.adapter)}` : name;
    return { name, label, unavailable: null, software: backend.adapter?.software ?? false };
  } catch (err) {
    const reason = (err as Error).message;
    // webgpu: a failure where .ci/run requires it (require-webgpu.ts), else a skip.
    const unavailable = name === "webgpu" ? webgpuSkipReason(reason) : reason;
    return { name, label: name, unavailable, software: false };
  }
}

/** Every backend, resolved once for this process. */
export const BACKENDS_UNDER_TEST: readonly BackendUnderTest[] = await Promise.all(
  ORDER.map(resolve),
);

/**
 * Backends a check leaves out, each with its reason (too slow here, say); docs/validation.md
 * lists every one. A `webgpu` exception applies on a software adapter only: on a real GPU the
 * check runs.
 */
export type BackendExceptions = Partial<Record<BackendName, string>>;

/**
 * The reason a slow analytic check leaves the reference backend out: it steps the same
 * equations as wasm, which wasm/agreement.test.ts compares with it to 1e-5 on every boundary,
 * source and material kind, so the check on wasm speaks for both. `seconds`: its time here.
 */
export function referenceStepsAsWasm(seconds: string): string {
  return `${seconds} on the plain TypeScript kernels here; they step what wasm steps (wasm/agreement.test.ts compares the two to 1e-5, dispersive materials included), and the check runs on wasm`;
}

/** `EMSIM_TEST_EVERY_CASE=1`: the exceptions are run too (a GPU machine, a release check). */
const EVERY_CASE = process.env.EMSIM_TEST_EVERY_CASE === "1";

/** `EMSIM_TEST_TIER=full` (npm run test:full), or every case: each check on every backend. */
const FULL_TIER = EVERY_CASE || process.env.EMSIM_TEST_TIER === "full";

/** Why the quick tier leaves a backend other than wasm out of the analytic checks. */
const QUICK_TIER =
  "the quick tier (npm test) runs the analytic checks on wasm, and the agreement files hold this backend to the same fields; npm run test:full runs them here too";

/** Why a check leaves this backend out here, or false where it runs. */
function leftOutReason(b: BackendUnderTest, except: BackendExceptions): string | false {
  if (b.unavailable) return `the ${b.name} backend cannot run here: ${b.unavailable}`;
  if (EVERY_CASE || (b.name === "webgpu" && !b.software)) return false;
  const reason = except[b.name];
  if (reason !== undefined) return `left out on ${b.label}: ${reason}`;
  return b.name === "wasm" || FULL_TIER ? false : `left out on ${b.label}: ${QUICK_TIER}`;
}

/**
 * Declares the tests `body` declares once per backend, each set inside a `describe` named after
 * the backend; a set is skipped, with the reason in the test output, where the backend cannot
 * run here or `except` leaves it out.
 */
export function forEachBackend(
  body: (backend: BackendName) => void,
  except: BackendExceptions = {},
): void {
  for (const b of BACKENDS_UNDER_TEST) {
    describe(`on ${b.label}`, { skip: leftOutReason(b, except) }, () => body(b.name));
  }
}

/**
 * Test options that leave one check inside a `forEachBackend` body out on `backend` where
 * `except` says so: `it(title, leftOutOn(backend, EXCEPTIONS), fn)`.
 */
export function leftOutOn(
  backend: BackendName,
  except: BackendExceptions,
): { skip: string | false } {
  const b = BACKENDS_UNDER_TEST.find((x) => x.name === backend);
  return { skip: b ? leftOutReason(b, except) : false };
}

/**
 * `run` memoised per backend: a check that compares every backend with the reference backend
 * reuses the reference's own run (declared first, so it has run by then).
 */
export function oncePerBackend<T>(run: (backend: BackendName) => Promise<T>) {
  const runs = new Map<BackendName, Promise<T>>();
  return (backend: BackendName): Promise<T> => {
    let p = runs.get(backend);
    if (!p) {
      p = run(backend);
      runs.set(backend, p);
    }
    return p;
  };
}

export { assertRanOn, runOn } from "./run-on.js";
