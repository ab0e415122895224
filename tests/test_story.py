"""The shot's story (carromlab/analysis/story.py): what a shot first hits, its likeliest
captures and one typical execution's path, replayed with the recording on.

Cheap by design: a few hundred executions, on the programs the suite compiles anyway (ICF's
and Carrooka's 20-disc runners at the default chunk, and the recording program of
:mod:`carromlab.analysis.executions`, one per board)."""

import dataclasses
import json
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

import carromlab as cl
from carromlab.analysis.results import read_parquet
from carromlab.analysis.story import ShotStory, percent, shot_story
from carromlab.errors import CarromlabError
from carromlab.registry import get_game, standard_position
from carromlab.reports import BestShotsReport, ShotMapReport
from tests.cli_run import run

#: The straight pot: the striker at the baseline's middle, w3 moved onto the line from there
#: to the NE pocket, 0.3 m short of the pocket, the rest of the mid-game where it lies.
SPOT = (0.0, -0.2526)
POCKET = "pocket.NE"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def midgame():
    return standard_position("icf-midgame")


@pytest.fixture(scope="module")
def straight(midgame):
    """(position, shot, pocket centre): a shot that pots w3 in the NE pocket nearly always."""
    pocket = next(c for c in midgame.board.layout.captures if c.name == POCKET)
    p, s = np.array([pocket.x, pocket.y]), np.array(SPOT)
    u = (p - s) / np.linalg.norm(p - s)
    c = p - 0.3 * u
    pieces = tuple(
        dataclasses.replace(q, x=float(c[0]), y=float(c[1])) if q.id == "w3" else q
        for q in midgame.pieces
    )
    pos = midgame.replace(pieces=pieces, name="straight-pot")
    assert pos.validate() == []
    return pos, cl.Shot(*SPOT, math.atan2(u[1], u[0]), 1.5), pocket


@pytest.fixture(scope="module")
def straight_story(straight):
    pos, shot, _ = straight
    return shot_story(pos, shot, skill="expert", n=256, seed=0)


def test_a_straight_pot_tells_its_coin_its_pocket_and_ends_there(straight, straight_story):
    _, _, pocket = straight
    st = straight_story
    assert isinstance(st, ShotStory) and st.n == 256
    assert st.first_hit == "w3" and st.p_first_hit > 0.99 and not st.rebound
    assert st.outcome == (("w3", POCKET),) and st.p_outcome > 0.85
    assert st.reproduced and st.typical_first_hit == "w3"
    assert st.text() == f"first hits w3 ({percent(st.p_first_hit)}); likeliest: w3 into " + (
        f"{POCKET} ({percent(st.p_outcome)})"
    )
    # the typical execution: the shooter's path from its spot, w3's into the pocket
    assert set(st.paths) >= {"striker", "w3"} and st.captured == {"w3": POCKET}
    xs, ys = st.paths["striker"]
    assert (xs[0], ys[0]) == pytest.approx(st.shooter_start)
    assert st.shooter_start == pytest.approx(SPOT, abs=0.01)
    wx, wy = st.paths["w3"]
    assert math.hypot(wx[-1] - pocket.x, wy[-1] - pocket.y) <= pocket.radius + 1e-4
    assert math.hypot(wx[0] - pocket.x, wy[0] - pocket.y) == pytest.approx(0.3, abs=1e-6)
    # every outcome seen, likeliest first, summing to one
    assert st.outcomes[0] == (st.outcome, st.p_outcome)
    assert sum(p for _, p in st.outcomes) == pytest.approx(1.0)
    assert [p for _, p in st.outcomes] == sorted((p for _, p in st.outcomes), reverse=True)


def test_a_story_is_told_from_the_estimates_own_executions(straight, straight_story):
    """Key id 0 and the seed: the executions of an estimate with that seed, shot for shot."""
    pos, shot, _ = straight
    df = cl.estimate(pos, shot, skill="expert", n=256, seed=0)
    p = df.set_index("quantity").loc[f"capture:w3:{POCKET}", "estimate"]
    told = sum(q for o, q in straight_story.outcomes if ("w3", POCKET) in o)
    assert told == pytest.approx(p, abs=1e-12)


def test_the_story_does_not_depend_on_the_order_of_the_pieces(midgame):
    """The demo's best aim (x +0.03 m, 142 deg): a thin cut on b3 that pots w4 in the NW
    pocket; the same story with the pieces listed backwards."""
    shot = cl.Shot(0.03, SPOT[1], math.radians(142.0), 2.0)
    a = shot_story(midgame, shot, n=256, seed=1)
    backwards = midgame.replace(pieces=tuple(reversed(midgame.pieces)))
    b = shot_story(backwards, shot, n=256, seed=1)
    assert a.first_hit == b.first_hit == "b3"
    assert a.outcome == b.outcome == (("w4", "pocket.NW"),)
    assert (a.p_first_hit, a.p_outcome, a.execution) == (b.p_first_hit, b.p_outcome, b.execution)
    assert a.outcomes == b.outcomes and a.reproduced and b.reproduced
    assert set(a.paths) == set(b.paths)
    for pid, (xs, ys) in a.paths.items():
        np.testing.assert_allclose(b.paths[pid][0], xs, atol=1e-6)
        np.testing.assert_allclose(b.paths[pid][1], ys, atol=1e-6)


