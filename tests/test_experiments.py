"""The study scripts' summaries (the long runs themselves are experiments, not tests)."""

from pathlib import Path

import pandas as pd
import pytest
from experiment_loader import load_experiment

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    return load_experiment(name)


def _write(folder: Path, boards: list[dict], games: list[dict]) -> None:
    folder.mkdir(parents=True)
    pd.DataFrame(boards).to_csv(folder / "boards.csv", index=False)
    pd.DataFrame(games).to_csv(folder / "games.csv", index=False)


def _board(g, breaker_side, winner, points=3, strokes=30, fouls=1, queen=False):
    return {
        "game": g,
        "board": 0,
        "breaker": breaker_side,
        "breaker_side": breaker_side,
        "winner": winner,
        "points": points,
        "strokes": strokes,
        "queen_side": -1,
        "queen_covered": queen,
        "striker_pocketed": fouls,
    }


def _game(g, winner, s0, s1, boards=1):
    return {
        "game": g,
        "winner": winner,
        "score_0": s0,
        "score_1": s1,
        "boards": boards,
        "strokes": 30,
        "truncated_strokes": 0,
        "finished": True,
    }


def test_board_study_summary_has_wilson_and_t_intervals(tmp_path):
    mod = _load("icf_balance")
    boards = [_board(g, 0, int(g % 4 == 0), points=2 + g % 3) for g in range(20)]
    games = [
        _game(g, b["winner"], *(3, 0) if b["winner"] == 0 else (0, 3)) for g, b in enumerate(boards)
    ]
    _write(tmp_path / "first-break" / "club", boards, games)
    # a board row whose game row was cut short by a crash is not counted
    with (tmp_path / "first-break" / "club" / "boards.csv").open("a") as fh:
        fh.write("99,0,0,0,1,3,30,-1,False,0\n")
    s = mod.summarise(tmp_path, "first-break").set_index("arm")
    assert s.loc["club", "boards"] == 20 and s.loc["club", "breaker_wins"] == 15
    assert s.loc["club", "breaker_win_rate"] == pytest.approx(0.75)
    assert s.loc["club", "breaker_lo"] < 0.75 < s.loc["club", "breaker_hi"]
    assert s.loc["club", "points_lo"] < s.loc["club", "points"] < s.loc["club", "points_hi"]
    assert (tmp_path / "first-break.png").stat().st_size > 5_000
    assert (tmp_path / "first-break.csv").exists()


def test_queen_study_summary_counts_margins_and_first_breaker_wins(tmp_path):
    mod = _load("icf_balance")
    games = [
        _game(g, g % 2, 25, 10 + g, boards=4) if g % 2 == 0 else _game(g, 1, 5, 25, 5)
        for g in range(10)
    ]
    boards = [_board(g, 0, 0, queen=g < 3) for g in range(10)]
    _write(tmp_path / "queen" / "queen-3", boards, games)
    s = mod.summarise(tmp_path, "queen").set_index("arm")
    assert s.loc["queen-3", "games"] == 10 and s.loc["queen-3", "first_breaker_wins"] == 5
    assert s.loc["queen-3", "queen_covered_rate"] == pytest.approx(0.3)
    assert (
        s.loc["queen-3", "margin_lo"] < s.loc["queen-3", "margin"] < s.loc["queen-3", "margin_hi"]
    )
    assert s.loc["queen-3", "boards_per_game"] == pytest.approx(4.5)


def _carrooka_game(g, winner, turn_points, after=(0, 0), best=(0, 0, 0), fouls=(1, 2)):
    s = [sum(turn_points[0::2]), sum(turn_points[1::2])]
    return {
        "game": g,
        "winner": winner,
        "score_0": s[0],
        "score_1": s[1],
        "turns_0": len(turn_points[0::2]),
        "turns_1": len(turn_points[1::2]),
        "strokes": 2 * len(turn_points),
        "fouls_0": fouls[0],
        "fouls_1": fouls[1],
        "bonus_shots": 1,
        "carrookad": sum(best),
        "tie_break": False,
        "truncated_strokes": 0,
        "finished": True,
        "turn_points": " ".join(map(str, turn_points)),
        "turns_after_foul": after[0],
        "points_after_foul": after[1],
        "best_break_line": best[0],
        "best_counter": best[1],
        "best_pass": best[2],
    }


