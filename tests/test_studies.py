"""Rule-balance studies as files (carromlab/studies, reports/study.py, cli/study.py): the file
refused in one line naming the key, the arms' strength and prior copies, rows that do not
depend on the executor or the blocks, resumption, the precision target, the questions'
intervals, and one real study run from its file to its report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from carromlab.errors import CarromlabError
from carromlab.reports import StudyReport
from carromlab.reports.study import prior_cell
from carromlab.studies import parse_study
from carromlab.studies.questions import Difference, Estimate, answer, compare, parse_question
from carromlab.studies.run import arm_folder, games_used, run_study

BASE = {
    "game": "icf",
    "seed": 3,
    "games": 7,
    "block": 3,
    "arms": [
        {"name": "laws", "rules": {"max_boards": 1}},
        {"name": "queen-4", "rules": {"max_boards": 1, "queen_value": 4, "due_rule": False}},
    ],
}


def _doc(**changes):
    doc = json.loads(json.dumps(BASE))
    doc.update(changes)
    return doc


def fake_play(settings, seed, games):
    """A block's rows as ``play_block`` returns them, from the seed, the arm's rules and the
    game indices alone (no kernel): the queen's arm makes the first seat win more."""
    out = []
    for g in games:
        rng = np.random.default_rng([seed, g])
        p = 0.5 + 0.3 * (settings["rules"].get("queen_value", 3) == 4)
        winner = 0 if rng.random() < p else 1
        strokes = int(rng.integers(10, 40))
        row = {"game": g, "winner": winner, "score_0": 1 - winner, "score_1": winner,
               "boards": 1, "strokes": strokes, "truncated_strokes": 0, "finished": True}  # fmt: skip
        boards = pd.DataFrame(
            [{"game": g, "board": 0, "breaker_side": 0, "winner": winner, "points": 2}]
        )
        out.append((row, boards))
    return out


# ---------------------------------------------------------------------- the file


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"gmae": "icf"}, "gmae"),
        ({"game": "chess"}, "game = 'chess'"),
        ({"games": 0}, "games = 0"),
        ({"questions": ["first-wins", "most:strokes"]}, "questions = 'most:strokes'"),
        ({"players": ["greedy", "greedy", "greedy"]}, "arms.laws.players"),
        ({"players": "greedy-fast"}, "not a player of icf"),
        ({"skill": "wizard"}, "arms.laws.skill = 'wizard'"),
        ({"baseline": "law"}, "baseline = 'law'"),
        ({"precision": -0.1}, "precision"),
        ({"priors": {"mu": [0.15, 0.07]}}, "priors.mu"),
        ({"priors": {"friction": [0.07, 0.15]}}, "priors.friction"),
        ({"games": 100_000, "strengths": ["random", "search"] * 4}, "a study's limit"),
        (
            {"arms": [{"name": "a", "rules": {"queen_worth": 4}}]},
            "arms.a.rules.queen_worth = 4: not a rule of icf",
        ),
        ({"arms": [{"name": "a", "rules": {"queen_value": "4"}}]}, "must be int"),
        ({"arms": [{"name": "a", "rules": {"queen_value": -1}}]}, "queen_value"),
        ({"arms": [{"name": "a"}, {"name": "a"}]}, "two arms have this name"),
        ({"arms": [{"name": "../x"}]}, "arms.name = '../x'"),
        ({"arms": [{"name": "a", "variant": "kooba"}]}, "not a variant of icf"),
        ({"arms": [{"name": "a", "physics": {"mu": 3.0}}]}, "arms.physics.mu = 3.0"),
        # an unknown key names the keys of its own table (not a sweep file's), and the arm
        ({"gmae": "icf"}, "the keys are name, game, variant"),
        (
            {"arms": [{"name": "a"}, {"name": "b", "rulez": {"queen_value": 4}}]},
            "arms[1] ('b'): arms.rulez: unknown key; the keys are name, variant, rules",
        ),
        ({"priors": {"muu": [0.1, 0.2]}}, "priors.muu: unknown key; the keys are mu, g,"),
        ({"game": None}, "game: is missing"),
        ({"reference": 2.0}, "reference = 2.0: the first question (first-wins) is a share"),
    ],
)
def test_a_study_file_is_refused_in_one_line_naming_the_key(changes, words):
    doc = {k: v for k, v in _doc(**changes).items() if v is not None}  # None: left out
    with pytest.raises(CarromlabError) as e:
        parse_study(doc, source="s.toml")
    text = str(e.value)
    assert "\n" not in text and text.startswith("s.toml: ") and words in text