def test_a_carrooka_bank_tells_and_draws_its_rebound(tmp_path):
    """Carrooka's striker where it lies, aimed into the rail: it first hits r1 after the
    rebound, and the typical path goes out to the rail and back."""
    game = get_game("carrooka")
    options = {o.key: o.default for o in game.shot_options}
    pos = game.shot_position(standard_position("carrooka-midgame"), options)
    st = shot_story(pos, cl.Shot(0.03, -0.17, math.radians(270.0), 3.0), n=128, seed=0)
    assert st.first_hit == "r1" and st.rebound and st.reproduced
    assert "first hits r1 after a rebound" in st.text()
    xs, ys = st.paths["striker"]
    rail = pos.board.layout.rails[0].radius
    radius = pos.board.piece_specs()["striker"].radius
    turn = int(np.argmax(np.hypot(xs, ys)))
    assert math.hypot(xs[turn], ys[turn]) == pytest.approx(rail - radius, abs=1e-4)
    assert ys[turn] < -0.3 and ys[-1] > ys[turn] + 0.1  # out to the rail, then back up
    assert "r1" in st.paths
    # drawn: the board, the paths, the sentence as the title
    drawn = cl.draw_story(pos, st)
    ax = drawn[0].axes
    gids = {line.get_gid() for line in drawn}
    assert {"story:striker", "story:r1"} <= gids
    assert ax.get_title().replace("\n", " ").replace("\u00a0", " ") == st.text()
    ax.figure.savefig(tmp_path / "story.png")


def test_kooba_has_no_story_and_bad_input_is_one_line(straight):
    pos, shot, _ = straight
    kooba = standard_position("kooba-opening")
    with pytest.raises(CarromlabError, match="no shot story in 'kooba'"):
        shot_story(kooba, shot, n=8)
    with pytest.raises(CarromlabError, match="positive"):
        shot_story(pos, dataclasses.replace(shot, speed=-1.0), n=8)
    other = cl.ShotRunner(standard_position("icf-midgame"))
    with pytest.raises(CarromlabError, match="other pieces"):
        shot_story(pos.replace(pieces=pos.pieces[1:]), shot, n=8, runner=other)


def test_the_shot_maps_best_cell_tells_its_story(straight, tmp_path):
    """The map's best cell (the second: key id 1) told from its own executions, in the
    summary, the configuration (read back) and on the board panel."""
    pos, shot, _ = straight
    aim = math.degrees(shot.angle)
    report = ShotMapReport.run(pos, [0.0], [aim - 20.0, aim], [1.5], skill="expert", n=64)
    st = report.story
    assert st is not None and st.key_id == 1 and st.first_hit == "w3"
    summary = report.summary()
    assert summary["best"]["angle"] == pytest.approx(aim) and summary["story"] == st.text()
    # the cell's own 64 executions come first: told from them alone, its capture chance
    cell = report.table.iloc[1]
    own = report.tell(n=64)
    told = sum(q for o, q in own.outcomes if ("w3", POCKET) in o)
    assert told == pytest.approx(cell[f"p_capture:w3:{POCKET}"], abs=1e-12)
    report.save(tmp_path)
    back = ShotMapReport.from_table(read_parquet(tmp_path / "shotmap.parquet"), pos)
    assert back.summary()["story"] == own.text() and back.story is None
    board = [ax for ax in report.figure().axes if ax.get_label() != "<colorbar>"][1]
    assert "story:w3" in {line.get_gid() for line in board.lines}
    assert "best cell: first hits w3" in board.get_title().replace("\u00a0", " ")


def test_best_prints_each_shots_story_and_draws_the_best_ones_path(capsys, midgame):
    args = ["best", "--n-grid", "2", "--iterations", "1", "--population", "8", "--n-cem", "4"]
    args += ["--top", "2", "--n", "64", "--speeds", "2.0"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    lines = [x for x in out.splitlines() if x.startswith(("1: ", "2: "))]
    assert len(lines) == 2 and all("likeliest: " in x for x in lines), out
    code, out, err = run(capsys, *args, "--json")
    rows = json.loads(out)["rows"]
    assert [r["story"].startswith(("first hits", "hits no piece")) for r in rows] == [True] * 2
    assert lines[0] == f"1: {rows[0]['story']}"
    report = BestShotsReport.run(
        midgame, n_grid=2, iterations=1, population=8, n_cem=4, top=2, n=64, speeds=(2.0,)
    )
    assert report.summary()["rows"] == rows  # the same search, the same stories
    assert len(report.stories) == 2 and report.stories[0].text() == rows[0]["story"]
    assert all(s.reproduced and s.n == 64 for s in report.stories)
    ax = report.figure().axes[0]
    assert "story:striker" in {line.get_gid() for line in ax.lines}
