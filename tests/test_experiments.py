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


def _arm(study: Path, arm: str, games: list[dict]) -> None:
    """An arm of a study folder as ``carromlab study run`` lays it out."""
    folder = study / "arms" / arm
    folder.mkdir(parents=True)
    pd.DataFrame(games).to_csv(folder / "games.csv", index=False)


def test_carrooka_study_summaries(tmp_path, capsys):
    """Break sizes from the turn lists and the shares of the Carrooka'd options, read from the
    arms of study folders; a missing folder is refused in one line."""
    mod = _load("carrooka_balance")
    club = [_carrooka_game(g, int(g % 4 == 3), [3, 0, 5, 2], (2, 6), (1, 0, 1)) for g in range(8)]
    novice = [_carrooka_game(g, 1, [0, 4], (1, 1), (0, 2, 0)) for g in range(8)]
    unfinished = {**_carrooka_game(8, -1, [9, 9], best=(5, 5, 5)), "finished": False}
    strong = [_carrooka_game(g, int(g % 2), [1, 2], (1, 1), (0, 1, 0)) for g in range(6)]
    first, bonus = tmp_path / "carrooka-first-player", tmp_path / "carrooka-bonus"
    _arm(first, "club", club)
    _arm(first, "novice", [*novice, unfinished])
    _arm(bonus, "club", strong)
    out = tmp_path / "out"
    tables = mod.summarise([first, bonus], out)
    breaks = tables["breaks"].set_index("arm")
    assert list(breaks.index) == [
        "carrooka-first-player/club",
        "carrooka-first-player/novice",
        "carrooka-bonus/club",
    ]
    club_row = breaks.loc["carrooka-first-player/club"]
    assert club_row["turns"] == 32 and club_row["longest"] == 5
    assert club_row["scoring_turns"] == pytest.approx(0.75)
    assert club_row["break"] == pytest.approx(2.5)
    assert club_row["break_lo"] < 2.5 < club_row["break_hi"]
    assert breaks.loc["carrooka-first-player/novice", "games"] == 8  # the unfinished one left out
    shares = tables["carrookad"].set_index("option")
    assert shares["best"].to_dict() == {"break_line": 8, "counter": 22, "pass": 8}
    assert shares.loc["counter", "share"] == pytest.approx(22 / 38)
    assert shares.loc["counter", "share_lo"] < 22 / 38 < shares.loc["counter", "share_hi"]
    for name in ("breaks", "carrookad"):
        assert (out / f"{name}.png").stat().st_size > 5_000
        assert (out / f"{name}.csv").exists()

    assert mod.main(["--study-dir", str(first), "--study-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none" in err and "carromlab study run" in err


def test_carrooka_summaries_read_each_set_of_games_once(tmp_path):
    """The arms as written only (copies with ``copies``), and an arm alike in settings and
    seed to one read before (the two files' ``club``) once."""
    from carromlab.studies import load_study
    from carromlab.studies.run import write_study_json

    mod = _load("carrooka_balance")
    game = _carrooka_game(0, 0, [3, 0], (2, 6), (1, 0, 1))
    folders = []
    for stem in ("carrooka-first-player", "carrooka-bonus"):
        folder = tmp_path / stem
        write_study_json(load_study(ROOT / "studies" / f"{stem}.toml"), folder)
        for arm in ("club", "club@search"):
            _arm(folder, arm, [game])
        folders.append(folder)
    assert list(mod.load(folders)) == ["carrooka-first-player/club"]
    assert list(mod.load(folders, copies=True)) == [
        "carrooka-first-player/club", "carrooka-first-player/club@search"]  # fmt: skip


def test_carrooka_copies_are_drawn_by_setting(tmp_path):
    """With the copies, each arm label splits into the arm it copies and where it was played,
    and the breaks' figure is drawn clustered by that setting."""
    mod = _load("carrooka_balance")
    split = mod.settings(["f/club", "f/club@search", "f/pro@search~mu-low"])
    assert list(split["series"]) == ["f/club", "f/club", "f/pro"]
    assert list(split["setting"]) == ["as written (greedy)", "search", "search\nmu-low"]
    study = tmp_path / "carrooka-first-player"
    for arm, points in (("club", [3, 0, 5]), ("club@search", [9, 0]), ("club@search~mu-low", [7])):
        _arm(study, arm, [_carrooka_game(g, g % 2, points) for g in range(4)])
    out = tmp_path / "out"
    breaks = mod.summarise([study], out, copies=True)["breaks"]
    assert len(breaks) == 3 and (out / "breaks.png").stat().st_size > 5_000


def _kooba_game(g, winner_entrant, attacked_0=False):
    return {
        "game": g,
        "winner": winner_entrant,
        "winner_entrant": winner_entrant,
        "entrant_0": 0,
        "entrant_1": 1,
        "attacked_0": attacked_0,
        "attacked_1": False,
        "players": 2,
        "rounds": 4,
        "finished": True,
    }


def test_kooba_timing_reads_the_default_player_from_the_seats_study(tmp_path):
    """The timing table: the seats study's 2p arm (the default player), a row saying the 3p
    arm is missing, then the timing arms played."""
    mod = _load("kooba_balance")
    seats, out = tmp_path / "kooba-seats", tmp_path / "kooba"
    _arm(seats, "2p", [_kooba_game(g, g % 2) for g in range(10)])
    (out / "2p-attack-at-1").mkdir(parents=True)
    games = [_kooba_game(g, int(g >= 6), attacked_0=g < 5) for g in range(10)]
    pd.DataFrame(games).to_csv(out / "2p-attack-at-1" / "games.csv", index=False)
    table = mod.summarise(out, seats).set_index("arm")
    assert list(table.index) == ["2p", "3p", "2p-attack-at-1"]
    assert table.loc["2p", "win"] == pytest.approx(0.5) and table.loc["2p", "attack_at"] == 4
    assert table.loc["3p", "games"] == 0 and table.loc["3p", "source"].startswith("missing")
    assert table.loc["2p-attack-at-1", "win"] == pytest.approx(0.6)
    assert table.loc["2p-attack-at-1", "attacked"] == pytest.approx(0.5)
    assert (out / "timing.png").stat().st_size > 5_000


def test_kooba_timing_pairs_the_arms_game_by_game(tmp_path):
    """The paired table: an arm against another over the games both played, the mean
    difference of the challenger's wins with its interval, and how many games ended alike."""
    mod = _load("kooba_balance")
    seats, out = tmp_path / "kooba-seats", tmp_path / "kooba"
    _arm(seats, "2p", [_kooba_game(g, g % 2) for g in range(10)])
    for arm, wins in (("2p-attack-at-1", range(6)), ("2p-attack-never", range(3))):
        (out / arm).mkdir(parents=True)
        games = [_kooba_game(g, int(g not in wins), attacked_0=True) for g in range(10)]
        pd.DataFrame(games).to_csv(out / arm / "games.csv", index=False)
    pairs = mod.paired(out, seats).set_index("arm")
    assert list(pairs.index) == ["2p-attack-at-1", "default-2p"]  # the pairs with both arms
    early = pairs.loc["2p-attack-at-1"]
    assert early["games"] == 10 and early["same_outcome"] == 7  # games 3, 4, 5 differ
    assert early["diff"] == pytest.approx(0.3) and early["diff_lo"] < 0.3 < early["diff_hi"]
    mod.summarise(out, seats)
    assert (out / "paired.csv").exists()


def test_kooba_timing_at_another_strength():
    """With a player other than greedy every seat plays it, the challenger with the arm's
    attack options; its default row is the seats study's copy at that strength."""
    mod = _load("kooba_balance")
    challenger, default = mod.arm_players("2p-attack-never", "club", "strong")[1]
    assert challenger.attack_at is None and default.attack_at == 1  # strong attacks at 1 step
    assert challenger.refine == default.refine == 8  # both aim from refined maps
    assert mod.default_options("search") == (4, "leader", 2, True)
    row = mod.reference_row("2p", 2, ROOT / "data" / "studies" / "specs" / "kooba-seats", "strong")
    assert row["arm"] == "2p@strong" and row["attack_at"] == 1 and row["games"] > 0


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
    """check_unchanged.py replays every arm of every study file (committed as
    ``specs/<stem>/arms/<arm>``) and the KOOBA timing arms of kooba_balance.py."""
    from carromlab.studies import load_study

    mod = _load("check_unchanged")
    paths = {arm.path for arm in mod.all_arms()}
    assert {
        "specs/carrooka-bonus/arms/club-no-bonus",
        "specs/icf-first-break/arms/club",
        "specs/kooba-seats/arms/2p",
        "kooba/2p-attack-at-1",
        "kooba/search/2p-attack-at-1",
        "kooba/strong/3p-attack-next",
    } <= paths
    for path in (ROOT / "studies").glob("*.toml"):
        assert {f"specs/{path.stem}/arms/{a.name}" for a in load_study(path).arms} <= paths
