/**
 * Cancelling a run. A run's AbortSignal (RunOptions.signal) flips when its thread's event loop
 * hands it the cancel, which the run lets happen between slices of about 50 ms. A port
 * plane's mode solves run for seconds without such a break (an LU factorisation and an
 * Arnoldi iteration a wavelength, the second chain of wavelengths on a helper thread) and
 * would finish before they saw it. A StopFlag is a word of shared memory that whoever cancels
 * sets directly (the job worker, from its own thread); the solves read it at every Arnoldi
 * step, through a StopCheck.
 */

/** A cancel that synchronous work can see: one Int32 word of shared memory. */
export class StopFlag {
  private readonly word: Int32Array;

  /** A flag on `buffer` (another thread's flag, passed in a message), or a new one. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.word = new Int32Array(buffer, 0, 1);
  }

  request(): void {
    Atomics.store(this.word, 0, 1);
  }

  get requested(): boolean {
    return Atomics.load(this.word, 0) !== 0;
  }
}

/** Throws `cancelledError()` once the run is cancelled; returns otherwise. */
export type StopCheck = () => void;

/** The check of work nobody can cancel. */
export const NEVER_STOPPED: StopCheck = () => undefined;

/** What a cancelled run rejects with: an Error named "AbortError" (RunOptions.signal). */
export function cancelledError(): Error {
  const err = new Error("the simulation was cancelled");
  err.name = "AbortError";
  return err;
}

/** The check of a run cancelled by `signal` or by `flag`, whichever comes first. */
export function stopCheck(signal?: AbortSignal, flag?: StopFlag): StopCheck {
  if (!signal && !flag) return NEVER_STOPPED;
  return () => {
    if (signal?.aborted || flag?.requested) throw cancelledError();
  };
}
