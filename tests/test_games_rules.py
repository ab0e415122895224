"""``carromlab games --rules NAME``: every rule field of a game's rule configuration with its
type, its default for the variant and its meaning, read from the ``#:`` comments of the
configuration class (carromlab/cli/positions.py); every built-in game's fields have one."""

import dataclasses
import json
import re
import sys

import pytest
from cli_run import run

from carromlab.cli.positions import field_meanings, rule_fields
from carromlab.registry import GAMES


def _configs():
    for game in GAMES.values():
        if game.config is None:
            continue
        for v in game.variants:
            yield game, v, game.make_config(v)


def test_every_rule_field_of_every_game_has_a_meaning():
    lacking = [
        f"{type(config).__name__}.{f.name}"
        for game, v, config in _configs()
        if type(config).__module__.startswith("carromlab.")
        for f in dataclasses.fields(config)
        if not field_meanings(type(config)).get(f.name, "").strip()
    ]
    assert lacking == [], f"write a `#:` comment above each of {lacking}"
    assert len(list(_configs())) >= 7


@dataclasses.dataclass(frozen=True)
class _Base:
    #: Inherited, with its meaning.
    inherited: int = 1


@dataclasses.dataclass(frozen=True)
class _Config(_Base):
    #: Two lines of meaning,
    #: joined.
    above: int = 2
    after: bool = True  #: On its own line.
    # a plain comment is no meaning
    plain: str = "x"
    #: A comment that a blank line parts from its field is no meaning either.

    parted: float = 0.5
    #: Below a field with none, above its own.
    last: int = 3


def test_the_meanings_are_the_fields_own_comments():
    assert field_meanings(_Config) == {
        "inherited": "Inherited, with its meaning.",
        "above": "Two lines of meaning, joined.",
        "after": "On its own line.",
        "last": "Below a field with none, above its own.",
    }


def test_the_fields_come_with_their_type_the_variants_default_and_the_play_option():
    game, variant, fields = rule_fields("icf-doubles")
    assert (game, variant) == ("icf", "icf-doubles")
    by = {f["name"]: f for f in fields}
    assert by["doubles"]["default"] is True and by["doubles"]["type"] == "bool"
    assert by["max_boards"]["option"] == "--boards" and by["max_boards"]["default"] == 8
    assert by["queen_value"]["meaning"].startswith("Points the queen adds")
    assert all(f["in_study"] for f in fields)
    _, variant, fields = rule_fields("carroms")  # a game's name: its first variant
    board = {f["name"]: f for f in fields}["board"]
    assert variant == "carroms" and board["default"] is None and not board["in_study"]


def test_games_rules_prints_plain_lines_off_a_terminal_and_json(capsys):
    code, out, err = run(capsys, "games", "--rules", "force-out-fast")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("force-out's rules (variant force-out-fast)")
    assert "fast: bool = true: Fast Play" in out
    assert "rounds: int = 1 (--rounds): Rounds a game" in out
    assert "[not in a study file]" in lines[-1] and lines[-1].startswith("board:")
    code, out, err = run(capsys, "games", "--rules", "kooba", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["game"] == "kooba" and doc["rules"][0]["name"] == "n_players"
    assert all(f["meaning"] for f in doc["rules"])


def test_games_rules_prints_a_table_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "250")
    code, out, err = run(capsys, "games", "--rules", "carrooka")
    assert code == 0, err
    out = re.sub(r"\x1b\[[0-9;]*m", "", out)  # the terminal's styles
    assert "─" in out  # a table's rule, not plain lines
    assert "option" in out and "meaning" in out and "[not in a study file]" in out
    assert "bonus_shot" in out and "--bonus" in out and "respot_black" in out


@pytest.mark.parametrize("name", ["chess", "icf-triples"])
def test_a_wrong_name_is_one_line_naming_the_games(capsys, name):
    code, out, err = run(capsys, "games", "--rules", name)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"error: unknown game or variant {name!r}")
    assert all(g in err for g in GAMES) and "Traceback" not in err


def test_games_lists_the_games_as_json_too(capsys):
    code, out, err = run(capsys, "games", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["game"] for r in rows] == list(GAMES)
    assert "--boards" in rows[0]["play_options"]
