"""A batch's result file read the way users read it: xarray's h5netcdf engine one group at a
time, h5py, and emsim.load (with xarray, and numpy alone). The files come from
src/results/batch-merge.test.ts, which runs the jobs, stacks them, and names the files and
each variant's own job file in EMSIM_TEST_BATCH_MANIFEST.

Each variant's numbers are compared with its own job's file as emsim.load reads it, to the
last bit; the sweep's dimensions must come first, named after the parameters, with their
values as coordinates; a failed variant is NaN and /jobs says so.
"""

import json
import os
import unittest

import h5py
import numpy as np
import xarray as xr

import emsim
from support import env

THICKNESS = [0.2e-6, 0.3e-6, 0.4e-6]
MATERIAL = ["SiO2", "Si"]
SOURCE_WAVELENGTH = [1.5e-6, 1.55e-6, 1.6e-6]


def manifest():
    with open(env("EMSIM_TEST_BATCH_MANIFEST")) as f:
        return json.load(f)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


class ProductSweep(unittest.TestCase):
    """thickness (3) x material (2) of a slab; variant 3 (0.3 um, Si) failed."""

    @classmethod
    def setUpClass(cls):
        cls.batch = manifest()["product"]

    def test_xarray_opens_a_monitor_group_with_the_sweep_first(self):
        ds = xr.open_dataset(self.batch["path"], engine="h5netcdf", group="monitors/T")
        self.assertEqual(ds.flux.dims, ("thickness", "material", "wavelength"))
        self.assertEqual(ds.thickness.values.tolist(), THICKNESS)
        self.assertEqual(ds.material.values.tolist(), MATERIAL)
        self.assertEqual(ds.thickness.attrs["path"], "/structures/0/size/2")
        # A length's coordinate says its unit; a material's name has none.
        self.assertEqual(ds.thickness.attrs["units"], "m")
        self.assertNotIn("units", ds.material.attrs)
        for index, job in enumerate(self.batch["jobs"]):
            at = dict(thickness=THICKNESS[index // 2], material=MATERIAL[index % 2])
            flux = ds.flux.sel(at)
            if job is None:
                self.assertTrue(np.isnan(flux.values).all())
                continue
            with h5py.File(job, "r") as f:
                self.assertTrue(same_bits(flux.values, f["monitors/T/flux"][...]), at)
        line = xr.open_dataset(self.batch["path"], engine="h5netcdf", group="monitors/line")
        self.assertEqual(line.Ey.dims, ("thickness", "material", "x", "y", "z"))
        self.assertEqual(line.Ey.dtype, np.complex64)
        jobs = xr.open_dataset(self.batch["path"], engine="h5netcdf", group="jobs")
        self.assertEqual(jobs.status.dims, ("thickness", "material"))
        failed = jobs.status.sel(thickness=0.3e-6, material="Si").item()
        self.assertEqual(failed, "FAILED")

    def test_emsim_load_gives_each_variant_its_jobs_numbers(self):
        result = emsim.load(self.batch["path"])
        self.assertIsInstance(result, emsim.BatchResult)
        self.assertEqual(result.batch_id, "batch-product")
        self.assertEqual(result.dimensions, ["thickness", "material"])
        self.assertEqual([p["name"] for p in result.parameters], ["thickness", "material"])
        self.assertEqual(set(result), {"T", "line"})
        T, line = result["T"], result["line"]
        self.assertEqual(T.flux.dims, ("thickness", "material", "wavelength"))
        # One wavelength, as for one job: a wavelength axis of length 1, after the sweep's.
        self.assertEqual(line.Ex.dims, ("thickness", "material", "wavelength", "x", "y", "z"))
        self.assertEqual(line.frequency.dims, ("wavelength",))
        for index, job in enumerate(self.batch["jobs"]):
            at = dict(thickness=THICKNESS[index // 2], material=MATERIAL[index % 2])
            if job is None:
                self.assertTrue(np.isnan(T.flux.sel(at).values).all())
                self.assertTrue(np.isnan(line.Ex.sel(at).values).all())
                continue
            own = emsim.load(job)
            self.assertTrue(same_bits(T.flux.sel(at).values, own["T"].flux.values), at)
            self.assertTrue(same_bits(line.Ex.sel(at).values, own["line"].Ex.values), at)
            self.assertTrue(same_bits(T.wavelength.values, own["T"].wavelength.values))
        self.assertEqual(
            result.jobs.status.values.tolist(),
            [["COMPLETED", "COMPLETED"], ["COMPLETED", "FAILED"], ["COMPLETED", "COMPLETED"]],
        )
        self.assertEqual(
            result.jobs.error_detail.sel(thickness=0.3e-6, material="Si").item(),
            "the fields diverged",
        )
        self.assertEqual(result.request["structures"][0]["material"], "SiO2")

    def test_numpy_without_xarray(self):
        result = emsim.load(self.batch["path"], as_xarray=False)
        T = result["T"]
        self.assertIsInstance(T, emsim.SweptGroup)
        self.assertEqual(T.dims("flux"), ("thickness", "material", "wavelength"))
        self.assertEqual(T["flux"].shape, (3, 2, 4))
        self.assertEqual(T["material"].tolist(), MATERIAL)
        self.assertEqual(result.jobs["status"][1, 1], "FAILED")


class ZipSweep(unittest.TestCase):
    """thickness, with span and source_wavelength along it; the 'inside' monitor's sample count
    follows the span, so it is not stacked."""

    @classmethod
    def setUpClass(cls):
        cls.batch = manifest()["zip"]

    def test_the_others_are_coordinates_along_the_first(self):
        result = emsim.load(self.batch["path"])
        T = result["T"]
        # Each variant records its own source wavelength: wavelength(thickness, wavelength_index).
        self.assertEqual(T.flux.dims, ("thickness", "wavelength_index"))
        self.assertEqual(T.span.dims, ("thickness",))
        self.assertEqual(T.source_wavelength.values.tolist(), SOURCE_WAVELENGTH)
        self.assertEqual(T.source_wavelength.attrs["units"], "m")
        self.assertEqual(T.wavelength.dims, ("thickness", "wavelength_index"))
        for i, job in enumerate(self.batch["jobs"]):
            own = emsim.load(job)
            self.assertTrue(same_bits(T.flux.isel(thickness=i).values, own["T"].flux.values))
            self.assertTrue(
                same_bits(T.wavelength.isel(thickness=i).values, own["T"].wavelength.values)
            )
        # A field monitor's single wavelength, different in each variant: along thickness.
        line = result["line"]
        self.assertEqual(line.Ey.dims, ("thickness", "x", "y", "z"))
        self.assertEqual(line.wavelength.values.tolist(), SOURCE_WAVELENGTH)
        ds = xr.open_dataset(self.batch["path"], engine="h5netcdf", group="monitors/line")
        self.assertEqual(ds.wavelength.dims, ("thickness",))
        self.assertEqual(ds.span.dims, ("thickness",))

    def test_a_monitor_that_cannot_stack_is_named(self):
        result = emsim.load(self.batch["path"])
        self.assertNotIn("inside", result)
        self.assertIn("inside", result.dropped)
        with self.assertRaisesRegex(KeyError, "not stacked.*Ex is shaped"):
            result["inside"]
        with self.assertRaisesRegex(KeyError, "no monitor 'inside'.*not stacked"):
            emsim.load(self.batch["path"], "inside")


class PortsSweep(unittest.TestCase):
    """A waveguide's width (2), input o1 only."""

    @classmethod
    def setUpClass(cls):
        cls.batch = manifest()["ports"]

    def test_s_matrix_with_the_sweep_first(self):
        result = emsim.load(self.batch["path"])
        S = result.s_matrix
        self.assertEqual(S.dims, ("width", "port_out", "port_in", "wavelength"))
        self.assertEqual(S.port_out.values.tolist(), ["o1@0", "o2@0"])
        self.assertEqual(S.n_eff.dims, ("width", "port_out", "wavelength"))
        self.assertEqual(S.attrs["inputs"], ["o1@0"])
        mid = result["mid@o1@0"]
        self.assertEqual(mid.amps.dims, ("width", "direction", "wavelength", "mode_index"))
        self.assertEqual(mid.direction.values.tolist(), ["+", "-"])
        for i, job in enumerate(self.batch["jobs"]):
            own = emsim.load(job)
            self.assertTrue(same_bits(S.isel(width=i).values, own.s_matrix.values))
            self.assertTrue(same_bits(mid.amps.isel(width=i).values, own["mid@o1@0"].amps.values))
            self.assertTrue(
                same_bits(mid.power.isel(width=i).values, own["mid@o1@0"].power.values)
            )
        # The column of the input not run is NaN, as in each job's file.
        self.assertTrue(np.isnan(S.sel(port_in="o2@0").values).all())
        ds = xr.open_dataset(self.batch["path"], engine="h5netcdf", group="s_matrix")
        self.assertEqual(ds.S.dims, ("width", "port_out", "port_in", "wavelength"))


class FarFieldSweep(unittest.TestCase):
    """A made-up pattern over a boolean parameter."""

    def test_boolean_dimension(self):
        batch = manifest()["farField"]
        ds = xr.open_dataset(batch["path"], engine="h5netcdf", group="monitors/pattern")
        self.assertEqual(ds.mirrored.dtype, bool)
        self.assertNotIn("units", ds.mirrored.attrs)
        self.assertEqual(ds.E_theta.dims, ("mirrored", "wavelength", "theta", "phi"))
        pattern = emsim.load(batch["path"], "pattern")
        self.assertEqual(pattern.mirrored.values.tolist(), [False, True])
        for i, job in enumerate(batch["jobs"]):
            own = emsim.load(job, "pattern")
            self.assertTrue(same_bits(pattern.E_theta.isel(mirrored=i).values, own.E_theta.values))


if __name__ == "__main__":
    unittest.main()


class DroppedSMatrix(unittest.TestCase):
    """A sweep whose variants' S-matrices differ in shape (num_modes swept) keeps none."""

    def test_asking_for_it_says_why(self):
        reason = "s_matrix is not stacked: the variants' ports differ"
        result = emsim.batch.BatchResult("b.h5", {}, {}, {}, None, None, {"s_matrix": reason})
        with self.assertRaisesRegex(KeyError, "S-matrix is not stacked in b.h5: s_matrix is not"):
            result.s_matrix
        self.assertIsNone(emsim.batch.BatchResult("b.h5", {}, {}, {}, None, None, {}).s_matrix)