def test_a_one_arm_study_reports_that_nothing_is_compared(tmp_path):
    """One arm and no reference value: the report is written (no comparison to draw), its
    Markdown says so, and the page has no heading about strengths or priors."""
    doc = _doc(arms=[{"name": "laws", "rules": {"max_boards": 1}}])
    study = parse_study(doc, source="s")
    run_study(study, tmp_path, progress=False, play=fake_play)
    rep = StudyReport.from_folder(tmp_path)
    assert len(rep.verdicts) == 0 and "question" in rep.verdicts.columns
    assert rep.markdown().startswith("Nothing is compared: the study has one arm")
    page = rep.save().read_text()
    assert "laws" in page and "physics priors" not in page and "at each strength" not in page


def test_the_report_shows_the_file_as_written_and_a_folder_it_cannot_write_in_one_line(
    tmp_path, monkeypatch, capsys
):
    from carromlab.cli import main
    from carromlab.studies import run as study_run

    spec = tmp_path / "s.toml"
    spec.write_text(
        '# why: the queen\'s worth\ngame = "icf"\ngames = 4\nblock = 2\n'
        '[[arms]]\nname = "laws"  # the laws\n[[arms]]\nname = "q4"\n'
        "rules = { queen_value = 4 }\n"
    )
    real = study_run.run_study
    monkeypatch.setattr(
        study_run, "run_study", lambda *a, **k: real(*a, **{**k, "play": fake_play})
    )
    main(["study", "run", str(spec), "--out", str(tmp_path / "out")])
    said = capsys.readouterr().out
    assert "games_used: laws 4, q4 4" in said and "{" not in said
    page = (tmp_path / "out" / "report" / "report.html").read_text()
    assert "# why: the queen&#x27;s worth" in page and "# the laws" in page

    def refuse(self, out=None):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(StudyReport, "save", refuse)
    with pytest.raises(SystemExit) as e:
        main(["study", "report", str(tmp_path / "out")])
    assert e.value.code != 0
    err = capsys.readouterr().err
    assert "cannot write the report into" in err and "Permission denied" in err
    assert "Traceback" not in err


def test_a_thrown_game_takes_no_physics_priors():
    """KOOBA's throw kernel reads no sliding-disc field: priors (or an arm's physics) on it
    would play copies that cannot differ, so they are refused."""
    doc = {"game": "kooba", "questions": ["first-wins"], "arms": [{"name": "2p"}],
           "priors": {"mu": [0.07, 0.15]}}  # fmt: skip
    with pytest.raises(CarromlabError, match=r"^k.toml: priors = .*no table friction"):
        parse_study(doc, source="k.toml")
    doc = {**doc, "priors": None, "arms": [{"name": "2p", "physics": {"mu": 0.1}}]}
    with pytest.raises(CarromlabError, match=r"arms.2p.physics = .*no table friction"):
        parse_study({k: v for k, v in doc.items() if v is not None}, source="k.toml")


def test_strengths_and_priors_copy_every_arm_at_the_top_strength():
    s = parse_study(
        _doc(strengths=["random", "greedy-race"], priors={"mu": [0.07, 0.15]}), source="s"
    )
    names = [a.name for a in s.arms]
    assert names[:2] == ["laws", "queen-4"]
    assert "laws@random" in names and "queen-4@greedy-race" in names
    low = s.arm("queen-4@greedy-race~mu-low")
    assert low.players == ("greedy-race", "greedy-race") and low.physics == {"mu": 0.07}
    assert low.base == "queen-4" and low.prior == ("mu", "low")
    assert len(s.arms) == 2 * (1 + 2 + 2) and s.top == "greedy-race"
    assert {a.games for a in s.arms} == {7}
    small = parse_study(_doc(strengths=["random"], copy_games=3), source="s")
    assert [a.games for a in small.arms] == [7, 7, 3, 3]
    # a strength the arms already play is the arms as written: no copy, Study.at finds them
    own = parse_study(_doc(players="greedy", strengths=["greedy", "search"]), source="s")
    assert [a.name for a in own.arms] == ["laws", "queen-4", "laws@search", "queen-4@search"]
    assert own.at("queen-4", "greedy") == "queen-4" and own.at("laws", "search") == "laws@search"
    # "strongest" is read as the game's
    assert parse_study(_doc(players="strongest"), source="s").arms[0].players[0] == "search"


