/**
 * Following a job or a batch that runs on the server (`--wait`): the wait outlives a server
 * restart or a network drop (the SDK keeps polling for five minutes, DEFAULT_MAX_OUTAGE_MS),
 * the user is told once that it is trying, and when it gives up, that the work goes on there
 * and how to pick it up again — in words, and in `--json` as the job's or batch's id.
 */
import { DEFAULT_MAX_OUTAGE_MS, isOutage, type EmsimError } from "../client/index.js";
import type { CommandIo } from "./output.js";

/** The job or batch being followed. */
export interface Followed {
  kind: "job" | "batch";
  id: string;
}

/** What to run to pick the work up again, in words. */
export function resumeHint({ kind, id }: Followed): string {
  return kind === "job"
    ? `Job ${id} continues on the server: 'emsim status ${id} --wait', 'emsim download ${id}' or 'emsim cancel ${id}'.`
    : `Batch ${id} continues on the server: 'emsim batch ${id} --wait', 'emsim batch ${id} --out FILE' or 'emsim batch ${id} --cancel'.`;
}

/** An `onOutage` for the SDK's wait: says once, on stderr, that the wait goes on. */
export function outageNotice(io: CommandIo, followed: Followed): (err: EmsimError) => void {
  let told = false;
  return (err) => {
    if (told) return;
    told = true;
    io.stderr.write(
      `\nemsim: ${err.message}; still polling for up to ${DEFAULT_MAX_OUTAGE_MS / 60_000} minutes (the ${followed.kind} continues on the server).\n`,
    );
  };
}

/** The wait gave up on a server that did not answer: the error, and what was being followed. */
export class FollowingLostError extends Error {
  constructor(
    readonly error: EmsimError,
    readonly followed: Followed,
  ) {
    super(error.message, { cause: error });
  }
}

/** `err`, as a FollowingLostError when it is the server not answering a wait's polls. */
export function lostWhileFollowing(err: unknown, followed: Followed): unknown {
  return isOutage(err) ? new FollowingLostError(err, followed) : err;
}
