"""The fabrication calls against a real server: upload a GDS II file written here, check it
against a kit's rules (its 40 nm gap is below siepic_ebeam's 70 nm spacing), override a rule,
ask for a recipe, list the kits, download the stored file back byte for byte, and typed
errors for an unreadable file and an unknown kit."""

import os
import struct
import tempfile
import unittest

import emsim
from support import api_key, base_url


def _record(kind: int, dtype: int, payload: bytes = b"") -> bytes:
    return struct.pack(">HBB", 4 + len(payload), kind, dtype) + payload


def _real8(value: float) -> bytes:
    """GDS II's 8-byte excess-64 base-16 real."""
    if value == 0:
        return bytes(8)
    sign = 0x80 if value < 0 else 0
    value = abs(value)
    exponent = 64
    while value >= 1:
        value /= 16
        exponent += 1
    while value < 1 / 16:
        value *= 16
        exponent -= 1
    mantissa = int(round(value * 2**56))
    return bytes([sign | exponent]) + mantissa.to_bytes(7, "big")


def _text(kind: int, text: str) -> bytes:
    data = text.encode("ascii")
    if len(data) % 2:
        data += b"\0"
    return _record(kind, 6, data)


def two_blocks_gds(gap_nm: int) -> bytes:
    """Two 500 × 500 nm squares on layer 1/0, ``gap_nm`` apart along x (1 nm database unit)."""

    def box(x0: int, y0: int, x1: int, y1: int) -> bytes:
        xy = [x0, y0, x1, y0, x1, y1, x0, y1, x0, y0]
        return (
            _record(0x08, 0)  # BOUNDARY
            + _record(0x0D, 2, struct.pack(">h", 1))  # LAYER
            + _record(0x0E, 2, struct.pack(">h", 0))  # DATATYPE
            + _record(0x10, 3, struct.pack(">10i", *xy))  # XY
            + _record(0x11, 0)  # ENDEL
        )

    stamp = struct.pack(">12h", *([2026, 1, 1, 0, 0, 0] * 2))
    return (
        _record(0x00, 2, struct.pack(">h", 600))  # HEADER
        + _record(0x01, 2, stamp)  # BGNLIB
        + _text(0x02, "PYTEST")  # LIBNAME
        + _record(0x03, 5, _real8(1e-3) + _real8(1e-9))  # UNITS: 1 nm in µm, in m
        + _record(0x05, 2, stamp)  # BGNSTR
        + _text(0x06, "TOP")  # STRNAME
        + box(-500 - gap_nm // 2, 0, -gap_nm // 2, 500)
        + box(gap_nm // 2, 0, 500 + gap_nm // 2, 500)
        + _record(0x07, 0)  # ENDSTR
        + _record(0x04, 0)  # ENDLIB
    )


class Fabrication(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = emsim.Client(base_url(), api_key(), retries=0)
        cls.gds = two_blocks_gds(40)
        cls.uploaded = cls.client.upload_gds(cls.gds)

    def test_upload_reads_the_file(self):
        self.assertEqual(self.uploaded["polygon_count"], 2)
        self.assertEqual(self.uploaded["cells"], ["TOP"])
        self.assertTrue(self.uploaded["gds_url"].startswith("http"))

    def test_drc_finds_the_gap_and_a_rule_overrides_the_kit(self):
        failed = self.client.drc(self.uploaded["gds_url"], "siepic_ebeam")
        self.assertFalse(failed["passed"])
        spacing = [v for v in failed["violations"] if v["rule"] == "min_spacing"]
        self.assertTrue(spacing)
        self.assertAlmostEqual(spacing[0]["actual_nm"], 40, delta=1)
        self.assertEqual(spacing[0]["required_nm"], 70)
        passed = self.client.drc(
            self.uploaded["gds_url"], "siepic_ebeam", rules={"min_spacing_nm": 30}
        )
        self.assertTrue(passed["passed"], passed["summary"])

    def test_recipe_and_kits(self):
        recipe = self.client.recipe("siepic_ebeam", gds_url=self.uploaded["gds_url"])
        self.assertTrue(recipe["steps"])
        self.assertIn("1/0", recipe["layers_used"])
        kits = self.client.pdks()
        self.assertIn("siepic_ebeam", [k["name"] for k in kits])

    def test_download_gives_the_uploaded_bytes(self):
        with tempfile.TemporaryDirectory() as folder:
            path = self.client.download_gds(
                self.uploaded["gds_url"], os.path.join(folder, "chip.gds")
            )
            self.assertEqual(path.read_bytes(), self.gds)
            self.assertFalse(os.path.exists(os.path.join(folder, "chip.gds.part")))

    def test_path_upload_and_typed_errors(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "chip.gds")
            with open(path, "wb") as f:
                f.write(self.gds)
            self.assertEqual(self.client.upload_gds(path)["polygon_count"], 2)
        with self.assertRaises(emsim.ApiError) as bad:
            self.client.upload_gds(b"not a gds file at all")
        self.assertEqual(bad.exception.status, 422)
        self.assertEqual(bad.exception.error_code, "gds_invalid")
        with self.assertRaises(emsim.ApiError) as kit:
            self.client.drc(self.uploaded["gds_url"], "no_such_kit")
        self.assertEqual(kit.exception.status, 422)


if __name__ == "__main__":
    unittest.main()
