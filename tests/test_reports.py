"""Reports: a shot map, a best-shot search and an estimate each as one object, with its
table, its summary (what the command line prints), its figure and its files (those the
command line writes: the shot map's the same, table for table, as ``carromlab shotmap``'s)."""

import matplotlib

matplotlib.use("Agg")

import filecmp
import json
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from matplotlib.figure import Figure

import carromlab as cl
from carromlab.analysis.results import read_parquet
from carromlab.errors import CarromlabError
from carromlab.registry import get_game, standard_position
from carromlab.reports import BestShotsReport, EstimateReport, ShotMapReport
from tests.cli_run import run

#: A small map of the mid-game position: 2 placements x 3 angles at 2 m/s, 50 shots a cell.
PLACEMENTS = [-0.05, 0.05]
ANGLES = [60.0, 90.0, 120.0]
SPEEDS = [2.0]
N = 50
MAP_ARGS = ["shotmap", "--position", "icf-midgame", "--placements=-0.05,0.05"]
MAP_ARGS += ["--angles", "60,90,120", "--speeds", "2", "--n", str(N), "--seed", "3"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def midgame():
    return standard_position("icf-midgame")


@pytest.fixture(scope="module")
def shotmap(midgame):
    return ShotMapReport.run(midgame, PLACEMENTS, ANGLES, SPEEDS, n=N, seed=3)


def test_the_reports_are_in_the_curated_api():
    assert cl.ShotMapReport is ShotMapReport
    assert cl.BestShotsReport is BestShotsReport and cl.EstimateReport is EstimateReport
    assert cl.PositionPlot is not None and cl.ColourScale("points").kind == "signed"


def test_shot_map_table_summary_and_figures(shotmap, midgame):
    df = shotmap.table
    assert len(df) == 6 and (df["n"] == N).all()
    assert list(df.columns[:3]) == ["placement", "angle", "speed"]
    assert "p_capture:w1:pocket.NE" in df.columns  # every piece by pocket, for the targets
    assert "points" in shotmap.values() and "points_lo" not in shotmap.values()
    summary = shotmap.summary()
    assert "out" not in summary  # not saved yet
    assert summary["cells"] == 6 and summary["shots"] == 6 * N
    assert summary["truncated"] == 0 and summary["value"] == "points"
    best = df.loc[df["points"].idxmax()]
    assert summary["best"] == {
        "placement": best.placement,
        "angle": best.angle,
        "speed": 2.0,
        "points": best.points,
    }
    assert summary["best_interval"] == [best.points_lo, best.points_hi]
    assert shotmap.placement_unit == "m" and shotmap.truncation.truncated == 0
    fig = shotmap.figure()
    assert isinstance(fig, Figure)
    heat, board = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    assert "icf-midgame" in heat.get_title()
    assert "the best aim\nfrom each placement" in board.get_title()
    meshes = [c for c in heat.collections if hasattr(c, "get_array") and c.norm is not None]
    rays = [c for c in board.collections if c.get_gid() != "outline" and c.get_array() is not None]
    assert meshes[0].norm.vmax == rays[0].norm.vmax  # one colour scale for both panels
    assert len(rays[0].get_segments()) == 2  # one ray per placement
    targets = shotmap.targets
    assert {"piece", "pocket", "p_best", "placement", "angle", "speed"} <= set(targets.columns)
    assert targets.attrs["config"]["kind"] == "target_map"
    assert "white coins" in shotmap.targets_figure().axes[0].get_title()


def test_shot_map_save_writes_what_the_command_line_writes(shotmap, capsys, tmp_path):
    """carromlab shotmap with the same arguments writes the same files: the same tables and
    configuration (bar the folder), the same pictures."""
    cli, lib = tmp_path / "cli", tmp_path / "lib"
    code, out, err = run(capsys, *MAP_ARGS, "--out", str(cli), "--json")
    assert code == 0, err
    written = shotmap.save(lib)
    assert [p.name for p in written] == [
        "shotmap.parquet",
        "shotmap.png",
        "targets.parquet",
        "targets.png",
    ]
    assert sorted(p.name for p in cli.iterdir()) == sorted(p.name for p in lib.iterdir())
    for name in ("shotmap.parquet", "targets.parquet"):
        a, b = pq.read_table(cli / name), pq.read_table(lib / name)
        assert a.equals(b) and a.schema.metadata == b.schema.metadata, name
        pd.testing.assert_frame_equal(read_parquet(cli / name), read_parquet(lib / name))
    for name in ("shotmap.png", "targets.png"):
        assert filecmp.cmp(cli / name, lib / name, shallow=False), name
    # what it prints: the command line's summary, the folder included once saved
    summary = shotmap.summary()
    assert json.loads(out) == {**summary, "out": str(cli)} and summary["out"] == str(lib)
    # its warnings (the best cell on the grid's edge), one line each, printed the same way
    shown = [line.removeprefix("warning: ") for line in err.splitlines()]
    assert shotmap.warnings == [w for w in shown if "grid's edge" in w]
    assert all("\n" not in w for w in shotmap.warnings)


def test_a_table_read_back_makes_the_same_report(shotmap, midgame, tmp_path):
    shotmap.save(tmp_path)
    again = ShotMapReport.from_table(read_parquet(tmp_path / "shotmap.parquet"), midgame)
    assert again.summary() == {k: v for k, v in shotmap.summary().items() if k != "out"}
    pd.testing.assert_frame_equal(again.targets, shotmap.targets)
    with pytest.raises(CarromlabError, match="no column 'p_wobble'"):
        ShotMapReport.from_table(shotmap.table, midgame, value="p_wobble").summary()


def test_edge_warnings_are_collected_not_shown(midgame, recwarn, tmp_path):
    """A map whose best cell lies on the grid's edge: one line in .warnings, none raised."""
    p, a = (g.ravel() for g in np.meshgrid([-0.1, 0.0, 0.1], [60.0, 90.0, 120.0], indexing="ij"))
    df = pd.DataFrame(dict(placement=p, angle=a, speed=2.0, n=10))
    df["points"] = np.where((p == 0.1) & (a == 90.0), 0.9, 0.1)
    df["points_lo"], df["points_hi"] = df["points"] - 0.1, df["points"] + 0.1
    df.attrs["config"] = {"position": "icf-midgame", "variant": "icf", "n": 10}
    report = ShotMapReport.from_table(df, midgame)
    report.figure()
    report.figure()
    assert report.warnings == [
        "best cell on the grid's edge (placement = 0.1, the highest of the grid): the best "
        "shot may lie outside; widen the grid"
    ]
    assert not [w for w in recwarn if "grid's edge" in str(w.message)]
    with pytest.raises(CarromlabError, match="no target map"):
        report.targets_figure()  # no captures by pocket
    written = report.save(tmp_path)
    assert [p.name for p in written] == ["shotmap.parquet", "shotmap.png"]


def test_aims_start_on_the_variants_own_line():
    """A Carroms map's aims start on its shooting line, not at the ICF baselines' height."""
    from carromlab.analysis.variants import analysis_for

    pos = standard_position("carroms-opening")
    p, a = (g.ravel() for g in np.meshgrid([-0.1, 0.0, 0.1], [60.0, 90.0, 120.0], indexing="ij"))
    df = pd.DataFrame(dict(placement=p, angle=a, speed=2.0, n=10, points=0.1 * p + 0.001 * a))
    report = ShotMapReport.from_table(df, pos)
    board = [ax for ax in report.figure().axes if ax.get_label() != "<colorbar>"][1]
    rays = [c for c in board.collections if c.get_gid() != "outline" and c.get_array() is not None]
    line = analysis_for("carroms").shot_y(pos.board)
    assert np.allclose([s[0][1] for s in rays[0].get_segments()], line)
    assert line != pytest.approx(sum(standard_position("icf-midgame").board.baseline_y()) / 2)


def test_a_stored_map_resumes_and_its_cells_go_once_saved(midgame, tmp_path):
    store = tmp_path / "out" / "shotmap.partial"
    report = ShotMapReport.run(midgame, [0.0], [90.0], SPEEDS, n=8, store=store)
    assert store.exists()
    kept = []
    again = ShotMapReport.run(
        midgame, [0.0], [90.0], SPEEDS, n=8, store=store, on_resume=lambda *k: kept.append(k)
    )
    assert kept == [(1, 1)]  # nothing computed again
    pd.testing.assert_frame_equal(again.table, report.table)
    again.save(tmp_path / "out")
    assert not store.exists() and (tmp_path / "out" / "shotmap.parquet").exists()


def test_a_map_too_large_is_refused_before_any_shot(midgame):
    with pytest.raises(CarromlabError, match="cells"):
        ShotMapReport.run(midgame, np.zeros(2000), np.zeros(2000), [1.0, 2.0], n=1)


# ---------------------------------------------------------------------- best shots

BEST = dict(n_grid=2, iterations=1, population=8, n_cem=4, top=3, n=N, speeds=(2.0,))


@pytest.fixture(scope="module")
def best(midgame):
    return BestShotsReport.run(midgame, **BEST)


def test_best_shots_table_summary_figure_and_files(best, midgame, capsys, tmp_path):
    df = best.table
    assert list(df["rank"]) == [1, 2, 3] and (df["n"] == N).all()
    assert best.value == "points" and best.columns[:5] == [
        "rank",
        "placement",
        "angle",
        "speed",
        "points",
    ]
    summary = best.summary()
    assert summary["position"] == "icf-midgame" and summary["placement_unit"] == "m"
    assert summary["origin"] is None and summary["best"] == summary["rows"][0]
    assert [r["rank"] for r in summary["rows"]] == [1, 2, 3]
    assert summary["rows"][0]["points"] >= summary["rows"][-1]["points"]
    assert summary["truncated"]["search"]["truncated"] == 0
    # the rows are those `carromlab best --json` prints
    args = ["best", "--n-grid", "2", "--iterations", "1", "--population", "8", "--n-cem", "4"]
    args += ["--top", "3", "--n", str(N), "--speeds", "2.0", "--json"]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rows"] == summary["rows"] and doc["truncated"] == summary["truncated"]
    fig = best.figure()
    ax = fig.axes[0]
    ranks = {t.get_text() for t in ax.texts if t.get_gid() == "aim-rank"}
    assert "1" in ranks and "best 3 shots" in ax.get_title()
    drawn = best.drawn_rows()
    assert np.allclose(drawn["y0"], sum(midgame.board.baseline_y()) / 2)
    written = best.save(tmp_path)
    assert [p.name for p in written] == ["best.parquet", "best.png"]
    back = read_parquet(tmp_path / "best.parquet")
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs["config"]["kind"] == "best_shots"
    again = BestShotsReport.from_table(back, midgame)
    assert again.summary() == summary
    assert best.save(tmp_path / "bare", figures=False)[0].name == "best.parquet"
    assert not (tmp_path / "bare" / "best.png").exists()


def test_best_shots_from_where_the_striker_lies():
    """Carrooka's striker on the board: one origin, named in the summary; the figure's
    shots all start there and the legend names no placement."""
    game = get_game("carrooka")
    options = {o.key: o.default for o in game.shot_options} | {"striker": "0.05,-0.25"}
    pos = game.shot_position(standard_position("carrooka-midgame"), options)
    cells = pd.DataFrame(
        dict(
            rank=[1, 2],
            placement=[0.0, 0.0],
            angle=[90.0, 330.0],
            speed=[3.0, 4.0],
            x0=[0.05, 0.05],
            y0=[-0.25, -0.25],
            points=[1.0, 0.5],
            points_lo=[0.8, 0.3],
            points_hi=[1.2, 0.7],
            n=[20, 20],
        )
    )
    cells.attrs["config"] = {"value": "points", "position": pos.name, "variant": "carrooka"}
    report = BestShotsReport.from_table(cells, pos)
    summary = report.summary()
    assert summary["origin"] == {"piece": "striker", "at": [0.05, -0.25]}
    assert summary["placement_unit"] == "deg"
    assert "placement" not in report.drawn_rows().columns
    ax = report.figure().axes[0]
    legend = [t.get_text() for a in ax.artists for t in a.get_texts()]
    assert any(t.startswith("1: 1.00 (95 % 0.80 to 1.20), aim 90°") for t in legend)
    with pytest.raises(CarromlabError, match="no column"):
        BestShotsReport.from_table(cells, pos, value="p_foul")


# ---------------------------------------------------------------------- an estimate


@pytest.fixture(scope="module")
def estimate(midgame):
    from carromlab.games.icf.striker import baseline_y

    shot = cl.Shot(x=-0.05, y=baseline_y(midgame.board), angle=math.radians(65.9), speed=2.0)
    return EstimateReport.run(midgame, shot, n=N, seed=1)


def test_estimate_table_summary_figure_and_files(estimate, midgame, tmp_path):
    df = estimate.table
    assert {"quantity", "kind", "estimate", "lo", "hi", "n"} <= set(df.columns)
    assert (df["n"] == N).all()
    summary = estimate.summary()
    assert summary["title"] == f"icf-midgame, club, {N} shots"
    labels = [r["label"] for r in summary["rows"]]
    assert labels[:3] == ["pot rate (continues)", "foul risk (foul)", "points"]
    pots = [lb for lb in labels if lb.endswith("pocketed")]
    assert 1 <= len(pots) <= 3 and "striker pocketed" not in pots
    assert summary["more"] == len(df) - len(labels)
    points = df.set_index("quantity").loc["points"]
    row = summary["rows"][2]
    assert (row["estimate"], row["lo"], row["hi"]) == (points.estimate, points.lo, points.hi)
    chances = estimate.chances()
    assert "striker" not in chances.index and chances["w1"] > 0
    ax = estimate.figure().axes[0]
    assert "one shot played 50 times by a club player" in ax.get_title()
    assert "points: " in ax.get_title()
    assert [p for p in ax.patches if p.get_gid() == "chance:w1"]
    written = estimate.save(tmp_path)
    assert [p.name for p in written] == ["estimate.parquet", "estimate.png"]
    back = read_parquet(tmp_path / "estimate.parquet")
    pd.testing.assert_frame_equal(back, df)
    assert EstimateReport.from_table(back, midgame).summary() == summary


def test_estimate_without_a_position(estimate, tmp_path):
    """A game's own estimate (KOOBA's throws) plays no position: a summary of every
    quantity, a table to write, no figure."""
    tags = pd.DataFrame(
        dict(
            quantity=["eye", "inner_eye"],
            kind="probability",
            estimate=[0.4, 0.1],
            lo=[0.3, 0.05],
            hi=[0.5, 0.2],
            n=100,
        )
    )
    report = EstimateReport.from_table(tags)
    assert [r["label"] for r in report.summary()["rows"]] == ["eye", "inner_eye"]
    assert report.summary()["more"] == 0
    with pytest.raises(CarromlabError, match="position"):
        report.figure()
    assert [p.name for p in report.save(tmp_path)] == ["estimate.parquet"]
