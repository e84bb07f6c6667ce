/**
 * What a test does when this process cannot create a WebGPU adapter. `.ci/run` installs Mesa's
 * EGL and software driver and sets EMSIM_TEST_REQUIRE_WEBGPU=1, so there a missing adapter is
 * a failure, never a silent skip; elsewhere (a developer's machine without those packages) the
 * webgpu tests are skipped with the reason the adapter search gave.
 */
export function skipWithoutWebgpu(reason: string | null): string | false {
  return reason === null ? false : webgpuSkipReason(reason);
}

/** The skip message for an adapter search that failed with `reason` (or the failure, above). */
export function webgpuSkipReason(reason: string): string {
  if (process.env.EMSIM_TEST_REQUIRE_WEBGPU === "1") {
    throw new Error(
      `EMSIM_TEST_REQUIRE_WEBGPU=1, but no WebGPU adapter could be created: ${reason}`,
    );
  }
  return `no WebGPU adapter could be created: ${reason}`;
}
