"""The command line: every command runs, bad input gives one clear line and a non-zero exit."""

import json
import subprocess
import sys

import pytest
from cli_run import run

from carromlab.position import Position
from carromlab.registry import standard_names


def test_positions_list_names_every_standard_position(capsys):
    code, out, _ = run(capsys, "positions", "list")
    assert code == 0
    for name in standard_names():
        assert name in out


def test_positions_show_prints_loadable_json(capsys):
    code, out, _ = run(capsys, "positions", "show", "icf-opening")
    assert code == 0
    pos = Position.from_json(out)
    assert len(pos.pieces) == 19


def test_validate_ok_and_bad(capsys, tmp_path):
    good = Position.from_json(json.dumps(json.loads(_show("force-out-opening"))))
    good_path = good.save(tmp_path / "good.json")
    data = good.to_dict()
    data["pieces"][0]["x"] = data["pieces"][1]["x"]
    data["pieces"][0]["y"] = data["pieces"][1]["y"]
    bad_path = tmp_path / "bad.json"
    bad_path.write_text(json.dumps(data))
    code, out, err = run(capsys, "validate", str(good_path))
    assert code == 0 and "ok:" in out and "16 pieces" in out
    code, out, err = run(capsys, "validate", str(good_path), str(bad_path))
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert str(bad_path) in lines[0] and "overlaps" in lines[0]


def _show(name):
    from carromlab.registry import standard_position

    return standard_position(name).to_json()


def test_draw_standard_and_file(capsys, tmp_path):
    out_png = tmp_path / "icf.png"
    code, _out, _ = run(capsys, "draw", "icf-opening", "-o", str(out_png))
    assert code == 0 and out_png.stat().st_size > 10_000
    src = Position.from_json(_show("carrooka-opening")).save(tmp_path / "c.json")
    code, _, _ = run(capsys, "draw", str(src), "-o", str(tmp_path / "c.png"), "--labels")
    assert code == 0 and (tmp_path / "c.png").exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["draw", "no-such-position", "-o", "x.png"], "neither a position file"),
        (["draw", "missing.json", "-o", "x.png"], "cannot read"),
        (["positions", "show", "nope"], "unknown standard position"),
        (["equipment", "snooker"], "unknown board family"),
        (["draw", "icf-opening", "-o", "/no/such/dir/x.png"], "folder /no/such/dir does not"),
    ],
)
def test_bad_input_is_one_line(capsys, args, needle):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: ") and needle in err


def test_equipment_json_lists_tagged_constants(capsys):
    code, out, _ = run(capsys, "equipment", "icf", "--json")
    assert code == 0
    rows = json.loads(out)
    names = {r["name"] for r in rows}
    assert {"side", "pocket_diameter", "outer_circle_diameter"} <= names
    assert all(r["tag"] in {"official", "derived", "secondary", "estimate"} for r in rows)


