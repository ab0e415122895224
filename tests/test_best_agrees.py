"""``best`` never reports a shot worse than the best cell of the shot map it starts from
(issue 22): a coarse map of the mid-game position and a small search over the same grid."""

from carromlab.analysis import best_shots, shot_map
from carromlab.analysis.shotmap import evaluate_cells
from carromlab.registry import standard_position

#: A coarse map: 4 placements x 13 aims (every 10 deg) at 2 m/s.
GRID = ([-0.15, -0.05, 0.03, 0.12], [30.0 + 10 * k for k in range(13)], [2.0])
SEARCH = dict(
    n_grid=16,
    screen=12,
    n_screen=64,
    starts=3,
    iterations=2,
    population=12,
    n_cem=32,
    top_k=3,
    n_final=400,
)


def test_best_is_at_least_as_good_as_the_maps_best_cell():
    pos = standard_position("icf-midgame")
    common = dict(skill="club", seed=0)  # (every run has the one chunk shape: one program)
    cells = shot_map(pos, *GRID, n=48, **common)
    cell = cells.loc[cells["points"].idxmax()]
    own = dict(zip(("placements", "angles_deg", "speeds"), GRID))
    best = best_shots(pos, map_grid=GRID, **own, **SEARCH, **common)
    top = best.iloc[0]
    assert list(best["rank"]) == [1, 2, 3] and (best["n"] == 400).all()
    # the map's grid is the search's own here: searched once
    assert best.attrs["config"]["grid_cells"] == 4 * 13
    assert best.attrs["config"]["map_grid"] == [[float(v) for v in a] for a in GRID]
    # at least as good as the map's best cell, as the map has it and on fresh keys
    assert top["points_hi"] >= cell["points_lo"]
    where = [tuple(cell[["placement", "angle", "speed"]])]
    again = evaluate_cells(pos, where, n=400, **{**common, "seed": 1}).iloc[0]
    assert top["points_hi"] >= again["points_lo"]
    assert top["points"] >= again["points"] - 0.1
