"""Truncated shots (those that hit the kernel's event cap) are counted and reported: one
warning line on stderr from every command that simulates, an error and exit code 3 with
``--strict``, and a count in the summaries of shotmap, best, sweep and play."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from carromlab.analysis.truncation import (
    Truncation,
    search_truncation,
    summary_truncation,
    truncation,
)
from carromlab.cli import TRUNCATED_EXIT
from tests.cli_run import run

#: A Carroms opening shot that reaches the event cap (512) today: from the shooting line at
#: x = -0.139 m, 77.49 degrees, 4.18 m/s, into the exact rack (``--hand-set 0``) at
#: ``--skill exact``, so every execution is the same shot. It needs 1,347 events (it ends
#: under a cap of 4,096); found by running random opening shots as
#: experiments/opening_truncation.py does (docs/validation.md: with club noise and the
#: hand-set rack about one Carroms opening shot in 20,000 truncates). The same shot at
#: 4.19 m/s ends in 90 events or so.
CARROMS = ["--variant", "carroms", "--position", "carroms-opening", "--skill", "exact"]
CARROMS += ["--hand-set", "0", "--placement=-0.139", "--angle", "77.49"]
TRUNCATES = [*CARROMS, "--speed", "4.18"]
ENDS = [*CARROMS, "--speed", "4.19"]


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(("warning:", "error:"))]


def test_the_line_counts_and_formats():
    cut = Truncation(16, 2000)
    assert cut.message() == (
        "16 of 2,000 shots (0.80 %) hit the event cap (truncated); their outcomes are incomplete"
    )
    assert cut.as_dict() == {"truncated": 16, "p_truncated": 0.008}
    assert (cut + Truncation(1, 1000)).counts() == "17 of 3,000 shots (0.57 %)"
    assert Truncation(0, 0).fraction == 0.0
    assert Truncation(2, 40, "strokes").counts() == "2 of 40 strokes (5.00 %)"


def test_counted_from_every_kind_of_table():
    tidy = pd.DataFrame(
        {
            "quantity": ["capture:c1", "truncated"],
            "kind": ["probability"] * 2,
            "n": [50, 50],
            "successes": [3, 2],
        }
    )
    assert truncation(tidy) == Truncation(2, 50)
    cells = pd.DataFrame({"n": [40, 0, 60], "p_truncated": [0.025, np.nan, 0.05]})
    assert truncation(cells) == Truncation(4, 100)  # the illegal cell (n = 0) ran no shot
    games = pd.DataFrame({"strokes": [30, 12], "truncated_strokes": [1, 0]})
    assert truncation(games) == Truncation(1, 42, "strokes")
    assert truncation(pd.DataFrame({"n": [5], "p_eye": [0.2]})) is None  # KOOBA: no cap
    assert summary_truncation({"shots": 400, "truncated": 2}) == Truncation(2, 400)
    assert summary_truncation({"shots": 400}) is None
    best = cells.copy()
    best.attrs["config"] = {"search_shots": 900, "search_truncated": 3}
    assert search_truncation(best) == Truncation(3, 900)


def test_estimate_warns_on_a_carroms_opening_shot_that_truncates(capsys):
    code, out, err = run(capsys, "estimate", *TRUNCATES, "--n", "4", "--json")
    assert code == 0
    rows = {r["quantity"]: r for r in json.loads(out)["rows"]}
    assert rows["truncated"]["successes"] == 4
    line = (
        "warning: 4 of 4 shots (100.00 %) hit the event cap (truncated); "
        "their outcomes are incomplete"
    )
    assert _warnings(err) == [line], err
    # --strict: the same line as an error, the results still printed, and exit code 3
    code, out, err = run(capsys, "estimate", *TRUNCATES, "--n", "4", "--json", "--strict")
    assert code == TRUNCATED_EXIT == 3
    assert json.loads(out)["rows"]
    assert _warnings(err) == [line.replace("warning:", "error:", 1)], err
    assert "Traceback" not in err


def test_no_warning_when_no_shot_truncates(capsys):
    code, out, err = run(capsys, "estimate", *ENDS, "--n", "4", "--json", "--strict")
    assert code == 0, err
    rows = {r["quantity"]: r for r in json.loads(out)["rows"]}
    assert rows["truncated"]["successes"] == 0
    assert _warnings(err) == [], err


def test_shotmap_summary_counts_them(capsys, tmp_path):
    args = ["shotmap", *CARROMS[:8], "--placements=-0.139", "--angles", "77.49"]
    args += ["--speeds", "4.18,4.19", "--n", "3", "--out", str(tmp_path), "--json"]
    args += ["--no-story"]  # (2,000 more executions of a shot that truncates half the time)
    code, out, err = run(capsys, *args)
    assert code == 0
    summary = json.loads(out)
    assert summary["shots"] == 6 and summary["truncated"] == 3
    assert summary["p_truncated"] == 0.5
    assert [w for w in _warnings(err) if "event cap" in w] == [
        "warning: 3 of 6 shots (50.00 %) hit the event cap (truncated); "
        "their outcomes are incomplete"
    ]  # (a one-cell-wide map also warns that its best cell lies on the grid's edge)
    code, _, err = run(capsys, *args, "--strict")
    assert code == 3 and any(w.startswith("error: 3 of 6 shots") for w in _warnings(err))


def test_best_reports_them_per_row_and_for_the_search(capsys, tmp_path):
    args = ["best", *CARROMS[:8], "--n-grid", "1", "--iterations", "1", "--population", "4"]
    args += ["--n-cem", "1", "--top", "1", "--n", "4", "--speeds", "2.0"]
    code, out, err = run(capsys, *args, "--json")
    assert code == 0
    doc = json.loads(out)
    assert "p_truncated" in doc["rows"][0]
    assert doc["truncated"]["reported"] == {"truncated": 0, "p_truncated": 0.0}
    assert doc["truncated"]["search"]["truncated"] == 0
    assert doc["config"]["search_shots"] > 0
    assert _warnings(err) == []
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "p_truncated" in out
    assert "truncated: 0 of 4 shots (0.00 %) reported; 0 of " in out


def test_sweep_summary_counts_them(capsys, tmp_path):
    config = tmp_path / "sweep.toml"
    config.write_text('name = "tiny"\nseed = 1\nn = 4\n[grid]\nvariant = "icf"\nangle = 90.0\n')
    code, out, err = run(capsys, "sweep", str(config), "--out", str(tmp_path / "s"), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["shots"] == 4 and summary["truncated"] == 0
    assert summary["p_truncated"] == 0.0
    assert _warnings(err) == []


def test_play_summary_counts_the_strokes(capsys, tmp_path):
    args = ["play", "--policy", "random", "--games", "1", "--boards", "1", "--seed", "3"]
    code, out, err = run(capsys, *args, "--out", str(tmp_path), "--strict")
    assert code == 0, err
    # the line after "wrote ...", before the results' tables (which count them too)
    lines = out.strip().splitlines()
    line = lines[next(k for k, ln in enumerate(lines) if ln.startswith("wrote ")) + 1]
    assert line.startswith("truncated: 0 of ") and line.endswith(" strokes (0.00 %)")
    assert re.search(r"truncated strokes\s+0\s+0\.00\s+0\.00 % of strokes", out), out
    assert _warnings(err) == []


@pytest.mark.parametrize("command", ["estimate", "shotmap", "best", "play", "sweep", "demo"])
def test_every_simulating_command_has_strict(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--strict" in out
