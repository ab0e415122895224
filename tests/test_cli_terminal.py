"""A readable terminal (issue 22): the listings fit 80 columns, estimate leads with the pot
rate, foul risk and points (each with its interval; the rest behind --all), best and the
shot-map summaries give units and sensible rounding as short tables (not a Python dict), a
long shot map says its size and time before it starts, and a Carrooka map from a striker
that lies on the board shows that spot, not a placement that played no part.

The kernel never runs here: estimate, best and the shot map are replaced by stand-ins that
return tables of the real shape."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_run import run

import carromlab.analysis
from carromlab.cli import shots, tables
from carromlab.registry import rules_class, standard_names


@pytest.fixture
def columns80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("args", [["positions", "list"], ["equipment"], ["games"]])
def test_listings_fit_80_columns(capsys, columns80, args):
    code, out, _ = run(capsys, *args)
    assert code == 0 and widest(out) <= 80, widest(out)
    if args[0] == "positions":
        assert all(name in out for name in standard_names())
    if args[0] == "equipment":
        from carromlab.equipment import BOARDS

        for family, cls in BOARDS.items():
            assert family in out
            assert all(row["name"] in out for row in cls().provenance())


# ---------------------------------------------------------------------- estimate


def _estimate_table(n: int = 10_000) -> pd.DataFrame:
    """An ICF estimate's tidy table (the real quantities, made-up numbers)."""
    rules = rules_class("icf")
    ids = ["striker", *(f"w{k}" for k in range(1, 10)), *(f"b{k}" for k in range(1, 10)), "q"]
    pockets = ["pocket.SW", "pocket.SE", "pocket.NE", "pocket.NW"]
    names = [f"capture:{i}" for i in ids] + [f"capture:{i}:{p}" for i in ids for p in pockets]
    names += ["truncated", *rules.probabilities]
    rng = np.random.default_rng(0)
    est = {q: 0.0 for q in names}
    est.update({"capture:w1": 0.412, "capture:b3": 0.031, "capture:striker": 0.06})
    est.update({"continues": 0.405, "foul": 0.061, "foul.striker_pocketed": 0.06})
    rows = [{"quantity": q, "kind": "probability", "estimate": v, "n": n} for q, v in est.items()]
    rows += [
        {"quantity": m, "kind": "mean", "estimate": float(rng.uniform(0, 1)), "n": n}
        for m in rules.means
    ]
    df = pd.DataFrame(rows)
    df.loc[df["quantity"] == "points", "estimate"] = 0.3456
    df["lo"] = df["estimate"] - 0.01
    df["hi"] = df["estimate"] + 0.01
    df["successes"] = -1
    df.attrs["config"] = {"position": "icf-midgame", "variant": "icf", "skill": {"name": "club"}}
    return df


def test_estimate_leads_with_pot_rate_foul_risk_and_points(capsys, columns80, monkeypatch):
    table = _estimate_table()
    monkeypatch.setattr(carromlab.analysis, "estimate", lambda *a, **k: table)
    code, out, _ = run(capsys, "estimate", "--angle", "65.9")
    assert code == 0 and widest(out) <= 80
    lines = [x.strip("│┃ ") for x in out.splitlines() if "│" in x]
    assert lines[0].startswith("pot rate (continues)") and "40.5 %" in lines[0]
    assert "[39.5, 41.5] %" in lines[0]
    assert lines[1].startswith("foul risk (foul)") and "6.1 %" in lines[1]
    assert lines[2].startswith("points") and "0.346" in lines[2] and "[0.336, 0.356]" in lines[2]
    assert lines[3].startswith("w1 pocketed") and lines[4].startswith("b3 pocketed")
    assert len(lines) == 5  # the shooter pocketed is the foul, not a pot
    assert "icf-midgame, club, 10,000 shots" in out
    assert f"{len(table) - 5} more quantities: --all (or --json)" in out
    code, out, _ = run(capsys, "estimate", "--angle", "65.9", "--all")
    assert code == 0 and widest(out) <= 80
    for q in ("foul.break_no_coin", "queen_covered", "own_kept", "board_points_conceded"):
        assert q in out
    assert "more quantities" not in out


# ---------------------------------------------------------------------- best


def _best_table(value: str = "points") -> pd.DataFrame:
    df = pd.DataFrame(
        {
            "rank": [1, 2],
            "placement": [-0.150123456, 0.0918765],
            "angle": [58.0123456, 90.0],
            "speed": [2.0, 3.4567891],
            value: [0.780123456, 0.64],
            f"{value}_lo": [0.636111, 0.502],
            f"{value}_hi": [0.924222, 0.778],
            "n": [2000, 2000],
            "p_truncated": [0.0, 0.0005],
        }
    )
    df.attrs["config"] = {"search_shots": 2630, "search_truncated": 0}
    return df


