"""A study is checked and sized before any game (carromlab/studies/check.py): the columns
each game's driver declares are the columns its games' rows have; a question naming a column
an arm's rows will lack is refused when the file is read, naming the question, the arm and
the columns; ``carromlab study check`` prints the arms as played, the games and the time
from the measured costs (``costs.json``, in step with the bench's files)."""

import dataclasses
import json
from pathlib import Path

import pytest
from cli_run import no_work, run
from experiment_loader import load_experiment

from carromlab.errors import CarromlabError
from carromlab.play.drivers import RowColumns
from carromlab.play.log import game_row
from carromlab.play.loop import driver_for, play_games
from carromlab.registry import GAMES, get_game, unregister_game
from carromlab.studies import parse_study
from carromlab.studies.check import (
    COSTS_FILE,
    arm_columns,
    duration,
    measured_costs,
    plan,
    plan_lines,
    question_columns_check,
)

ROOT = Path(__file__).resolve().parents[1]
WHOLE = [n for n, g in GAMES.items() if g.config is not None and g.driver is not None and g.players]


# ---------------------------------------------------------------------- the declared columns


def _short(config):
    """One board where the game plays boards (its board rows come from a finished board)."""
    if any(f.name == "max_boards" for f in dataclasses.fields(config)):
        return dataclasses.replace(config, max_boards=1)
    return config


@pytest.mark.heavy  # one game of every game (about 23 s): CI runs the heavy group
@pytest.mark.parametrize(
    "name, rules",
    [(n, {}) for n in WHOLE] + [("kooba", {"n_players": 3})],
    ids=[*WHOLE, "kooba-3"],
)
def test_a_game_of_every_game_has_exactly_the_declared_columns(name, rules):
    """One game at novice between greedy players: its game row and its board rows have the
    columns its driver declares, in order (a game without boards is cut at 8 strokes: its
    row has the same columns, finished or not)."""
    game = get_game(name)
    config = _short(game.make_config(**rules))
    declared = driver_for(config).row_columns()
    assert isinstance(declared, RowColumns)
    player = game.make_player("greedy", skill="novice")
    seats = driver_for(config).n_seats
    cut = 5000 if declared.boards else 8
    (rec,) = play_games([player] * seats, config, skill="novice", games=1, max_strokes=cut)
    assert tuple(game_row(rec)) == declared.games
    assert tuple(rec.boards.columns) == declared.boards
    if declared.boards:
        assert len(rec.boards) >= 1  # the board finished: its row was compared


def test_every_game_with_whole_games_declares_its_columns_for_every_variant():
    for name in WHOLE:
        game = GAMES[name]
        for v in game.variants:
            columns = driver_for(game.make_config(v)).row_columns()
            assert isinstance(columns, RowColumns), v
            assert columns.games[0] == "game" and "winner" in columns.games, v
            assert len(set(columns.games)) == len(columns.games), v


def test_a_driver_that_builds_its_rows_without_declaring_them_declares_none(monkeypatch):
    """The toy game's driver (tests/toy_game.py) has its own ``_extra`` and no
    ``extra_columns``: its columns are not known before its games, and its study's questions
    are left to the rows (as before)."""
    import toy_game

    game = toy_game.register()
    try:
        assert driver_for(game.make_config()).row_columns() is None
        doc = {"game": "pot-three", "questions": ["mean:potted", "mean:anything"],
               "players": "random", "arms": [{"name": "a"}]}  # fmt: skip
        study = parse_study(doc, source="p.toml")
        assert arm_columns(study.arms[0]) is None
        question_columns_check(study.arms, study.questions, "p.toml")  # nothing to refuse
    finally:
        unregister_game(game.name)


# ---------------------------------------------------------------------- the questions' columns

ICF = {
    "game": "icf",
    "games": 4,
    "arms": [{"name": "laws", "rules": {"max_boards": 1}}, {"name": "queen-4",
             "rules": {"max_boards": 1, "queen_value": 4}}],
}  # fmt: skip


