/**
 * Where `emsim server` and `emsim worker` write their log lines: a file descriptor (stdout,
 * stderr), written synchronously, that never stops the process for its log. A full disk
 * under a redirected log (ENOSPC), a closed pipe (EPIPE) or any other write error drops the
 * line and counts it; the first line that can be written again is preceded by a warning of
 * how many were dropped and why. A pipe whose reader is slow (EAGAIN) is waited for a little,
 * then the line is dropped too: the service answers requests before it logs them.
 *
 * (pino's own destination retries a failing write every 100 ms on the event loop's thread,
 * so a full disk under `emsim server > log` froze every request, and its error then ended the
 * process once the disk had room again.)
 */
import { writeSync } from "node:fs";

/** How often a write that would block is tried again, 1 ms apart, before its line is dropped. */
const EAGAIN_TRIES = 20;

const pause = new Int32Array(new SharedArrayBuffer(4));

export class LogSink {
  private dropped = 0;
  private reason = "";

  constructor(private readonly fd: number) {}

  /** pino's destination interface: one serialised line (with its newline) per call. */
  write(line: string): void {
    if (this.dropped > 0 && this.writeAll(this.droppedNotice())) this.dropped = 0;
    if (!this.writeAll(line)) this.dropped++;
  }

  /** Lines dropped since the last one written (tests). */
  get droppedLines(): number {
    return this.dropped;
  }

  private droppedNotice(): string {
    const msg = `${this.dropped} log line(s) could not be written (${this.reason}) and were dropped`;
    return `${JSON.stringify({ level: 40, time: Date.now(), msg })}\n`;
  }

  /** Writes the whole text, or returns false (the reason kept) when the descriptor refuses. */
  private writeAll(text: string): boolean {
    let rest = Buffer.from(text);
    let waits = 0;
    while (rest.length > 0) {
      try {
        rest = rest.subarray(writeSync(this.fd, rest));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        if (code === "EAGAIN" && ++waits <= EAGAIN_TRIES) {
          Atomics.wait(pause, 0, 0, 1);
          continue;
        }
        this.reason = code;
        return false;
      }
    }
    return true;
  }
}

/**
 * A process's standard streams ignore their write errors (a full disk under a redirected
 * stderr): a message that cannot be written is lost, the process goes on.
 */
export function ignoreStdioErrors(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
}
