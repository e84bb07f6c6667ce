"""Submit, wait, download and load against a real server, and what load returns."""

import hashlib
import os
import tempfile
import unittest

import h5py
import numpy as np
import xarray as xr

import emsim
from support import api_key, base_url, small_request

WAVELENGTHS = [1.5e-6, 1.55e-6, 1.6e-6]


class RoundTrip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(base_url(), api_key())
        cls.dir = tempfile.TemporaryDirectory()
        ack = cls.client.submit(small_request(WAVELENGTHS))
        cls.ack = ack
        cls.seen = []
        cls.job = cls.client.wait(ack["job_id"], poll_interval=0.2, progress=cls.seen.append)
        cls.path = cls.client.download(
            ack["job_id"], os.path.join(cls.dir.name, "r.h5"), progress=False
        )

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_submit_wait_download(self):
        self.assertEqual(self.ack["status"], "QUEUED")
        self.assertEqual(self.job["status"], "COMPLETED", self.job.get("error_detail"))
        self.assertEqual(self.seen[-1]["status"], "COMPLETED")
        self.assertTrue(all(j["job_id"] == self.ack["job_id"] for j in self.seen))
        with open(self.path, "rb") as f:
            data = f.read()
        self.assertEqual(hashlib.sha256(data).hexdigest(), self.job["checksum"])
        self.assertEqual(len(data), self.job["result_bytes"])
        self.assertFalse(os.path.exists(str(self.path) + ".part"))

    def test_status_list_estimate_materials(self):
        self.assertEqual(self.client.status(self.ack["job_id"])["checksum"], self.job["checksum"])
        page = self.client.list(limit=1)
        self.assertEqual(len(page["jobs"]), 1)
        self.assertIsNotNone(page["next_cursor"])
        self.assertIn(
            self.ack["job_id"], [j["job_id"] for j in self.client.jobs(status="COMPLETED")]
        )
        estimate = self.client.estimate(small_request())
        self.assertEqual(estimate["interior_grid"], [2, 2, 120])
        self.assertIn("SiO2", [m["name"] for m in self.client.materials()])

    def test_load_xarray(self):
        result = emsim.load(self.path)
        self.assertEqual(result.job_id, self.ack["job_id"])
        self.assertEqual(result.request["source"]["wavelength"], 1.55e-6)
        self.assertIn("steps_run", result.solver)
        ds = result["axis"]
        self.assertIsInstance(ds, xr.Dataset)
        self.assertEqual(dict(ds.sizes), {"wavelength": 3, "x": 1, "y": 1, "z": 100})
        self.assertEqual(ds.Ey.dims, ("wavelength", "x", "y", "z"))
        self.assertEqual(ds.wavelength.values.tolist(), WAVELENGTHS)
        self.assertEqual(ds.z.attrs["units"], "m")
        self.assertEqual(ds.Ey.attrs["units"], "V/m")
        # Physics through the coordinates: |Ey| = 1 and phase slope 2 pi / wavelength.
        for w in WAVELENGTHS:
            ey = ds.Ey.sel(wavelength=w).isel(x=0, y=0)
            inner = ey.where(abs(ey.z) < 1e-6, drop=True)
            self.assertLess(float(abs(abs(inner) - 1).max()), 0.01)
            slope = np.polyfit(inner.z.values, np.unwrap(np.angle(inner.values)), 1)[0]
            self.assertAlmostEqual(slope / (2 * np.pi / w), 1.0, delta=0.005)
        # The same numbers and coordinates as xarray reading the file directly.
        direct = xr.open_dataset(self.path, engine="h5netcdf", group="monitors/axis")
        np.testing.assert_array_equal(ds.Ey.values, direct.Ey.values)
        np.testing.assert_array_equal(ds.z.values, direct.z.values)

    def test_load_numpy(self):
        monitor = emsim.load(self.path, "axis", as_xarray=False)
        self.assertIsInstance(monitor, emsim.Monitor)
        self.assertEqual(monitor["Ey"].shape, (3, 1, 1, 100))
        self.assertEqual(monitor["Ey"].dtype, np.complex64)
        with h5py.File(self.path) as f:
            np.testing.assert_array_equal(monitor.z, f["monitors/axis/z"][...])
            np.testing.assert_array_equal(monitor["Ex"], f["monitors/axis/Ex"][...])
        np.testing.assert_allclose(monitor.wavelength * monitor.frequency, 299792458.0, rtol=1e-12)

    def test_load_flux_spectra(self):
        # A 500 nm glass slab (n = 1.5) between two flux planes: the transmittance and
        # reflectance load as spectra along the wavelength axis, equal to the file's and the
        # job record's, and follow the Airy formula.
        band = {"start": 1.4e-6, "stop": 1.7e-6, "points": 4}
        request = small_request(time_steps=20000)
        request["materials"] = {"glass": {"permittivity": 2.25}}
        request["structures"] = [
            {"type": "box", "center": [0, 0, 0], "size": [1, 1, 0.5e-6], "material": "glass"}
        ]
        plane = {"monitor_type": "flux", "size": [0.05e-6, 0.05e-6, 0], "wavelengths": band}
        request["monitors"] = [
            {**plane, "name": "T", "center": [0, 0, 1.0e-6]},
            {**plane, "name": "R", "center": [0, 0, -0.9e-6]},
        ]
        request["fdtd_settings"]["convergence_threshold"] = 1e-5
        ack = self.client.submit(request)
        job = self.client.wait(ack["job_id"], poll_interval=0.2, progress=False)
        self.assertEqual(job["status"], "COMPLETED", job.get("error_detail"))
        path = self.client.download(
            ack["job_id"], os.path.join(self.dir.name, "flux.h5"), progress=False
        )
        result = emsim.load(path)
        t, r = result["T"], result["R"]
        self.assertEqual(t.flux.dims, ("wavelength",))
        self.assertEqual(t.flux.attrs["units"], "1")
        self.assertEqual(t.attrs["quantity"], "transmittance")
        self.assertEqual(r.attrs["quantity"], "reflectance")
        wavelengths = np.array([1.4e-6, 1.5e-6, 1.6e-6, 1.7e-6])
        np.testing.assert_allclose(t.wavelength.values, wavelengths)
        # Airy: R = F sin²(δ/2) / (1 + F sin²(δ/2)), δ = 4πnd/λ, F = 4R1/(1 − R1)².
        n, d = 1.5, 0.5e-6
        r1 = ((n - 1) / (n + 1)) ** 2
        s2 = np.sin(2 * np.pi * n * d / wavelengths) ** 2
        airy = 4 * r1 / (1 - r1) ** 2 * s2 / (1 + 4 * r1 / (1 - r1) ** 2 * s2)
        np.testing.assert_allclose(r.flux.values, airy, atol=0.005)
        np.testing.assert_allclose(t.flux.values, 1 - airy, atol=0.005)
        with h5py.File(path) as f:
            np.testing.assert_array_equal(t.flux.values, f["monitors/T/flux"][...])
        report = job["solver_report"]["flux"]["T"]["flux"]
        np.testing.assert_allclose(t.flux.values, report, rtol=1e-6)
        numpy_t = emsim.load(path, "T", as_xarray=False)
        np.testing.assert_array_equal(numpy_t["flux"], t.flux.values)
        self.assertEqual(numpy_t.fields, {})
        with self.assertRaisesRegex(KeyError, "monitor 'T' has no 'Ey'; it has flux"):
            numpy_t["Ey"]

    def test_load_single_wavelength_and_bad_input(self):
        # run(): submit, wait and download in one call.
        path = self.client.run(
            small_request(time_steps=3000), os.path.join(self.dir.name, "one.h5"), progress=False
        )
        self.assertEqual(os.path.basename(path), "one.h5")
        ds = emsim.load(path, "axis")
        # One wavelength still has the wavelength dimension here (length 1).
        self.assertEqual(dict(ds.sizes), {"wavelength": 1, "x": 1, "y": 1, "z": 100})
        self.assertEqual(ds.wavelength.values.tolist(), [1.55e-6])
        with self.assertRaisesRegex(KeyError, "no monitor 'nope'.*it has axis"):
            emsim.load(path, "nope")
        with self.assertRaisesRegex(KeyError, "no monitor 'nope'"):
            emsim.load(path)["nope"]
        other = os.path.join(self.dir.name, "other.h5")
        with h5py.File(other, "w") as f:
            f.attrs["format"] = "something else"
        with self.assertRaisesRegex(ValueError, "not an emsim result file"):
            emsim.load(other)


if __name__ == "__main__":
    unittest.main()
