"""The touching-cluster validation (experiments/validate_clusters.py; docs/validation.md,
"Touching clusters (the cluster contact model)"): its core function in quick mode on the
3-coin touching triangle struck straight up the middle at 3 m/s.

Tolerances, from the documented run (2026-12-01, 2-core CPU):

- the kernel's triangle ends as a mirror image to 0.04 mm (float32): 0.1 mm here, as in
  tests/test_kernel_cluster.py;
- the kernel against the float64 reference (the same model): 2.3 mm (the kernel's 8 steps a
  half-period against the reference's 100, docs/physics.md): 3 mm here;
- pymunk stops changing (0.060 mm from DT to DT/2, 0.027 mm from DT/2 to DT/4; 0.000 mm with
  100 solver iterations instead of 20) and is a mirror image to 1e-4 mm;
- the kernel and the converged peer do *not* agree: their ends are 319.2 mm apart (the
  compliant cluster model against pymunk's rigid impulses; 219.7 mm with the cluster opened
  by 1 nm). The test pins that documented difference to 319 +- 10 mm, so a change of either
  engine's cluster physics shows up here (the run-to-run spread of this figure over the
  steps DT .. DT/4 is 0.05 mm).
"""

from __future__ import annotations

import pytest
from experiment_loader import load_experiment

pytest.importorskip("pymunk")

#: The documented difference between the kernel's and the converged peer's ends (mm).
KERNEL_VS_PEER_MM = 319.2


def _load():
    return load_experiment("validate_clusters")


@pytest.fixture(scope="module")
def triangle():
    mod = _load()
    quick = {k: v for k, v in mod.QUICK.items() if k != "n"}
    quick["with_reference"] = True  # 2 s: the kernel against its own model in float64
    return mod, mod.compare_cluster("triangle", **quick)


def test_the_kernel_breaks_the_triangle_as_a_mirror_image_of_the_reference(triangle):
    _, res = triangle
    (row,) = res["summary"]
    assert not row["kernel_truncated"] and not row["reference_truncated"]
    assert row["kernel_captures"] == row["reference_captures"] == "-"
    assert row["kernel_asym_mm"] <= 0.1  # 1e-4 m
    assert row["reference_asym_mm"] <= 0.1
    assert row["kernel_vs_reference_mm"] <= 3.0


def test_the_peer_converges_to_a_mirror_image(triangle):
    mod, res = triangle
    (row,) = res["summary"]
    steps = res["convergence"]
    assert [r["dt"] for r in steps] == [mod.DT, mod.DT / 2, mod.DT / 4]
    assert all(r["change_mm"] <= 1e3 * mod.TOL_M for r in steps[1:])
    assert row["peer_converged"]
    assert row["peer_captures"] == "-"
    assert row["peer_asym_mm"] <= 0.1


def test_kernel_and_peer_differ_by_the_documented_amount(triangle):
    _, res = triangle
    (row,) = res["summary"]
    assert row["kernel_vs_peer_mm"] == pytest.approx(KERNEL_VS_PEER_MM, abs=10.0)