# ---------------------------------------------------------------------- the run


def _games(out, arm):
    return (
        pd.read_csv(arm_folder(out, arm) / "games.csv").sort_values("game").reset_index(drop=True)
    )


def test_the_rows_do_not_depend_on_the_executor_or_the_blocks_and_a_rerun_resumes(tmp_path):
    ref = parse_study(_doc(), source="s")
    run_study(ref, tmp_path / "a", progress=False, play=fake_play)
    other = parse_study(_doc(block=2), source="s")
    used = run_study(other, tmp_path / "b", "processes", workers=2, progress=False, play=fake_play)
    assert used == {"laws": 7, "queen-4": 7}
    for arm in ("laws", "queen-4"):
        pd.testing.assert_frame_equal(_games(tmp_path / "a", arm), _games(tmp_path / "b", arm))
    # a shorter run, then the full one: only the missing games are played
    calls = []

    def counting(settings, seed, games):
        calls.append(list(games))
        return fake_play(settings, seed, games)

    run_study(parse_study(_doc(games=4), source="s"), tmp_path / "c", progress=False,
              play=counting)  # fmt: skip
    calls.clear()
    run_study(ref, tmp_path / "c", progress=False, play=counting)
    assert sorted(g for c in calls for g in c) == [4, 4, 5, 5, 6, 6]  # (0-3 were there)
    for arm in ("laws", "queen-4"):
        pd.testing.assert_frame_equal(_games(tmp_path / "a", arm), _games(tmp_path / "c", arm))
    # a study of another seed in the folder is refused; an arm's changed rules too
    with pytest.raises(CarromlabError, match="holds another study"):
        run_study(parse_study(_doc(seed=4), source="s"), tmp_path / "c", progress=False,
                  play=fake_play)  # fmt: skip
    changed = _doc()
    changed["arms"][1]["rules"]["queen_value"] = 5
    with pytest.raises(CarromlabError, match="holds a run with another configuration"):
        run_study(parse_study(changed, source="s"), tmp_path / "c", progress=False,
                  play=fake_play)  # fmt: skip


def failing_play(settings, seed, games):
    """fake_play, but the queen's arm stops on game 5 as a game does on a rules error."""
    if settings["name"] == "queen-4" and 5 in games:
        raise CarromlabError("game 5, stroke 3: the player's shot starts at an illegal origin")
    return fake_play(settings, seed, games)


def test_an_arm_that_stops_on_an_error_is_named_and_the_rest_is_kept(tmp_path):
    study = parse_study(_doc(block=5), source="s")
    with pytest.raises(CarromlabError, match=r"^arm 'queen-4': game 5, stroke 3: "):
        run_study(study, tmp_path, progress=False, play=failing_play)
    assert len(_games(tmp_path, "queen-4")) == 5  # the blocks before it are in the log


def test_a_study_plays_a_part_at_a_time_and_reports_what_is_missing(tmp_path):
    """``arms`` plays only the arms its names or patterns match; a pattern matching none is
    refused naming it; the report marks the arms not played yet and fills them once played."""
    study = parse_study(_doc(strengths=["random"]), source="s")
    with pytest.raises(CarromlabError, match=r"--arms: '\*@search' matches no arm"):
        run_study(study, tmp_path, progress=False, play=fake_play, arms=["*@search"])
    used = run_study(study, tmp_path, progress=False, play=fake_play, arms=["*@random"])
    assert used == {"laws@random": 7, "queen-4@random": 7}
    assert not arm_folder(tmp_path, "laws").exists()
    rep = StudyReport.from_folder(tmp_path)
    row = rep.verdicts.iloc[0]
    assert "not played" in row["verdict"] and row["at random"] != ""
    assert "not played" in rep.save().read_text()  # the page and its figures are drawn too
    run_study(study, tmp_path, progress=False, play=fake_play, arms=["laws", "queen-4"])
    rep = StudyReport.from_folder(tmp_path)
    assert "not played" not in rep.verdicts.iloc[0]["verdict"]
    assert rep.verdicts.iloc[0]["across strengths"] in (
        "holds",
        "flips at random",
        "differs at random",
        "vanishes at random",
        "shown at random",
        "none beyond the margin at random",
        "inconclusive at random",
    )
    # the figure: one cluster per setting (as written, each strength), an arm a series
    ax = rep.figure().axes[0]
    ticks = [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]
    assert ticks == ["as written", "random"]
    assert [t.get_text() for t in ax.get_legend().get_texts()][-2:] == ["laws", "queen-4"]


