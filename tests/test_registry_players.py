"""The games' players as the registry describes them: ``--policy``'s help written from each
game's players and notes (a game registered later, the toy game, appears in it with the
first sentence of its players' docstrings), the crokinole side's players named for their
games, and every committed study folder still accepted for a rerun (its players' reprs
compared under their current names, Circle Scores' old ``ForceOutGreedy`` included)."""

import json
from pathlib import Path

import pytest

from carromlab.errors import CarromlabError
from carromlab.registry import GAMES, Game, get_game, unregister_game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def toy():
    import toy_game

    game = toy_game.register()
    yield game
    unregister_game(game.name)


def test_a_registered_games_players_appear_in_the_policy_help(toy):
    from carromlab.cli.policy_help import policy_help, policy_lines

    lines = policy_lines([toy])
    greedy = next(line for line in lines if line.startswith("greedy ("))
    # no note: the first sentence of the factory's docstring
    assert greedy.startswith("greedy (every game): ")
    assert toy.player_note("greedy").rstrip(".") in greedy and "``" not in greedy
    assert lines[-1] == "strongest: the top of the game's strength ladder (pot-three greedy)"
    text = policy_help("A player.")
    assert "pot-three" in text and "greedy (" in text and "random (" in text


def test_every_builtin_player_is_noted_so_the_help_needs_no_player_imported():
    from carromlab.cli.play import POLICY_HELP

    for game in GAMES.values():
        assert set(game.player_notes) == set(game.players), game.name
        for policy in game.players:
            assert f"{policy} (" in POLICY_HELP
    assert "icf search" in POLICY_HELP and "kooba strong" in POLICY_HELP


def test_a_note_for_a_player_the_game_lacks_is_refused():
    with pytest.raises(CarromlabError, match="a note for 'nobody'"):
        Game("g", "G", ("g",), "icf", players={}, player_notes={"nobody": "x"})


def test_each_crokinole_game_plays_its_own_named_players():
    from carromlab.analysis.crokinole import RingOutGreedy, RingOutRandom

    force, circle = get_game("force-out"), get_game("circle-scores")
    for game, prefix in ((force, "ForceOut"), (circle, "CircleScores")):
        for policy in ("greedy", "greedy-race", "search"):
            player = game.make_player(policy)
            assert isinstance(player, RingOutGreedy)
            assert repr(player).startswith(f"{prefix}Greedy(")
        random = game.make_player("random")
        assert isinstance(random, RingOutRandom) and repr(random) == f"{prefix}Random()"
    # Force Out keeps the repr its logged runs were claimed with
    assert repr(force.make_player("greedy")) == (
        "ForceOutGreedy(skill='club', n_screen=4, keep=6, n_eval=16, max_candidates=40, "
        "random_extra=8, step_deg=7.5, rounds=None)"
    )
    assert circle.player_aliases == {
        "ForceOutGreedy": "CircleScoresGreedy",
        "ForceOutRandom": "CircleScoresRandom",
    }


def test_an_old_players_name_is_read_as_its_current_one_for_its_game_only():
    from carromlab.play.log import current_repr, same_settings

    aliases = get_game("circle-scores").player_aliases
    assert (
        current_repr("ForceOutGreedy(skill='club')", aliases) == "CircleScoresGreedy(skill='club')"
    )
    assert current_repr("ForceOutGreedyX(skill='club')", aliases) == "ForceOutGreedyX(skill='club')"
    old = {"game": "circle-scores", "policies": ["ForceOutGreedy(a=1)", "ForceOutRandom()"]}
    new = {"game": "circle-scores", "policies": ["CircleScoresGreedy(a=1)", "CircleScoresRandom()"]}
    assert same_settings(old, new)
    assert not same_settings(old, {**new, "policies": ["CircleScoresGreedy(a=2)"] * 2})
    # Force Out declares no old names: another name is another player
    fo = {"game": "force-out", "policies": ["ForceOutGreedy(a=1)"]}
    assert not same_settings(fo, {**fo, "policies": ["CircleScoresGreedy(a=1)"]})
    play = {"variant": "circle-scores", "policy": "ForceOutGreedy(a=1)"}
    assert same_settings(play, {**play, "policy": "CircleScoresGreedy(a=1)"})


def committed_arms():
    from carromlab.studies import load_study

    for path in sorted((ROOT / "studies").glob("*.toml")):
        study = load_study(path)
        for arm in study.arms:
            folder = ROOT / "data/studies/specs" / path.stem / "arms" / arm.name
            if (folder / "config.json").exists():
                yield study, arm, folder


def test_every_committed_study_arm_is_accepted_by_a_rerun():
    """What ``carromlab study run`` claims an arm's folder with (``arm_meta``: the players'
    reprs included) is what the committed folder holds, as the game log compares them."""
    from carromlab.play.log import differences, same_settings
    from carromlab.studies.run import arm_meta

    arms = list(committed_arms())
    assert len(arms) > 100
    circle = 0
    for study, arm, folder in arms:
        held = json.loads((folder / "config.json").read_text())
        here = json.loads(json.dumps(arm_meta(study, arm), default=str))
        assert same_settings(held, here), f"{folder}: {differences(here, held)}"
        circle += "ForceOutGreedy" in str(held) and study.game == "circle-scores"
    assert circle  # Circle Scores' folders hold the old name, and are accepted