def test_best_prints_units_and_rounds(capsys, columns80, monkeypatch):
    monkeypatch.setattr(carromlab.analysis, "best_shots", lambda *a, **k: _best_table())
    code, out, _ = run(capsys, "best")
    assert code == 0 and widest(out.split("truncated: ")[0]) <= 80, out
    assert "best points in icf-midgame" in out
    for head in ("placement", "(m)", "angle", "(deg)", "speed", "(m/s)", "95% interval"):
        assert head in out
    assert "p_truncated" in out and "0.05 %" in out
    row = next(x for x in out.splitlines() if x.strip().startswith("1 "))
    for cell in ("-0.150", "58.0", "2.00", "0.780", "[0.636, 0.924]", "2,000"):
        assert cell in row, row
    assert "0.780123" not in out and "58.0123" not in out and "3.46" in out
    assert "truncated: 1 of 4,000 shots (0.03 %) reported; 0 of 2,630" in out


def test_best_from_a_lying_striker_names_its_spot(capsys, columns80, monkeypatch):
    df = _best_table("p_capture:blue")
    monkeypatch.setattr(carromlab.analysis, "best_shots", lambda *a, **k: df)
    args = ["best", "--variant", "carrooka", "--position", "carrooka-midgame"]
    code, out, _ = run(capsys, *args, "--value", "p_capture:blue")
    assert code == 0 and widest(out.split("truncated: ")[0]) <= 80
    assert "from the striker at (0.030, -0.170) m" in out
    assert "placement" not in out
    assert "78.0 %" in out and "[63.6, 92.4] %" in out


# ---------------------------------------------------------------------- shot-map summaries

SUMMARY = {
    "out": "out/demo",
    "cells": 793,
    "shots": 158600,
    "truncated": 2,
    "p_truncated": 2 / 158600,
    "value": "points",
    "best": {"placement": -0.05, "angle": 65.9, "speed": 2.0, "points": 0.41234},
    "best_interval": [0.40012, 0.42456],
}


def _stand_in_map(monkeypatch, summary):
    monkeypatch.setattr(shots, "run_shotmap", lambda *a, **k: dict(summary))


def test_demo_prints_its_summary_as_a_short_table(capsys, columns80, monkeypatch, tmp_path):
    _stand_in_map(monkeypatch, SUMMARY)
    monkeypatch.setattr(shots, "draw_to", lambda pos, output, **k: output)
    code, out, _ = run(capsys, "demo", "--out", str(tmp_path))
    assert code == 0 and widest(out.split("wrote 1")[0]) <= 80
    assert "{" not in out and "'" not in out
    assert "best cell   placement -0.050 m, angle 65.9 deg, speed 2.00 m/s" in out
    assert "points      0.412 [0.400, 0.425]" in out
    assert "shots       158,600" in out and "truncated   2 shots (0.00 %)" in out


def test_a_long_map_says_its_size_and_time_before_it_starts(capsys, monkeypatch, tmp_path):
    line = tables.map_size_line(4096, 2000, cores=2)
    assert line.startswith("shot map: 4,096 cells x 2,000 shots = 8,192,000 shots: about ")
    assert "on this machine (2 cores at 400-5,000 shots/s" in line
    assert tables.map_size_line(13 * 5, 8, cores=2) is None  # a short map says nothing
    _stand_in_map(monkeypatch, SUMMARY)
    monkeypatch.setenv("CARROMLAB_CORES", "2")
    grid = ["--placements=-0.18:0.18:64", "--angles", "30:150:64", "--n", "2000"]
    code, _, err = run(capsys, "shotmap", *grid, "--out", str(tmp_path))
    assert code == 0
    assert "shot map: 4,096 cells x 2,000 shots = 8,192,000 shots: about 27 min to 5.7 h" in err
    code, _, err = run(capsys, "shotmap", "--n", "8", "--out", str(tmp_path))
    assert code == 0 and "cells x" not in err


def test_a_carrooka_map_from_the_striker_shows_its_spot(capsys, columns80, monkeypatch, tmp):
    summary = {**SUMMARY, "best": {"placement": -90.0, "angle": 145.0, "speed": 2.0, "points": 2}}
    _stand_in_map(monkeypatch, summary)
    args = ["shotmap", "--variant", "carrooka", "--striker", "0.05,-0.25", "--out", str(tmp)]
    code, out, _ = run(capsys, *args)
    assert code == 0 and widest(out) <= 80
    assert "striker at (0.050, -0.250) m, angle 145.0 deg, speed 2.00 m/s" in out
    assert "placement" not in out and "-90" not in out
    code, out, _ = run(capsys, *args, "--json")
    best = json.loads(out)["best"]
    assert best["striker"] == [0.05, -0.25] and "placement" not in best
    # from the break line (no striker on the board) the placement is the spot: in degrees
    code, out, _ = run(capsys, *args[:3], "--out", str(tmp))
    assert "placement -90.0 deg" in out


@pytest.fixture
def tmp(tmp_path):
    return tmp_path