def test_the_report_draws_the_headline_against_the_players_rating(tmp_path):
    """Every base arm's first question at each player the file plays it with, placed at the
    player's ladder rating (ICF's ladder rates greedy 0 and random below it); the page embeds
    the figure and strength.png is written."""
    from carromlab.reports.study import player_ratings

    study = parse_study(_doc(strengths=["random"]), source="s")
    run_study(study, tmp_path, progress=False, play=fake_play)
    rep = StudyReport.from_folder(tmp_path)
    t = rep.strength_table()
    assert set(t["arm"]) == {"laws", "queen-4"} and set(t["player"]) == {"greedy", "random"}
    ratings = player_ratings("icf")
    for r in t.itertuples():
        assert r.x == ratings[r.player]["rating"]
        e = rep.estimates[("first-wins", study.at(r.arm, None if r.player == "greedy" else
                                                  r.player))]  # fmt: skip
        assert (r.value, r.n) == (e.value, e.n)
    assert ratings["greedy"]["rating"] == 0 and ratings["random"]["rating"] < 0
    page = rep.save().read_text()
    assert "as play gets stronger" in page and (tmp_path / "report" / "strength.png").is_file()
    assert player_ratings("carrooka") == {}  # no ladder: the players in the file's order


def test_the_shipped_ratings_are_the_ladders():
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(root / "experiments" / "player_ratings.py"),
                           "--check"], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_priors_cell_names_each_end_with_its_judged_cell_and_what_it_does_to_the_verdict():
    """Each end's judged cell is in the cell; an end the other way flips the verdict; an
    inconclusive end is named so and never counts towards "holds"; ends not played are
    said."""
    from carromlab.studies.verdicts import NOT_JUDGED, Judgement, read_word

    def judged(value, lo, hi):
        d = Difference(value, lo, hi)
        return Judgement(d, read_word(d, 0.05), 0.05, 0.95, 0.5, 3, None)

    up, within, down = judged(0.3, 0.1, 0.5), judged(0.0, -0.02, 0.02), judged(-0.3, -0.5, -0.1)
    unsure = judged(0.0, -0.2, 0.2)
    cell = prior_cell(up, {"mu-low": up, "mu-high": up})
    assert cell == (
        "holds: mu-low +0.300 [+0.100, +0.500] differs; mu-high +0.300 [+0.100, +0.500] differs"
    )
    assert prior_cell(up, {"mu-low": up, "mu-high": NOT_JUDGED}).startswith("holds where played: ")
    assert "mu-high not played" in prior_cell(up, {"mu-low": up, "mu-high": NOT_JUDGED})
    assert prior_cell(up, {"mu-low": down, "mu-high": unsure}).startswith(
        "flips at mu-low; inconclusive at mu-high: mu-low -0.300"
    )
    assert prior_cell(up, {"mu-low": up, "mu-high": within}).startswith(
        "holds at mu-low; vanishes at mu-high: "
    )
    assert prior_cell(unsure, {"mu-low": up, "mu-high": unsure}).startswith(
        "shown at mu-low; inconclusive at mu-high: "
    )
    assert "holds" not in prior_cell(unsure, {"mu-low": unsure, "mu-high": unsure})
    assert prior_cell(within, {"mu-low": NOT_JUDGED}) == "not played: mu-low"
    assert prior_cell(NOT_JUDGED, {"mu-low": up}) == "not played"


