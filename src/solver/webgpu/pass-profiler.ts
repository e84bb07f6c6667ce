/**
 * The GPU's time per kind of pass, for profiled runs (StepperOptions.profilePasses): each run
 * of consecutive dispatches of one kind ("H bulk", "sources", …) goes into a compute pass of
 * its own whose beginning and end are written to a timestamp query set; after each submitted
 * batch the timestamps are resolved, read back and summed per kind.
 *
 * Passes of their own put a pass boundary where a profiled run would otherwise have a barrier
 * between dispatches, so a profiled step is a little slower than an unprofiled one: the
 * benchmark prints both. Needs the adapter's `timestamp-query` feature (Mesa's llvmpipe over
 * OpenGL ES has none: there a profiled run reports no split).
 */

const QUERY_RESOLVE = 0x200; // GPUBufferUsage.QUERY_RESOLVE
const COPY_SRC = 0x04;
const COPY_DST = 0x08;
const MAP_READ = 0x01;
const MAP_MODE_READ = 0x1;

/** The feature a profiler needs from the device. */
export const PROFILE_FEATURE: GPUFeatureName = "timestamp-query";

export class PassProfiler {
  private readonly querySet: GPUQuerySet;
  private readonly resolved: GPUBuffer;
  /** The kind of each pass of the open batch, in query-pair order. */
  private kinds: string[] = [];
  private readonly nanoseconds = new Map<string, number>();
  private readonly pending: Promise<void>[] = [];

  /** A profiler for batches of at most `passes` timed passes. */
  constructor(
    private readonly device: GPUDevice,
    private readonly passes: number,
  ) {
    this.querySet = device.createQuerySet({ type: "timestamp", count: 2 * passes });
    this.resolved = device.createBuffer({
      size: 16 * passes,
      usage: QUERY_RESOLVE | COPY_SRC,
    });
  }

  /** Whether `device` can be profiled. */
  static supported(device: GPUDevice): boolean {
    return device.features.has(PROFILE_FEATURE);
  }

  /** Whether the open batch has no room for another pass (flush first). */
  get full(): boolean {
    return this.kinds.length >= this.passes;
  }

  /** Begins a compute pass of `kind` on `encoder`, timed. */
  beginPass(encoder: GPUCommandEncoder, kind: string): GPUComputePassEncoder {
    if (this.full) throw new Error("PassProfiler: the batch's queries are used up");
    const pair = this.kinds.length;
    this.kinds.push(kind);
    return encoder.beginComputePass({
      timestampWrites: {
        querySet: this.querySet,
        beginningOfPassWriteIndex: 2 * pair,
        endOfPassWriteIndex: 2 * pair + 1,
      },
    });
  }

  /**
   * Resolves the open batch's timestamps after `encoder`'s work and returns the function to
   * call once `encoder` is submitted, which reads them back (asynchronously) and sums them.
   */
  endBatch(encoder: GPUCommandEncoder): () => void {
    const kinds = this.kinds;
    this.kinds = [];
    if (kinds.length === 0) return () => {};
    const bytes = 16 * kinds.length;
    const staging = this.device.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST });
    encoder.resolveQuerySet(this.querySet, 0, 2 * kinds.length, this.resolved, 0);
    encoder.copyBufferToBuffer(this.resolved, 0, staging, 0, bytes);
    return () => this.pending.push(this.collect(staging, kinds));
  }

  private async collect(staging: GPUBuffer, kinds: string[]): Promise<void> {
    try {
      await staging.mapAsync(MAP_MODE_READ);
      const stamps = new BigUint64Array(staging.getMappedRange());
      kinds.forEach((kind, i) => {
        const ns = Number(stamps[2 * i + 1] - stamps[2 * i]);
        // A pass whose timestamps the driver did not order (rare) counts as zero.
        this.nanoseconds.set(kind, (this.nanoseconds.get(kind) ?? 0) + Math.max(0, ns));
      });
    } finally {
      if (staging.mapState === "mapped") staging.unmap();
      staging.destroy();
    }
  }

  /** Seconds per kind of pass so far, once every submitted batch has been read back. */
  async seconds(): Promise<Record<string, number>> {
    await Promise.all(this.pending.splice(0));
    const out: Record<string, number> = {};
    for (const [kind, ns] of this.nanoseconds) out[kind] = ns / 1e9;
    return out;
  }

  dispose(): void {
    this.querySet.destroy();
    this.resolved.destroy();
  }
}
