"""Candidate shots: geometry only, checked by simulating them without noise."""

import numpy as np

from carromlab.analysis import evaluate_cells
from carromlab.analysis.candidates import candidate_shots
from carromlab.analysis.variants import analysis_for
from carromlab.registry import standard_position


def test_candidates_pocket_their_coin_when_played_exactly():
    pos = standard_position("icf-midgame")
    df = candidate_shots(pos)
    va = analysis_for("icf")
    assert len(df) > 50
    assert va.legal_placement(pos.board, df["placement"]).all()
    assert (df["cut"] <= 70).all() and (df["speed"] > 0).all()
    # the mid-game position's designed cut is among them (w1 into the NE pocket)
    w1 = df[(df.piece == "w1") & (df.pocket == "pocket.NE") & (df.kind == "direct")]
    assert ((w1.angle - 65.9).abs() < 2.0).any()
    ids = tuple(p.id for p in pos.pieces)
    cells = list(zip(df.placement, df.angle, df.speed))
    res = evaluate_cells(pos, cells, skill="exact", n=1, pieces=ids, per_pocket=True)
    hit = np.array([res.loc[i, f"p_capture:{df.piece[i]}:{df.pocket[i]}"] for i in range(len(df))])
    direct = (df.kind == "direct").to_numpy()
    assert hit[direct].mean() >= 0.95
    assert hit[~direct].mean() >= 0.7