def test_console_script_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    proc = subprocess.run(
        [sys.executable, "-m", "carromlab.cli", "validate", str(bad)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "not valid JSON" in proc.stderr


def test_demo_makes_a_shot_map_and_draws_every_setup(capsys, tmp_path):
    from carromlab.analysis.results import read_parquet

    code, _out, _ = run(capsys, "demo", "--out", str(tmp_path), "--n", "2")
    assert code == 0
    df = read_parquet(tmp_path / "shotmap.parquet")
    assert len(df) == 13 * 61 and df["n"].max() == 2
    assert df.attrs["config"]["position"] == "icf-midgame"
    assert (tmp_path / "shotmap.png").stat().st_size > 20_000
    for name in standard_names():
        assert (tmp_path / f"{name}.png").stat().st_size > 5_000
        assert Position.load(tmp_path / f"{name}.json") is not None


def test_data_positions_match_the_standard_set_ups():
    """data/positions/ holds the standard positions as committed JSON, kept in sync."""
    from pathlib import Path

    from carromlab.registry import standard_position

    folder = Path(__file__).resolve().parents[1] / "data" / "positions"
    for name in standard_names():
        assert Position.load(folder / f"{name}.json") == standard_position(name), name


def test_docs_equipment_page_matches_the_code():
    from pathlib import Path

    from carromlab.cli import equipment_markdown
    from carromlab.equipment import BOARDS

    rows = [{"family": f, **r} for f, cls in BOARDS.items() for r in cls().provenance()]
    page = Path(__file__).resolve().parents[1] / "docs" / "equipment.md"
    assert page.read_text() == equipment_markdown(rows), "run: carromlab equipment --markdown"


def test_estimate_json_is_the_same_for_any_chunk(capsys):
    args = ["estimate", "--position", "icf-midgame", "--placement", "-0.05", "--angle", "65.9"]
    args += ["--speed", "2", "--skill", "club", "--n", "96", "--seed", "4", "--json"]
    code, out1, _ = run(capsys, *args, "--chunk", "32")
    code2, out2, _ = run(capsys, *args, "--chunk", "4096")
    assert code == code2 == 0
    r1, r2 = json.loads(out1), json.loads(out2)
    assert r1["rows"] == r2["rows"]
    rows = {r["quantity"]: r for r in r1["rows"]}
    assert rows["capture:w1"]["n"] == 96
    assert rows["capture:w1"]["lo"] <= rows["capture:w1"]["estimate"] <= rows["capture:w1"]["hi"]
    assert {"points", "continues", "foul.striker_pocketed"} <= set(rows)
    assert r1["config"]["seed"] == 4


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--placement", "0.3"], "not a legal placement"),
        (["--speed", "-2"], "positive"),
        (["--speed", "99"], "--speed 99.0: must be at most 15 m/s"),
        (["--n", "0"], "--n 0: must be at least 1"),
        (["--skill", "legend"], "unknown skill"),
        (["--variant", "carrooka"], "is for variant 'icf'"),
    ],
)
def test_estimate_bad_input_one_line(capsys, args, needle):
    code, _, err = run(capsys, "estimate", "--position", "icf-midgame", "--json", *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_best_json_ranks_shots_with_intervals(capsys, tmp_path):
    args = ["best", "--n-grid", "2", "--iterations", "1", "--population", "8", "--n-cem", "4"]
    args += ["--top", "2", "--n", "50", "--speeds", "2.0", "--json", "--out", str(tmp_path)]
    code, out, _ = run(capsys, *args)
    assert code == 0
    rows = json.loads(out)["rows"]
    assert [r["rank"] for r in rows] == [1, 2]
    assert rows[0]["points"] >= rows[1]["points"]
    assert all(r["points_lo"] <= r["points"] <= r["points_hi"] and r["n"] == 50 for r in rows)
    assert (tmp_path / "best.parquet").exists()


def test_play_writes_one_row_per_board_and_game(capsys, tmp_path):
    from test_play_summary import check_printed

    from carromlab.analysis.results import read_parquet

    args = ["play", "--policy", "random", "--games", "2", "--boards", "1", "--seed", "3"]
    code, out, _ = run(capsys, *args, "--out", str(tmp_path))
    assert code == 0
    assert f"wrote 2 boards and 2 games to {tmp_path}" in out
    boards = read_parquet(tmp_path / "boards.parquet")
    games = read_parquet(tmp_path / "games.parquet")
    assert len(boards) == 2 and len(games) == 2
    assert set(games["winner"]) <= {0, 1}
    assert (games["score_0"] + games["score_1"] == boards["points"]).all()
    assert games.attrs["config"]["policy"] == "random"
    # it ends with the results, read from the rows it wrote
    check_printed(out, games, boards)
    # a rerun with more games resumes: the games already played are kept as they are
    code, out, _ = run(capsys, *args[:4], "3", *args[5:], "--out", str(tmp_path))
    assert code == 0 and "resuming: 2 of 3" in out
    more = read_parquet(tmp_path / "games.parquet")
    assert len(more) == 3 and more.iloc[:2].equals(games)
    # --json: the same results as one JSON object (nothing left to play)
    code, out, _ = run(capsys, *args[:4], "3", *args[5:], "--out", str(tmp_path), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["resumed"] == 3 and doc["wrote"] == {"games": 3, "boards": 3}
    assert doc["games"] == 3 and doc["by"] == "seat" and doc["truncated"] == 0
    for r in doc["by_seat"]:
        assert r["wins"] == (more["winner"] == r["seat"]).sum()
        assert r["score"] == pytest.approx(more[f"score_{r['seat']}"].mean())
    all_boards = read_parquet(tmp_path / "boards.parquet")
    assert doc["boards"]["striker_pocketed"] == all_boards["striker_pocketed"].sum()
    # other options in the same folder are refused
    code, _, err = run(capsys, *args, "--skill", "pro", "--out", str(tmp_path))
    assert code == 2 and "another configuration" in err
    code, _, err = run(capsys, "play", "--policy", "clever", "--out", str(tmp_path))
    assert code == 2 and "unknown policy" in err


# heavy: Carrooka's estimate and map through the command line (tests/test_carrooka_play.py
# checks them in the library)
@pytest.mark.heavy
def test_carrooka_estimate_and_shotmap(capsys, tmp_path):
    """--variant carrooka: the striker where it lies (--striker), the piece on (--nominate);
    bad input is one line."""
    args = ["estimate", "--variant", "carrooka", "--n", "64", "--json"]
    code, out, _ = run(capsys, *args, "--angle", "90", "--speed", "3")
    assert code == 0
    data = json.loads(out)
    assert data["config"]["position"] == "carrooka-opening"
    assert data["config"]["turn"] == {"on": "red", "counter": None}
    assert data["config"]["shot"]["y"] == pytest.approx(-0.12)  # the break line below
    code, out, _ = run(
        capsys, *args, "--position", "carrooka-midgame", "--nominate", "black", "--angle", "0"
    )
    assert code == 0
    assert json.loads(out)["config"]["turn"]["on"] == "black"
    code, _, err = run(capsys, *args, "--nominate", "purple")
    assert code == 2 and "purple" in err and "Traceback" not in err
    code, _, err = run(capsys, *args, "--striker", "0.5,0.5")
    assert code == 2 and "striker" in err
    code, out, _ = run(
        capsys,
        "shotmap",
        "--variant",
        "carrooka",
        "--striker",
        "0.05,-0.25",
        "--angles",
        "60:120:4",
        "--speeds",
        "2,3",
        "--n",
        "8",
        "--json",
        "--out",
        str(tmp_path),
        "--no-story",  # (Carrooka's story: tests/test_story.py; the option is checked here)
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["cells"] == 8 and summary["shots"] == 64
    assert "story" not in summary
    assert (tmp_path / "shotmap.png").exists()


# heavy: Carrooka's play through the command line (the ICF play command and Carrooka's games
# are checked by default)
@pytest.mark.heavy
def test_play_carrooka_writes_one_row_per_game(capsys, tmp_path):
    """`carromlab play --variant carrooka` plays whole games and writes one row per game:
    scores, winner, turns."""
    from carromlab.analysis.results import read_parquet

    args = ["play", "--variant", "carrooka", "--policy", "random", "--games", "2", "--seed", "1"]
    code, out, _ = run(capsys, *args, "--out", str(tmp_path))
    assert code == 0 and "wrote 2 games" in out
    games = read_parquet(tmp_path / "games.parquet")
    assert len(games) == 2 and set(games["game"]) == {0, 1}
    assert {"score_0", "score_1", "winner", "turns_0", "turns_1"} <= set(games.columns)
    assert games["finished"].all()
    assert games.attrs["config"]["variant"] == "carrooka"
    assert games.attrs["config"]["rules"]["bonus_shot"] is True
    code, _, err = run(capsys, *args, "--tie", "coin", "--out", str(tmp_path / "x"))
    assert code == 2 and "tie" in err


def test_carrooka_best_searches_from_where_the_striker_lies(capsys):
    """`best --variant carrooka`: one origin (the striker's spot), aims all round; the best
    shot at the nominated blue pots it most of the time."""
    code, out, _ = run(
        capsys,
        *"best --variant carrooka --position carrooka-midgame --nominate blue --n-grid 8".split(),
        *"--n-cem 8 --population 8 --iterations 1 --n 100 --speeds 1,2 --top 1 --json".split(),
    )
    assert code == 0
    row = json.loads(out)["rows"][0]
    # 100 final shots: the interval is about +-0.5 points wide, so the bar is set below it
    assert 130 < row["angle"] < 160 and row["points"] > 1.8


# Whole games of every variant through `carromlab play` (one row per game with the run's
# configuration, resumable): tests/test_conformance.py, one test over the registry.


def test_estimate_and_shotmap_kooba(capsys, tmp_path):
    """`estimate --variant kooba --aim X,Y`: one aim point's tag probabilities with intervals;
    `shotmap --variant kooba`: an aim map as parquet and a picture; bad input, one line."""
    from carromlab.analysis.results import read_parquet

    args = ["estimate", "--variant", "kooba", "--aim", "0,0", "--n", "500", "--json"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    rows = {r["quantity"]: r for r in json.loads(out)["rows"]}
    assert rows["p_eye"]["estimate"] > 0.9 and rows["p_off"]["estimate"] == 0.0
    assert rows["p_kooba"]["lo"] <= rows["p_kooba"]["estimate"] <= rows["p_kooba"]["hi"]
    far = run(capsys, *args[:4], "0.25,0.25", "--n", "500", "--json")[1]
    far_rows = {r["quantity"]: r for r in json.loads(far)["rows"]}
    assert far_rows["p_eye"]["estimate"] == 0.0 and far_rows["p_penalty"]["estimate"] > 0.5
    sm = ["shotmap", "--variant", "kooba", "--aims", "-0.1:0.1:5", "--n", "50"]
    code, out, _ = run(capsys, *sm, "--out", str(tmp_path), "--value", "p_inner_eye", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["cells"] == 25 and abs(summary["best"]["aim_x"]) <= 0.05
    df = read_parquet(tmp_path / "shotmap.parquet")
    assert len(df) == 25 and df.attrs["config"]["kind"] == "kooba_aim_map"
    assert (tmp_path / "shotmap.png").stat().st_size > 10_000
    code, _, err = run(capsys, *sm, "--out", str(tmp_path), "--value", "points2")
    assert code != 0 and err.count("\n") == 1 and "p_eye" in err
    code, _, err = run(capsys, *args[:4], "0,x")
    assert code != 0 and "--aim must be X,Y" in err
    code, _, err = run(capsys, "estimate", "--aim", "0,0")
    assert code != 0 and "--aim is for kooba" in err


@pytest.mark.parametrize(
    "args, needle",
    [
        (["play", "--variant", "carrooka", "--boards", "3"], "--boards is for icf, not carrooka"),
        (["play", "--variant", "carrooka", "--tie", "sudden"], "--tie (carrooka) must be one of"),
        (["play", "--variant", "circle-scores", "--rounds", "2"], "is for force-out, not circle"),
        (["play", "--variant", "icf", "--boards", "many"], "--boards (icf) must be int"),
        (["play", "--variant", "icf", "--boards"], "--boards needs a value"),
        (["play", "--variant", "kooba", "--policy", "random"], "use greedy"),
        (["play", "--variant", "force"], "unknown game or variant 'force'"),
        (["estimate", "--nominate", "red"], "--nominate is for carrooka, not icf"),
        (["estimate", "--variant", "kooba", "--seat", "X"], "--seat (kooba) must be one of"),
        (["shotmap", "--variant", "icf", "--wobble", "1"], "no such option --wobble"),
    ],
)
def test_game_options_are_checked_before_any_work(capsys, args, needle):
    """Each game's own options come from its description: one line for an option of another
    game, a bad value or an unknown game, before anything is simulated."""
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("error: ") and needle in err, err
    assert len(err.strip().splitlines()) == 1
