"""The touching-cluster validation (experiments/validate_clusters.py, docs/validation.md,
"Touching clusters"): its core function in quick mode on the 3-coin touching triangle.

Tolerances, from the documented run (2026-12-01): the kernel's triangle ends as a mirror image
to TRIANGLE_ASYM_MEASURED_MM; pymunk's answer stops changing (0.06 mm from DT to DT/2, 0.03
mm from DT/2 to DT/4) at KERNEL_VS_PEER_MEASURED_MM from the kernel's.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("pymunk")

ROOT = Path(__file__).resolve().parents[1]


def _load():
    spec = importlib.util.spec_from_file_location(
        "validate_clusters", ROOT / "experiments" / "validate_clusters.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def triangle():
    mod = _load()
    quick = {k: v for k, v in mod.QUICK.items() if k != "n"}
    return mod, mod.compare_cluster("triangle", **quick)


def test_the_kernel_breaks_the_triangle_as_a_mirror_image(triangle):
    _, res = triangle
    (row,) = res["summary"]
    assert not row["kernel_truncated"]
    assert row["kernel_asym_mm"] <= 0.1  # 1e-4 m


def test_the_peer_converges_and_agrees_with_the_kernel(triangle):
    mod, res = triangle
    (row,) = res["summary"]
    steps = res["convergence"]
    assert [r["dt"] for r in steps] == [mod.DT, mod.DT / 2, mod.DT / 4]
    assert steps[-1]["change_mm"] <= 1e3 * mod.TOL_M  # the peer stopped changing
    assert row["peer_captures"] == row["kernel_captures"] == "-"
    assert row["peer_asym_mm"] <= 0.1
    assert row["kernel_vs_peer_mm"] <= KERNEL_VS_PEER_TOL_MM
