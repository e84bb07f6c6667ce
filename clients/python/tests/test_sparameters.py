"""S-parameters against a real server: a straight two-port slab guide (the same job as
test/helpers/simulations.ts) run for real. ``client.sparameters`` gives the record's matrix
(|S21|^2 ~ 1, |S11|^2 ~ 0: a straight guide transmits everything) and the server's Touchstone
text; ``emsim.load(path).s_matrix`` is ``S(port_out, port_in, wavelength)`` equal to it, with
NaN in the column of an input not run; ``emsim.to_touchstone`` writes the server's file from it
(same layout, numbers within the record's 8 digits). Without a server: the layout for 3 ports
(row by row, four pairs per line, frequency ascending) and the refusals."""

import os
import tempfile
import unittest

import numpy as np
import xarray as xr

import emsim
from support import api_key, base_url

C = 299_792_458.0


def two_port_waveguide(run_ports=None):
    """Eps 4 in eps 2.1025, 0.6 um wide, along z in a 2-D cross-section; ports o1 (into +z)
    and o2 (into -z); 1.5-1.6 um. Two runs of about two seconds each."""

    def port(name, z, direction):
        return {
            "name": name,
            "center": [0, 0, z],
            "size": [3e-6, 0.025e-6, 0],
            "direction": direction,
        }

    source = {
        "source_type": "ports",
        "wavelength": 1.55e-6,
        "wavelengths": {"start": 1.5e-6, "stop": 1.6e-6, "points": 3},
    }
    if run_ports:
        source["run_ports"] = run_ports
    return {
        "solver": "fdtd",
        "domain": {
            "size": [3.6e-6, 0.025e-6, 4e-6],
            "resolution": 0.025e-6,
            "boundary_conditions": ["pml", "periodic", "pml"],
        },
        "materials": {"core": {"permittivity": 4}, "clad": {"permittivity": 2.1025}},
        "source": source,
        "ports": [port("o1", -1.4e-6, "+z"), port("o2", 1.4e-6, "-z")],
        "structures": [
            {"type": "box", "center": [0, 0, 0], "size": [10, 10, 10], "material": "clad"},
            {"type": "box", "center": [0, 0, 0], "size": [0.6e-6, 10, 10], "material": "core"},
        ],
        # A mode monitor of the request's own, recorded in each run as mid@<input>.
        "monitors": [
            {
                "name": "mid",
                "monitor_type": "mode",
                "center": [0, 0, 0],
                "size": [3e-6, 0.025e-6, 0],
                "wavelengths": [1.5e-6, 1.55e-6, 1.6e-6],
                "mode_spec": {"num_modes": 2},
            }
        ],
        "fdtd_settings": {"convergence_threshold": 1e-6, "check_every_n": 500},
    }


def data_rows(text):
    """The Touchstone file's option line and its numbers, one list per frequency."""
    lines = [l for l in text.splitlines() if l and not l.startswith("!")]
    rows = []
    for line in lines[1:]:
        values = [float(v) for v in line.split()]
        if len(values) % 2 == 1:  # a new frequency: f, then pairs
            rows.append(values)
        else:
            rows[-1].extend(values)
    return lines[0], rows


class SParameters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(base_url(), api_key())
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = cls.client.run(
            two_port_waveguide(), os.path.join(cls.dir.name, "ports.h5"), progress=False
        )
        cls.job_id = emsim.load(cls.path).job_id

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_the_record_as_a_dict_and_as_touchstone(self):
        sm = self.client.sparameters(self.job_id)
        self.assertEqual(sm["ports"], ["o1@0", "o2@0"])
        self.assertEqual(sm["inputs"], ["o1@0", "o2@0"])
        for k in range(3):
            s21 = complex(*sm["s"][1][0][k])
            s11 = complex(*sm["s"][0][0][k])
            self.assertAlmostEqual(abs(s21) ** 2, 1, delta=1e-3)
            self.assertLess(abs(s11) ** 2, 1e-4)
        text = self.client.sparameters(self.job_id, format="touchstone")
        self.assertIn("# HZ S RI R 50", text)
        with self.assertRaises(ValueError):
            self.client.sparameters(self.job_id, format="csv")

    def test_load_gives_S_as_a_data_array(self):
        S = emsim.load(self.path).s_matrix
        self.assertIsInstance(S, xr.DataArray)
        self.assertEqual(S.dims, ("port_out", "port_in", "wavelength"))
        self.assertEqual(list(S.port_out.values), ["o1@0", "o2@0"])
        self.assertEqual(S.attrs["inputs"], ["o1@0", "o2@0"])
        sm = self.client.sparameters(self.job_id)
        np.testing.assert_allclose(S.wavelength.values, sm["wavelengths_m"], rtol=1e-7)
        np.testing.assert_allclose(S.frequency.values, C / S.wavelength.values, rtol=1e-9)
        record = np.array(sm["s"], dtype=float)  # (out, in, wavelength, re/im)
        np.testing.assert_allclose(S.values, record[..., 0] + 1j * record[..., 1], atol=1e-7)
        np.testing.assert_allclose(S.n_eff.values, sm["n_eff"], rtol=1e-7)
        s21 = S.sel(port_out="o2@0", port_in="o1@0")
        self.assertTrue(bool((abs(s21) ** 2 > 0.999).all()))
        numpy_only = emsim.load(self.path, as_xarray=False).s_matrix
        self.assertIsInstance(numpy_only, emsim.SMatrix)
        np.testing.assert_array_equal(numpy_only.S, S.values)

    def test_a_mode_monitor_loads_as_amplitudes(self):
        # The request's own mode monitor, per run: from o1 all of the power travels along +z
        # in mode 0; from o2 along -z.
        result = emsim.load(self.path)
        self.assertIn("mid@o1@0", result)
        mid = result["mid@o1@0"]
        self.assertEqual(mid.amps.dims, ("direction", "wavelength", "mode_index"))
        np.testing.assert_allclose(mid.power.sel(direction="+", mode_index=0), 1, atol=1e-3)
        self.assertTrue(bool((mid.power.sel(direction="-") < 1e-4).all()))
        back = result["mid@o2@0"]
        np.testing.assert_allclose(back.power.sel(direction="-", mode_index=0), 1, atol=1e-3)
        self.assertTrue(bool((mid.n_eff.sel(mode_index=0) > 1.45).all()))
        numpy_only = emsim.load(self.path, "mid@o1@0", as_xarray=False)
        self.assertIsInstance(numpy_only, emsim.ModeAmplitudes)
        self.assertEqual(numpy_only.amps.shape, (2, 3, 2))

    def test_to_touchstone_writes_the_servers_file(self):
        S = emsim.load(self.path).s_matrix
        path = emsim.to_touchstone(S, os.path.join(self.dir.name, "device.s2p"))
        with open(path, encoding="utf-8") as f:
            mine = f.read()
        server = self.client.sparameters(self.job_id, format="touchstone")
        # The same text, title and digits included, from the file as from the job record.
        self.assertEqual(mine, server)
        _, rows = data_rows(mine)
        self.assertEqual(len(rows), 3)
        with self.assertRaisesRegex(ValueError, r"\.s2p"):
            emsim.to_touchstone(S, os.path.join(self.dir.name, "device.s4p"))

    def test_an_input_not_run_is_nan_and_0_in_touchstone(self):
        path = self.client.run(
            two_port_waveguide(["o1"]), os.path.join(self.dir.name, "half.h5"), progress=False
        )
        S = emsim.load(path).s_matrix
        self.assertEqual(S.attrs["inputs"], ["o1@0"])
        self.assertTrue(bool(np.isnan(S.sel(port_in="o2@0")).all()))
        self.assertFalse(bool(np.isnan(S.sel(port_in="o1@0")).any()))
        text = emsim.touchstone_text(S)
        self.assertIn("! not run (their columns are 0): o2@0", text)
        _, rows = data_rows(text)
        for row in rows:  # f, S11, S21, S12 = 0, S22 = 0
            self.assertEqual(row[5:9], [0, 0, 0, 0])
            self.assertGreater(row[3] ** 2 + row[4] ** 2, 0.999)


