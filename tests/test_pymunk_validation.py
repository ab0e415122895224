"""The kernel against pymunk (carromlab/bench/pymunk_peer.py), an engine written elsewhere:
single shots where both must agree on every board primitive (straight cushions and pockets,
pegs, static rings, the centre hole's skip speed, the circular rail), and the plumbing of the
validation table (carromlab/bench/validation.py, docs/validation.md) on a tiny run.

Tolerances: pymunk steps time (5e-5 s by default) and finds a contact only once the discs
overlap, so its final places differ from the kernel's exact ones by up to a few tenths of a
millimetre on these shots (measured: 0.005-0.41 mm); each tolerance below is about twice
to three times the measured difference, far below what a wrong restitution or a wrong normal
would give (centimetres).
"""

from __future__ import annotations

import math

import jax
import numpy as np
import pytest
from disc_helpers import make_pieces

pytest.importorskip("pymunk")

from carromlab.bench.pymunk_peer import simulate_pymunk
from carromlab.bench.validation import (
    Z_AGREE,
    case_named,
    compare_case,
    labelling,
    markdown,
    two_sample,
)
from carromlab.equipment import CarrookaBoard, CrokinoleBoard, IcfBoard
from carromlab.equipment.geometry import Layout
from carromlab.physics import Physics, Table
from carromlab.physics.kernel import Discs, make_simulator

ICF = IcfBoard()
CROK = CrokinoleBoard()
CARROOKA = CarrookaBoard()


def _spec(board, kind):
    s = board.piece_specs()[kind]
    return (s.radius, s.mass, s.material)


def both(table: Table, pieces, physics: Physics = Physics()) -> tuple[dict, dict]:
    """(kernel outcome, pymunk outcome) of one shot, as dicts of numpy arrays."""
    sim = jax.jit(make_simulator(table, pieces.n, 256))
    k = {key: np.asarray(v) for key, v in vars(sim(Discs.from_pieces(pieces), physics)).items()}
    return k, simulate_pymunk(table, pieces, physics)


def gap_mm(k: dict, p: dict, i: int) -> float:
    return 1e3 * math.hypot(float(k["x"][i]) - p["x"][i], float(k["y"][i]) - p["y"][i])


def test_straight_pot_on_an_open_icf_table():
    """Striker straight through a lone coin towards the north-east pocket: both engines pot
    the coin there, leave the striker on the board at the same place (within 0.1 mm; 0.015
    measured) and name the coin as the first piece."""
    table = Table.from_layout(ICF.layout)
    v = 1.3
    u = math.sqrt(0.5)
    pieces = make_pieces(
        [(-0.1, -0.1, v * u, v * u, _spec(ICF, "striker")), (0.15, 0.15, 0, 0, _spec(ICF, "coin"))]
    )
    k, p = both(table, pieces)
    ne = table.capture_names.index("pocket.NE")
    assert int(k["capture"][1]) == ne and int(p["capture"][1]) == ne
    assert int(k["capture"][0]) == -1 and int(p["capture"][0]) == -1
    assert int(k["first_piece"]) == 1 and p["first_piece"] == 1
    assert gap_mm(k, p, 0) < 0.1


def test_peg_bounce_on_the_crokinole_side():
    """A shooting ring glancing off peg 6: both engines call the peg the first contact and
    leave the ring within 1 mm of each other (0.41 measured), with e_post (not e_cushion) on
    the peg: with the peg's restitution swapped for the cushion's in pymunk alone, the places
    part by centimetres."""
    table = Table.from_layout(CROK.layout)
    px, py = CROK.peg_centres()[6]
    a = math.atan2(py + 0.25, px + 0.006)
    v = 1.5
    pieces = make_pieces([(0.0, -0.25, v * math.cos(a), v * math.sin(a), _spec(CROK, "ring"))])
    k, p = both(table, pieces)
    peg6 = table.cushion_names.index("post.6")
    assert int(k["first_contact_kind"]) == 2 and int(k["first_contact"]) == peg6
    assert p["first_contact_kind"] == 2 and p["first_contact"] == peg6
    assert gap_mm(k, p, 0) < 1.0
    wrong = simulate_pymunk(table, pieces, Physics(e_post=Physics().e_cushion))
    assert gap_mm(k, wrong, 0) > 10.0


def test_static_ring_bounce_names_the_ring_first():
    """Ring Pegs' pegged rings are static discs: a shooting ring glancing off one comes away
    the same in both engines (within 1 mm), and both name that ring the first piece."""
    table = Table.from_layout(CROK.layout)
    ring = _spec(CROK, "ring")
    px, py = CROK.peg_centres()[6]
    a = math.atan2(py + 0.25, px - 0.012)
    v = 1.5
    pieces = make_pieces(
        [(0.0, -0.25, v * math.cos(a), v * math.sin(a), ring), (px, py, 0.0, 0.0, ring)],
        static=(1,),
    )
    k, p = both(table, pieces)
    assert int(k["first_piece"]) == 1 and p["first_piece"] == 1
    assert (float(k["x"][1]), float(k["y"][1])) == pytest.approx((px, py))
    assert tuple(p["x"][1:]) == (px,) and tuple(p["y"][1:]) == (py,)
    assert gap_mm(k, p, 0) < 1.0


