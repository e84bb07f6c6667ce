// A test reporter for scripts/run-tests.mjs: after the run, the slowest test files by the sum of
// their top-level tests' durations (hooks and imports not counted), so the suite's time budget
// can be kept. The files run two at a time, so the sums add up to about twice the wall time.
// EMSIM_TEST_FILES_SHOWN sets how many are listed (20).
const SHOWN = Number(process.env.EMSIM_TEST_FILES_SHOWN ?? 20);

export default async function* fileTimes(source) {
  const seconds = new Map();
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    seconds.set(file, (seconds.get(file) ?? 0) + (details?.duration_ms ?? 0) / 1000);
  }
  const rows = [...seconds].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, s]) => sum + s, 0);
  yield `\nslowest test files (of ${rows.length}, ${total.toFixed(0)} s in all):\n`;
  for (const [file, s] of rows.slice(0, SHOWN)) {
    yield `${s.toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, "")}\n`;
  }
}
