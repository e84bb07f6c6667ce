/** Growable typed-array columns (push-only), to avoid arrays of small objects. */
export class IntColumns {
  data: Float64Array[];
  length = 0;
  constructor(
    columns: number,
    private capacity = 1024,
  ) {
    this.data = Array.from({ length: columns }, () => new Float64Array(capacity));
  }
  push3(a: number, b: number, c: number): void {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.data[0]![i] = a;
    this.data[1]![i] = b;
    this.data[2]![i] = c;
  }
  push4(a: number, b: number, c: number, d: number): void {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.data[0]![i] = a;
    this.data[1]![i] = b;
    this.data[2]![i] = c;
    this.data[3]![i] = d;
  }
  private grow(): void {
    this.capacity *= 2;
    this.data = this.data.map((d) => {
      const n = new Float64Array(this.capacity);
      n.set(d);
      return n;
    });
  }
  column(i: number): Float64Array {
    return this.data[i]!.subarray(0, this.length);
  }
}