@pytest.mark.parametrize(
    ("speed", "first_wall"),
    [(1.2, None), (2.0, "segment.2")],
)
def test_hole_skip_speed(speed, first_wall):
    """A ring sent straight over the centre hole: slow, it falls in on the way out; fast
    (above the 1.4 m/s skip speed over the hole), it skips, meets the far frame first and
    falls in on the way back, from the north. Both engines do the same."""
    table = Table.from_layout(CROK.layout)
    pieces = make_pieces([(0.0, -0.2, 0.0, speed, _spec(CROK, "ring"))])
    k, p = both(table, pieces)
    hole = table.capture_names.index("hole")
    assert int(k["capture"][0]) == hole and int(p["capture"][0]) == hole
    names = table.cushion_names
    kfirst = names[int(k["first_contact"])] if int(k["first_contact_kind"]) == 2 else None
    pfirst = names[p["first_contact"]] if p["first_contact_kind"] == 2 else None
    assert kfirst == pfirst == first_wall
    # where it fell in: the hole's south edge going out, its north edge coming back
    assert np.sign(float(k["y"][0])) == np.sign(p["y"][0]) == (1 if first_wall else -1)
    assert gap_mm(k, p, 0) < 0.2


def test_circular_rail_bounce_on_carrooka():
    """A striker off the circular rail at 70 degrees from the normal: the same place in both
    engines within 0.2 mm (0.05 measured). pymunk's rail is a polygon; with the chords' own
    normals instead of the radial one it lands 1.3 mm away here (decimetres after a second
    contact, on the bank shot of the validation table)."""
    table = Table.from_layout(Layout(CARROOKA.layout.surface, rails=CARROOKA.layout.rails))
    a = math.radians(20)
    pieces = make_pieces(
        [(0.0, -0.2, 2.0 * math.cos(a), 2.0 * math.sin(a), _spec(CARROOKA, "striker"))]
    )
    k, p = both(table, pieces)
    assert int(k["first_contact_kind"]) == 2 and p["first_contact_kind"] == 2
    assert table.cushion_names[p["first_contact"]] == "rail.0"
    assert gap_mm(k, p, 0) < 0.2


def test_peer_refuses_contact_friction():
    """The peer's contacts are smooth; a kernel run with contact friction has no counterpart."""
    table = Table.from_layout(ICF.layout)
    pieces = make_pieces([(0.0, 0.0, 1.0, 0.0, _spec(ICF, "coin"))])
    with pytest.raises(ValueError, match="mu_contact"):
        simulate_pymunk(table, pieces, Physics(mu_contact=0.1))


def test_two_sample_criterion():
    diff, se, ok = two_sample(50, 50, 100)
    assert diff == 0 and se == pytest.approx(math.sqrt(2 * 0.25 / 100)) and ok
    diff, se, ok = two_sample(90, 10, 100)
    assert diff == pytest.approx(0.8) and not ok and abs(diff) > Z_AGREE * se
    assert two_sample(0, 0, 10)[2] and not two_sample(0, 10, 10)[2]


def test_comparison_rows_are_well_formed_on_a_tiny_run():
    """compare_case on the Ring Pegs pass with 4 shots: the row holds every figure, the
    deterministic shot agrees (first contact, first piece, captures; 2.8 mm apart after a
    frame and a static-ring bounce), probabilities are probabilities; the labelling check
    finds no effect of the pieces' order where no cluster is struck; the Markdown names
    the case."""
    case = case_named("ring-pegs-pass")
    row = compare_case(case, 4, seed=1)
    assert row["n"] == 4 and row["case"] == case.name
    assert row["det_first_same"] and row["det_captures_same"]
    assert row["det_first_piece_kernel"] == "g2" and row["det_first_kernel"] == "segment.2"
    assert 0.0 <= row["det_pos_max_mm"] < 10.0
    for k in (1, 2):
        for key in ("p_kernel", "p_pymunk"):
            assert 0.0 <= row[f"key{k}_{key}"] <= 1.0
        assert row[f"key{k}_se"] >= 0.0
        assert row[f"key{k}_verdict"] in ("agree", "DIFFERS")
        assert 0 <= row[f"key{k}_discordant_chaotic"] <= row[f"key{k}_discordant"] <= 4
    assert 0.0 <= row["mc_same_captures"] <= 1.0
    assert row["mc_truncated_kernel"] == 0 and row["mc_truncated_pymunk"] == 0
    rows = labelling(case, 4, seed=1, pymunk_n=2)
    kernel = [r for r in rows if r["engine"] == "kernel"]
    assert [r["order"] for r in kernel] == ["original", "reversed", "shuffled"]
    for key in ("key1_p", "key2_p", "captured_mean"):
        assert len({r[key] for r in kernel}) == 1
    text = markdown({"rows": [row], "convergence": [], "labelling": rows})
    assert "ring-pegs-pass" in text and "shooter->hole" in text