def test_a_precision_target_stops_an_arm_at_the_first_block_where_it_is_met(tmp_path):
    """The first seat's win share to +-0.2: each arm stops at the first block boundary where
    its Wilson interval's half-width is at most 0.2, the same with any executor, and no game
    past that boundary is in its log."""
    doc = _doc(games=200, block=5, precision=0.2)
    study = parse_study(doc, source="s")
    used = run_study(study, tmp_path / "a", progress=False, play=fake_play)
    used2 = run_study(study, tmp_path / "b", "processes",
                      workers=2, progress=False, play=fake_play)  # fmt: skip
    assert used == used2
    q = parse_question("first-wins")
    for arm, n in used.items():
        assert 0 < n < 200 and n % 5 == 0
        games = _games(tmp_path / "a", arm)
        assert games["game"].max() == n - 1  # nothing past the stopping point
        rows = pd.DataFrame([r for r, _ in fake_play(study.arm(arm).settings(), 3, range(200))])
        for end in range(5, n + 1, 5):
            half = answer(q, rows[rows.game < end], pd.DataFrame(), 0.95).half_width
            assert (half <= 0.2) == (end == n), (arm, end, half)
        assert games_used(study, games, pd.DataFrame()) == (n, True)


def test_the_precision_target_applies_to_every_copy_up_to_its_cap(tmp_path):
    """The strength and prior copies stop at the target like the arms as written, each at its
    own first block boundary, and never past ``copy_games``; a copy whose cap comes first
    stops there."""
    doc = _doc(games=200, block=5, precision=0.2, strengths=["random"], copy_games=60)
    doc["priors"] = {"mu": [0.07, 0.15]}
    study = parse_study(doc, source="s")
    assert {a.name for a in study.arms if a.strength or a.prior} >= {
        "laws@random",
        "laws@random~mu-low",
    }
    used = run_study(study, tmp_path, progress=False, play=fake_play)
    q = parse_question("first-wins")
    for arm in study.arms:
        n = used[arm.name]
        cap = 60 if (arm.strength or arm.prior) else 200
        assert 0 < n <= cap and n % 5 == 0
        rows = pd.DataFrame([r for r, _ in fake_play(arm.settings(), 3, range(cap))])
        half = answer(q, rows[rows.game < n], pd.DataFrame(), 0.95).half_width
        assert half <= 0.2 or n == cap, (arm.name, n, half)
        if n > 5:  # not met a block earlier
            assert answer(q, rows[rows.game < n - 5], pd.DataFrame(), 0.95).half_width > 0.2


# ---------------------------------------------------------------------- the questions


def stats_t(q: float, df: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(q, df))


def test_the_questions_count_and_compare_as_their_intervals_say():
    games = pd.DataFrame(
        {"game": range(6), "winner": [0, 0, 1, -1, 0, 1], "strokes": [10, 20, 30, 40, 50, 60],
         "boards": [1, 2, 1, 2, 0, 2], "finished": [True, True, False, True, True, True]}
    )  # fmt: skip
    e = answer(parse_question("first-wins"), games, pd.DataFrame(), 0.95)
    assert (e.successes, e.n) == (3, 6) and e.lo < 0.5 < e.hi
    assert answer(parse_question("draws"), games, pd.DataFrame(), 0.95).successes == 1
    decided = answer(parse_question("first-wins:decided"), games, pd.DataFrame(), 0.95)
    assert (decided.successes, decided.n) == (3, 5)
    assert answer(parse_question("seat-wins:1"), games, pd.DataFrame(), 0.95).successes == 2
    assert answer(parse_question("share:finished"), games, pd.DataFrame(), 0.95).successes == 5
    games = games.assign(score_0=[3, 1, 0, 2, 5, 1], score_1=[1, 1, 4, 2, 0, 6],
                         turns_0=[5, 6, 7, 8, 9, 10], turns_1=[1, 2, 3, 4, 5, 6])  # fmt: skip
    margin = answer(parse_question("margin"), games, pd.DataFrame(), 0.95)
    assert margin.n == 5 and margin.value == pytest.approx(np.mean([2, 0, 0, 5, 5]))
    won = answer(parse_question("winner-mean:turns"), games, pd.DataFrame(), 0.95)
    assert won.n == 5 and won.value == pytest.approx(np.mean([5, 6, 3, 9, 6]))
    m = answer(parse_question("mean:strokes/boards"), games, pd.DataFrame(), 0.95)
    assert m.n == 5 and m.value == pytest.approx(np.mean([10, 10, 30, 20, 30]))
    with pytest.raises(CarromlabError, match="no column 'turns'"):
        answer(parse_question("mean:turns"), games, pd.DataFrame(), 0.95)
    # ratio: sum over sum, its interval the delta method's (the linearised values' t interval)
    r = answer(parse_question("ratio:strokes/boards"), games, pd.DataFrame(), 0.95)
    assert r.n == 6 and r.value == pytest.approx(210 / 8)
    lin = 210 / 8 + (games["strokes"] - 210 / 8 * games["boards"]) / games["boards"].mean()
    se = lin.std(ddof=1) / math.sqrt(6)
    assert r.samples.mean() == pytest.approx(210 / 8)
    assert r.hi - r.value == pytest.approx(stats_t(0.975, 5) * se)
    assert not parse_question("board-ratio:points/strokes").share
    assert parse_question("board-ratio:points/strokes").rows == "boards"
    # Newcombe's hybrid score interval for 60/100 against 40/100, from scipy's Wilson ends
    from scipy import stats

    ends = [stats.binomtest(k, 100).proportion_ci(0.95, "wilson") for k in (60, 40)]
    (l1, u1), (l2, u2) = ((c.low, c.high) for c in ends)
    a = answer(parse_question("first-wins"), pd.DataFrame({"winner": [0] * 60 + [1] * 40}),
               pd.DataFrame(), 0.95)  # fmt: skip
    b = answer(parse_question("first-wins"), pd.DataFrame({"winner": [0] * 40 + [1] * 60}),
               pd.DataFrame(), 0.95)  # fmt: skip
    d = compare(parse_question("first-wins"), a, b, 0.95)
    assert d.value == pytest.approx(0.2)
    assert d.lo == pytest.approx(0.2 - math.hypot(0.6 - l1, u2 - 0.4))
    assert d.hi == pytest.approx(0.2 + math.hypot(u1 - 0.6, 0.4 - l2))
    assert d.differs and d.sign == 1 and 0.05 < d.lo < 0.08
    # Welch: two samples of means 1 and 3
    x, y = np.array([0.0, 1.0, 2.0]), np.array([2.0, 3.0, 4.0])
    mx = Estimate(1.0, 0, 2, 3, samples=x)
    my = Estimate(3.0, 2, 4, 3, samples=y)
    w = compare(parse_question("mean:strokes"), mx, my, 0.95)
    t = stats.ttest_ind(x, y, equal_var=False).confidence_interval(0.95)
    assert (w.lo, w.hi) == pytest.approx((t.low, t.high))
    assert not math.isnan(w.value)