class TouchstoneLayout(unittest.TestCase):
    """Three ports, inputs a and c run, wavelengths longest first."""

    def setUp(self):
        ports = ["a@0", "b@0", "c@0"]
        wavelengths = np.array([1.6e-6, 1.5e-6])
        values = np.arange(18, dtype=float).reshape(3, 3, 2) + 1j
        values[:, 1, :] = np.nan  # b was not run
        self.S = xr.DataArray(
            values,
            dims=("port_out", "port_in", "wavelength"),
            coords={"port_out": ports, "port_in": ports, "wavelength": wavelengths},
        )

    def test_a_row_a_line_frequency_ascending(self):
        lines = emsim.touchstone_text(self.S, "three").splitlines()
        self.assertEqual(lines[0], "! three")
        self.assertEqual(lines[1], "! ports: 1 = a@0, 2 = b@0, 3 = c@0")
        self.assertIn("! not run (their columns are 0): b@0", lines)
        data = lines[lines.index("# HZ S RI R 50") + 1 :]
        self.assertEqual(len(data), 6)  # 2 frequencies x 3 rows
        first = [float(v) for v in data[0].split()]
        self.assertAlmostEqual(first[0] / (C / 1.6e-6), 1, places=9)  # the lower frequency
        # Row by row at 1.6 um (index 0): S11 = 0+1j, S12 = 0 (not run), S13 = 4+1j.
        self.assertEqual(first[1:], [0, 1, 0, 0, 4, 1])
        self.assertEqual(data[0].split()[1], "0.0000000e+0")  # 8 digits, as the server
        self.assertEqual([float(v) for v in data[1].split()], [6, 1, 0, 0, 10, 1])  # row 2
        self.assertEqual([float(v) for v in data[2].split()], [12, 1, 0, 0, 16, 1])  # row 3
        self.assertEqual(data[3].split()[0], "1.998616387e+14")  # c / 1.5 um, JS-style exponent

    def test_columns_port_symmetries_filled_are_named_as_the_server_names_them(self):
        S = self.S.copy()
        S.values[:, 1, :] = 7 + 0j  # b not run, its column filled from a symmetry
        S.attrs["inputs"] = ["a@0", "c@0"]
        lines = emsim.touchstone_text(S).splitlines()
        self.assertIn("! not run, filled from port_symmetries: b@0", lines)
        self.assertFalse(any("their columns are 0" in line for line in lines))
        S.values[0, 1, :] = np.nan
        self.assertIn(
            "! not run, partly filled from port_symmetries (the other entries are 0): b@0",
            emsim.touchstone_text(S).splitlines(),
        )
        S.attrs["job_id"] = "j-1"
        self.assertEqual(emsim.touchstone_text(S).splitlines()[0], "! emsim S-parameters of job j-1")

    def test_transposed_input_and_refusals(self):
        same = emsim.touchstone_text(self.S.transpose("wavelength", "port_in", "port_out"))
        self.assertEqual(same, emsim.touchstone_text(self.S))
        with self.assertRaises(TypeError):
            emsim.touchstone_text(xr.DataArray(np.zeros(3), dims=("wavelength",)))
        other = self.S.assign_coords(port_in=["x", "y", "z"])
        with self.assertRaises(ValueError):
            emsim.touchstone_text(other)


if __name__ == "__main__":
    unittest.main()