def _doc(base=ICF, **changes):
    doc = json.loads(json.dumps(base))
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    "doc, words",
    [
        (
            _doc(questions=["breaker-wins", "board-mean:pointz"]),
            "s.toml: questions = 'board-mean:pointz': arm 'laws': its board rows will have no "
            "column 'pointz' (they have: board, breaker, breaker_side, winner, points, ",
        ),
        (
            _doc(questions=["mean:points"]),  # a board row's column asked of the game rows
            "questions = 'mean:points': arm 'laws': its game rows will have no column 'points' "
            "(they have: winner, score_0, score_1, boards, strokes, truncated_strokes, finished)",
        ),
        (
            _doc(questions=["first-wins", "ratio:points_after_foul/turns"]),
            "'ratio:points_after_foul/turns': arm 'laws': its game rows will have no column "
            "'points_after_foul'",
        ),
        (
            _doc(game="carrooka", questions=["breaker-wins"], arms=[{"name": "bonus"}]),
            "questions = 'breaker-wins': arm 'bonus': its board rows will have no column "
            "'winner' (they have: none)",
        ),
        (  # only the arm that lacks the column is named: KOOBA's columns follow its players
            _doc(
                game="kooba",
                questions=["mean:turns_3"],
                arms=[{"name": "4p", "rules": {"n_players": 4}}, {"name": "2p"}],
            ),
            "arm '2p': its game rows will have no column 'turns_3'",
        ),
    ],
)
def test_a_question_naming_a_column_the_rows_lack_is_refused_when_the_file_is_read(doc, words):
    with pytest.raises(CarromlabError) as e:
        parse_study(doc, source="s.toml")
    text = str(e.value)
    assert "\n" not in text and text.startswith("s.toml: ") and words in text


def test_questions_on_columns_the_rows_have_pass_in_every_arm_and_copy():
    arms = [{"name": "2p"}, {"name": "4p", "rules": {"n_players": 4}}]
    questions = ["winner-mean:marker", "share:tie_break"]  # winner, marker_0, tie_break
    doc = _doc(game="kooba", questions=questions, strengths=["search"], arms=arms)
    study = parse_study(doc, source="s.toml")
    assert [a.name for a in study.arms] == ["2p", "4p", "2p@search", "4p@search"]
    assert "turns_3" in arm_columns(study.arms[1]).games
    assert "turns_3" not in arm_columns(study.arms[2]).games
    with pytest.raises(CarromlabError, match="arm '2p'"):
        parse_study(dict(doc, questions=["mean:turns_3"]), source="s.toml")


def test_every_committed_study_asks_only_for_columns_its_rows_have():
    from carromlab.studies import load_study

    for path in sorted((ROOT / "studies").glob("*.toml")):
        study = load_study(path)
        question_columns_check(study.arms, study.questions, str(path))


# ---------------------------------------------------------------------- the plan and its costs


def test_the_packaged_costs_are_the_benchs_figures():
    """costs.json is what experiments/study_costs.py makes of the bench's files, with each
    figure's source, date and machine."""
    mod = load_experiment("study_costs")
    assert COSTS_FILE.read_text(encoding="utf-8") == mod.render(mod.costs(list(mod.SOURCES)))
    costs = measured_costs()
    first = json.loads((ROOT / mod.SOURCES[0]).read_text().splitlines()[0])
    entry = costs[(first["game"], first["policy_name"])]
    assert entry["s_per_board"] == pytest.approx(first["s_per_board"], rel=1e-4)
    assert entry["machine"] == first["machine"] and entry["date"] == first["date"]
    assert entry["source"] == mod.SOURCES[0]
    assert ("icf", "learned") in costs  # the second file's