def test_arms_on_the_same_seeds_compare_game_by_game():
    """Paired: identical arms are identical (no interval to read), a mean's interval is the
    per-game differences' t interval, a share's Newcombe's paired interval; games only one
    arm has are left out of the pairs."""
    from scipy import stats

    from carromlab.studies.questions import paired_share_interval

    rng = np.random.default_rng(4)
    n = 80
    base = pd.DataFrame({"game": range(n), "winner": rng.integers(0, 2, n),
                         "strokes": rng.integers(20, 40, n)})  # fmt: skip
    q_share, q_mean = parse_question("first-wins"), parse_question("mean:strokes")
    same = compare(q_share, answer(q_share, base, pd.DataFrame(), 0.95),
                   answer(q_share, base, pd.DataFrame(), 0.95), 0.95, paired=True)  # fmt: skip
    assert same.identical and (same.pairs, same.changed) == (n, 0)
    assert (same.value, same.lo, same.hi) == (0.0, 0.0, 0.0)
    # a rule that changes 10 games' strokes (and one more game only this arm played)
    arm = base.copy()
    arm.loc[:9, "strokes"] += 3
    arm = pd.concat([arm, pd.DataFrame({"game": [n], "winner": [0], "strokes": [99]})])
    a, b = answer(q_mean, arm, pd.DataFrame(), 0.95), answer(q_mean, base, pd.DataFrame(), 0.95)
    d = compare(q_mean, a, b, 0.95, paired=True)
    t = stats.ttest_rel(arm["strokes"][:n], base["strokes"]).confidence_interval(0.95)
    assert (d.pairs, d.changed) == (n, 10) and not d.identical
    assert d.value == pytest.approx(30 / n) and (d.lo, d.hi) == pytest.approx((t.low, t.high))
    unpaired = compare(q_mean, a, b, 0.95)
    assert unpaired.pairs == 0 and unpaired.hi - unpaired.lo > 5 * (d.hi - d.lo)
    # Newcombe's paired interval: nearly zero-width where the pairs agree (the Wilson ends'
    # asymmetry is left); as wide as the unpaired one when the arms are independent; it
    # covers the true difference about 95 % of the time
    x = rng.random(400) < 0.5
    lo, hi = paired_share_interval(x, x)
    assert -0.01 < lo <= 0.0 <= hi < 0.01
    y = rng.random(400) < 0.5
    ind = compare(q_share, answer(q_share, pd.DataFrame({"winner": (~x).astype(int)}),
                                  pd.DataFrame(), 0.95),
                  answer(q_share, pd.DataFrame({"winner": (~y).astype(int)}), pd.DataFrame(),
                         0.95), 0.95)  # fmt: skip
    lo, hi = paired_share_interval(x, y)
    assert hi - lo == pytest.approx(ind.hi - ind.lo, rel=0.1)
    covered = 0
    for _ in range(400):
        u = rng.random(60)
        xs, ys = u < 0.55, (u < 0.45) | (rng.random(60) < 0.05)  # correlated, true diff ~0.08
        lo, hi = paired_share_interval(xs, ys)
        covered += lo <= 0.55 - (0.45 + 0.55 * 0.05) <= hi
    assert 0.92 <= covered / 400 <= 0.99