def test_carrooka_study_summaries(tmp_path):
    """First-player rates (Wilson), the bonus table's ratio of points after a foul, break
    sizes from the turn lists, and the shares of the Carrooka'd options."""
    mod = _load("carrooka_balance")
    club = [_carrooka_game(g, int(g % 4 == 3), [3, 0, 5, 2], (2, 6), (1, 0, 1)) for g in range(8)]
    off = [_carrooka_game(g, 1, [0, 4], (1, 1), (0, 2, 0)) for g in range(8)]
    strong = [_carrooka_game(g, int(g % 2), [1, 2], (1, 1), (0, 1, 0)) for g in range(6)]
    for arm, games in (("club", club), ("club-no-bonus", off), ("club-break", strong)):
        (tmp_path / arm).mkdir()
        pd.DataFrame(games).to_csv(tmp_path / arm / "games.csv", index=False)
    tables = mod.summarise(tmp_path)
    first = tables["first-player"].set_index("arm")
    assert first.loc["club", "first_wins"] == pytest.approx(6 / 8)
    assert first.loc["club", "first_wins_lo"] < 0.75 < first.loc["club", "first_wins_hi"]
    assert first.loc["pooled", "games"] == 8  # the stronger player's arm is not pooled
    assert first.loc["club-break", "first_wins"] == pytest.approx(0.5)
    assert tables["bonus"].set_index("arm").loc["club-break", "bonus_shot"]
    bonus = tables["bonus"].set_index("arm")
    assert bonus.loc["club", "after_foul"] == pytest.approx(3.0)  # 48 points in 16 turns
    assert bonus.loc["club-no-bonus", "after_foul"] == pytest.approx(1.0)
    assert bonus.loc["club-no-bonus", "first_wins"] == 0.0
    assert bonus.loc["club", "turn_points"] == pytest.approx(2.5)
    breaks = tables["breaks"].set_index("arm")
    assert breaks.loc["club", "turns"] == 32 and breaks.loc["club", "longest"] == 5
    assert breaks.loc["club", "scoring_turns"] == pytest.approx(0.75)
    shares = tables["carrookad"].set_index("option")
    assert shares["best"].to_dict() == {"break_line": 8, "counter": 22, "pass": 8}
    assert shares.loc["counter", "share"] == pytest.approx(22 / 38)
    for name in ("first-player", "bonus", "breaks", "carrookad"):
        assert (tmp_path / f"{name}.png").stat().st_size > 5_000


def test_ladder_summary_rates_the_players_from_both_seatings(tmp_path):
    mod = _load("strength_ladder")
    # greedy--lookahead: lookahead wins 14 of 20 (7 of 10 in each seating)
    for breaker, lookahead_side in (("greedy", 1), ("lookahead", 0)):
        boards = [_board(g, 0, lookahead_side if g < 7 else 1 - lookahead_side) for g in range(10)]
        games = [_game(g, b["winner"], 3, 0) for g, b in enumerate(boards)]
        _write(mod.pair_folder(tmp_path, "greedy", "lookahead", breaker), boards, games)
    rows = mod.results(tmp_path, ["greedy", "lookahead"])
    assert len(rows) == 20 and (rows["winner"] == "lookahead").sum() == 14
    assert (rows["winner"] == rows["breaker"]).sum() == 10  # 7 + 3 boards won by the breaker
    table = mod.summarise(tmp_path, ["greedy", "lookahead"]).set_index("player")
    assert table.loc["greedy", "rating"] == 0  # the anchor
    assert table.loc["lookahead", "lo"] < table.loc["lookahead", "rating"]
    assert table.loc["lookahead", "rating"] > 100  # 0.7 is about 147 Elo points
    for name in ("ladder.csv", "pairs.csv", "ladder.png"):
        assert (tmp_path / name).exists()


def test_the_behaviour_check_knows_every_study_arm():
    """check_unchanged.py replays every arm the study scripts define (their arm tables change
    shape as players are added)."""
    mod = _load("check_unchanged")
    paths = {arm.path for arm in mod.all_arms()}
    assert {"carrooka/club", "carrooka/club-break", "company/carroms-break"} <= paths
    assert "icf_balance/first-break/club" in paths