def test_the_plan_counts_the_arms_as_played_and_costs_them_by_their_dearest_seat():
    priors = {"mu": [0.08, 0.12]}
    doc = _doc(players=["greedy", "search"], strengths=["greedy"], copy_games=2, priors=priors)
    study = parse_study(doc, source="s.toml")
    p = plan(study)
    names = [a["name"] for a in p["arms"]]
    assert names == ["laws", "queen-4", "laws@greedy", "queen-4@greedy",
                     "laws@greedy~mu-low", "queen-4@greedy~mu-low",
                     "laws@greedy~mu-high", "queen-4@greedy~mu-high"]  # fmt: skip
    assert p["games"] == 2 * 4 + 6 * 2 == sum(a.games for a in study.arms)
    costs = measured_costs()
    laws = p["arms"][0]["cost"]
    assert laws["mixed"] and laws["player"] == "search"  # the dearer seat
    assert laws["s_per_game"] == pytest.approx(costs[("icf", "search")]["s_per_board"])
    assert laws["boards"] == 1 and not laws["bound"]
    copy = p["arms"][2]
    assert copy["strength"] == "greedy" and copy["players"] == ["greedy", "greedy"]
    assert p["arms"][4]["prior"] == "mu-low"
    expected = 4 * 2 * costs[("icf", "search")]["s_per_board"]
    expected += 6 * 2 * costs[("icf", "greedy")]["s_per_board"]
    assert p["seconds"] == pytest.approx(expected)
    assert not p["not_measured"] and not p["left_out"]
    text = "\n".join(plan_lines(p))
    assert "dearest seat: search" in text and "games in all: 20" in text
    assert "nearly alone" in text and "many at once" in text


def test_a_player_without_a_measured_cost_is_named_and_left_out_of_the_total():
    doc = {"game": "carroms", "games": 10, "players": "greedy", "strengths": ["learned"],
           "arms": [{"name": "a"}]}  # fmt: skip
    p = plan(parse_study(doc, source="c.toml"))
    assert p["not_measured"] == ["learned"] and p["left_out"] == ["a@learned"]
    greedy = measured_costs()[("carroms", "greedy")]["s_per_board"]
    assert p["seconds"] == pytest.approx(10 * 10 * greedy)  # 10 games of at most 10 boards
    assert p["bound"] and p["arms"][0]["cost"]["bound"]
    text = "\n".join(plan_lines(p))
    assert "learned not measured" in text and "a@learned" in text and "at most" in text


def test_durations_read_as_words():
    assert duration(45) == "45 s"
    assert duration(12 * 60) == "12 min"
    assert duration(3 * 3600 + 20 * 60) == "3 h 20 min"
    assert duration(53 * 3600) == "2 d 5 h"


# ---------------------------------------------------------------------- the command


def test_study_check_prints_the_plan_and_plays_nothing(capsys):
    spec = ROOT / "studies" / "icf-queen-4-no-due.toml"
    with no_work():
        code, out, err = run(capsys, "study", "check", str(spec))
        assert code == 0, err
        assert (
            "arms as played (16):" in out and "laws@learned" in out and "laws@search~mu-low" in out
        )
        assert "games in all: 1,500" in out and "time: about" in out
        code, out, err = run(capsys, "study", "check", str(spec), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 1500 and len(data["arms"]) == 16
    assert data["arms"][0]["players"] == ["greedy-race", "greedy-race"]
    assert data["seconds"] > 0 and data["costs"][0]["machine"]


@pytest.mark.parametrize(
    "text",
    [
        'game = "icf"\nquestions = ["board-mean:pointz"]\n[[arms]]\nname = "laws"\n',
        'game = "icf"\n[[arms]]\nname = "laws"\nrules = { queen_worth = 4 }\n',
        'game = "icf"\n[[arms]]\nname = "a"\n[[arms]]\nname = "b"\nrulez = 1\n',
        'game = "icf"\nquestions = [',
    ],
    ids=["column", "rule", "key", "toml"],
)
def test_study_check_refuses_a_broken_file_with_the_line_study_run_prints(tmp_path, capsys, text):
    spec = tmp_path / "broken.toml"
    spec.write_text(text)
    with no_work():
        code, out, err = run(capsys, "study", "check", str(spec))
        run_code, _, run_err = run(capsys, "study", "run", str(spec), "--out", str(tmp_path / "o"))
    assert code == run_code == 2 and out == ""
    assert err == run_err and err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err and not (tmp_path / "o").exists()