# ---------------------------------------------------------------------- a real study


def test_a_study_runs_from_its_file_alone_and_reports(tmp_path):
    """ICF single boards, the laws against the queen worth 4 with no due rule, two boards an
    arm: the command line plays them and writes the report; the players value the arm's
    rules (its log's policies carry the queen's worth)."""
    from carromlab.cli import main

    spec = tmp_path / "queen.toml"
    spec.write_text(
        'name = "queen-4"\ngame = "icf"\nseed = 1\ngames = 2\nblock = 2\n'
        'questions = ["first-wins", "mean:strokes", "breaker-wins"]\n'
        '[[arms]]\nname = "laws"\nrules = { max_boards = 1 }\n'
        '[[arms]]\nname = "queen-4-due-off"\n'
        "rules = { max_boards = 1, queen_value = 4, due_rule = false }\n"
    )
    out = tmp_path / "out"
    main(["study", "run", str(spec), "--out", str(out), "--json"])
    page = out / "report" / "report.html"
    text = page.read_text()
    assert "queen-4-due-off" in text and "data:image/png;base64," in text
    assert "inconclusive" in text or "raises" in text or "lowers" in text
    summary = pd.read_csv(out / "report" / "summary.csv")
    assert len(summary) == 3 * 2 and set(summary["arm"]) == {"laws", "queen-4-due-off"}
    config = json.loads((arm_folder(out, "queen-4-due-off") / "config.json").read_text())
    assert "queen_covered=4.0" in config["policies"][0] and "due=0.0" in config["policies"][0]
    laws = json.loads((arm_folder(out, "laws") / "config.json").read_text())
    assert "queen_covered" not in laws["policies"][0]  # the laws: the registry's player
    # a rerun plays nothing and the report reads the same
    before = pd.read_csv(arm_folder(out, "laws") / "games.csv")
    main(["study", "report", str(out), "--json"])
    pd.testing.assert_frame_equal(before, pd.read_csv(arm_folder(out, "laws") / "games.csv"))


def test_the_committed_study_schema_is_the_generated_one_and_every_study_file_holds():
    import tomllib
    from pathlib import Path

    from carromlab.studies import load_study
    from carromlab.studies.spec import json_schema, json_schema_text

    root = Path(__file__).resolve().parents[1]
    assert (root / "docs" / "study.schema.json").read_text() == json_schema_text(), (
        "run: python -m carromlab.studies.spec"
    )
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(json_schema())
    files = sorted((root / "studies").glob("*.toml"))
    assert len(files) >= 10
    for path in files:
        validator.validate(tomllib.loads(path.read_text()))
        assert load_study(path).arms  # and the game's own checks
    assert not validator.is_valid({"game": "icf", "arms": [{"name": "a", "spin": 1}]})


def test_the_verdicts_page_is_in_step_with_the_study_folders():
    """docs/verdicts.md is what experiments/verdict_tables.py makes of the committed study
    folders: every study file played has its table there, as its folder says today."""
    from experiment_loader import load_experiment

    vt = load_experiment("verdict_tables")
    folders = vt.study_folders()
    assert folders, "no study folder"
    text = vt.page(folders)
    assert vt.PAGE.read_text() == text, "run: python experiments/verdict_tables.py"
    for f in folders:
        assert f"## `{json.loads((f / 'study.json').read_text())['name']}`" in text
