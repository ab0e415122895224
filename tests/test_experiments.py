"""The study scripts' summaries (the long runs themselves are experiments, not tests)."""

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "experiments" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_first_break_summary_has_wilson_intervals(tmp_path):
    mod = _load("icf_first_break")
    rows = [
        {
            "skill": "club",
            "board": b,
            "seed": 0,
            "breaker_won": int(b % 4 != 0),
            "points": 3,
            "strokes": 40,
        }
        for b in range(20)
    ]
    pd.DataFrame(rows).to_csv(tmp_path / "boards.csv", index=False)
    s = mod.summarise(tmp_path).set_index("skill")
    assert s.loc["club", "boards"] == 20 and s.loc["club", "breaker_wins"] == 15
    assert s.loc["club", "breaker_win_rate"] == pytest.approx(0.75)
    assert s.loc["club", "lo"] < 0.75 < s.loc["club", "hi"]
    assert (tmp_path / "summary.png").stat().st_size > 5_000
