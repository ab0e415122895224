"""Position JSON against its schema (``carromlab.position_schema``): every defect the fuzzing of
issue "Nothing wrong gets in" found in position files is refused in one line that names the
field and shows the value; valid files load as before; the committed JSON Schema is the
generated one; a fuzz of mutated positions raises nothing but :class:`CarromlabError`."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import subprocess
import sys
import typing
import warnings
from pathlib import Path

import pytest
from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carromlab import position_schema as schema
from carromlab.equipment import BOARDS
from carromlab.errors import CarromlabError, PositionError
from carromlab.position import Position
from carromlab.registry import STANDARD, standard_position

ROOT = Path(__file__).resolve().parents[1]
#: One standard position per board family (and Ring Pegs' pegged rings).
BASE = {
    "icf": "icf-midgame",
    "checker": "carroms-opening",
    "crokinole": "force-out-opening",
    "carrooka": "carrooka-opening",
    "kooba": "kooba-opening",
    "pegs": "ring-pegs-opening",
}


def doc(family: str) -> dict:
    return standard_position(BASE[family]).to_dict()


def board_set(family: str, **changes) -> dict:
    d = doc(family)
    d["board"].update(changes)
    return d


def refused(source, *parts: str) -> str:
    """Load ``source`` (a dict, JSON text, bytes or a path); it must be refused in one line
    holding every one of ``parts``."""
    with pytest.raises(CarromlabError) as info:
        if isinstance(source, Path):
            Position.load(source)
        elif isinstance(source, bytes):
            Position.from_dict(schema.loads_bytes(source))
        elif isinstance(source, str):
            Position.from_json(source)
        else:
            Position.from_dict(source)
    message = str(info.value)
    assert "\n" not in message and len(message) < 300, message
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"
    return message


def _numeric_fields() -> list:
    out = []
    for family, cls in BOARDS.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if hints[f.name] in (float, int):
                out.append(pytest.param(family, f.name, id=f"{family}.{f.name}"))
    return out


# ------------------------------------------------------------ tracebacks, now one line each


@pytest.mark.parametrize(("family", "name"), _numeric_fields())
def test_null_board_number_is_refused_with_its_field(family, name):
    """Was: a null board number skipped every check, then raised TypeError (12 fields)."""
    refused(board_set(family, **{name: None}), f"{family} board field '{name}'", "not null")


def test_null_where_the_board_allows_it_is_accepted():
    pos = Position.from_dict(board_set("icf", pocket_skip_speed=None))
    assert pos.board.pocket_skip_speed is None


def test_non_utf8_bytes_are_refused_in_one_line(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(doc("icf")).replace("midgame", "m\xe9dgame", 1).encode("latin-1"))
    message = refused(path, "not UTF-8", "0xe9")
    assert message.startswith(f"{path}: ")


def test_deep_nesting_is_refused_before_parsing():
    refused("[" * 100_000 + "]" * 100_000, "nests deeper than 16", "line 1")
    d = doc("icf")
    d["pieces"][0]["x"] = json.loads("[" * 17 + "]" * 17)
    refused(json.dumps(d), "nests deeper than 16")
    d["pieces"][0]["x"] = json.loads("[" * 12 + "]" * 12)  # within the limit: the schema's
    refused(json.dumps(d), "pieces[0] ('w1').x must be a number, not a list")


def test_5000_digit_integer_is_refused_naming_its_field():
    digits = "9" * 5000
    text = json.dumps(board_set("icf", side=12345)).replace("12345", digits)
    refused(text, "icf board field 'side'", "too large", "5000 digits")
    text = json.dumps(doc("icf")).replace('"version": 1', f'"version": {digits}')
    refused(text, "format version an integer of 5000 digits")
    refused(board_set("icf", side=10**5000), "icf board field 'side'", "too large", "digits")


def test_peg_count_2_to_the_31_is_refused_before_any_peg_is_made(monkeypatch):
    def no_pegs(self):
        raise AssertionError("pegs were made")

    monkeypatch.setattr(BOARDS["crokinole"], "peg_centres", no_pegs)
    refused(board_set("crokinole", peg_count=2**31), "'peg_count'", "2147483648", "at most 64")


def test_a_million_pockets_are_refused():
    refused(board_set("carrooka", pocket_count=10**6), "'pocket_count'", "1000000", "at most 64")


@pytest.mark.parametrize("where", ["id", "owner", "kind"])
def test_piece_string_with_a_lone_surrogate_is_refused(where):
    """Was: a piece id with a lone surrogate validated, then crashed writing results."""
    d = doc("icf")
    d["pieces"][1][where] = "w\ud800"
    refused(d, "pieces[1]", f".{where}", "not valid Unicode", "\\ud800")
    text = json.dumps(doc("icf")).replace('"id": "b1"', '"id": "\\udc00"')
    refused(text, ".id is not valid Unicode", "\\udc00")


# ------------------------------------------------------------ wrongly accepted, now refused


@pytest.mark.parametrize(
    ("family", "name"),
    [
        ("icf", "coin_mass"),
        ("icf", "striker_mass"),
        ("icf", "baseline_offset"),
        ("crokinole", "hole_skip_speed"),
        ("crokinole", "outer_radius"),
    ],
)
def test_null_mass_offset_speed_and_radius_are_refused(family, name):
    """Was: accepted; a mid-game cut then reported p = 0 instead of 0.69."""
    refused(board_set(family, **{name: None}), f"board field '{name}'", "not null")


@pytest.mark.parametrize(("mass", "words"), [(1e-40, "too small: 1e-40"), (1e300, "too large")])
def test_masses_that_break_float32_are_refused(mass, words):
    refused(board_set("icf", coin_mass=mass), "icf board field 'coin_mass'", words, "kg")
    refused(board_set("kooba", aero_mass=mass), "kooba board field 'aero_mass'", words)


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_version_must_be_the_integer_1(version):
    d = doc("icf")
    d["version"] = version
    refused(d, "unsupported position format version", "reads version 1")


def test_shooter_origin_outside_the_frame_is_refused():
    message = refused(board_set("crokinole", outer_radius=0.5), "outer_radius 0.5")
    assert "186 mm beyond the edge" in message  # the start itself is 170 mm off the 66 cm board


def test_shooter_through_the_frame_is_refused():
    refused(board_set("crokinole", outer_radius=0.33), "15.9 mm beyond", "outer_radius 0.33")


@pytest.mark.parametrize(
    ("family", "changes", "named"),
    [
        ("icf", {"baseline_offset": 0.002}, "baseline_offset 0.002"),
        ("icf", {"base_circle_from_side": 0.01}, "base_circle_from_side 0.01"),
        ("checker", {"shooting_line_length": 0.7}, "shooting_line_length 0.7"),
        ("checker", {"shooting_line_offset": 0.66}, "shooting_line_offset 0.66"),
        ("crokinole", {"surround": "ditch", "surface_diameter": 0.6}, "surface_diameter 0.6"),
        ("carrooka", {"break_radius": 0.39}, "break_radius 0.39"),
    ],
)
def test_every_family_refuses_a_shooter_that_does_not_fit(family, changes, named):
    d = board_set(family, **changes)
    refused(d, f"{family} board: the", "beyond the edge of the surface", named)
    assert Position.from_dict(d, check=False).validate()  # kept unchecked, as other problems


@pytest.mark.parametrize(
    ("family", "changes", "named"),
    [
        ("icf", {"baseline_offset": 0.5}, "baseline_offset 0.5 + baseline_gap 0.0318"),
        ("icf", {"baseline_offset": 0.6}, "baseline_offset 0.6 + baseline_gap 0.0318"),
        ("icf", {"baseline_offset": 0.2, "baseline_gap": 0.2}, "baseline_gap 0.2 = 0.4 m"),
        ("checker", {"shooting_line_offset": 0.5}, "shooting_line_offset 0.5 m"),
        ("checker", {"shooting_line_offset": 0.33}, "shooting_line_offset 0.33 m"),
    ],
)
def test_a_shooting_line_past_the_centre_is_refused(family, changes, named):
    """Was: a baseline (or the Carroms shooting line) beyond the centre, on another player's
    side of the surface, validated and was played from there."""
    d = board_set(family, **changes)
    refused(d, f"{family} board: the", "past the centre", named, "own half")


def test_baselines_longer_than_the_side_are_refused():
    refused(board_set("icf", baseline_length=0.8), "baseline_length 0.8 m", "side 0.74 m")


def test_a_board_with_its_line_past_the_centre_is_not_played(capsys, tmp_path):
    path = tmp_path / "far-line.json"
    path.write_text(json.dumps(board_set("icf", baseline_offset=0.5)))
    code, out, err = run(capsys, "estimate", "--position", str(path), "--n", "4")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: {path}") and "baseline_offset 0.5" in err
    code, _, err = run(capsys, "validate", str(path))
    assert code == 1 and "past the centre" in err


def test_lines_in_their_own_half_still_validate():
    for family, changes in (
        ("icf", {"baseline_offset": 0.3}),
        ("checker", {"shooting_line_offset": 0.3}),
    ):
        Position.from_dict(board_set(family, **changes))


def test_kooba_refuses_position_instead_of_ignoring_it(capsys, tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("carrom!\n")
    for command in ("estimate", "shotmap"):
        code, out, err = run(capsys, command, "--variant", "kooba", "--position", str(junk))
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert err.startswith("error: --position does not apply") and "kooba" in err


def test_huge_diameter_is_refused_in_one_short_line_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        message = refused(board_set("icf", coin_diameter=1e308), "'coin_diameter'", "1e+308")
    assert len(message) < 120


# ------------------------------------------------------------ the document and the strings


def test_document_limits_are_checked_before_parsing(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (schema.MAX_BYTES + 1) + b"{}")
    refused(big, "larger than 262,144 bytes")
    refused('{"format": "carromlab-position", "format": "x"}', "duplicate key 'format'")
    refused(json.dumps(doc("icf")).replace("mid", "\\ud800", 1), "'name' is not valid Unicode")


def test_counts_strings_and_keys_are_bounded():
    d = doc("icf")
    d["pieces"] = [dict(d["pieces"][0], id=f"p{i}") for i in range(schema.MAX_PIECES + 1)]
    refused(d, "'pieces' has 65 items (at most 64)")
    d = doc("icf")
    d["description"] = "x" * 5000
    refused(d, "'description' is too long: 5,000 characters")
    d = doc("icf")
    d["pieces"][1]["id"] = "w" * 100
    refused(d, "pieces[1]", ".id is too long: 100 characters (at most 64)")
    d = doc("icf")
    d["colour"] = "red"
    refused(d, "unknown key(s) colour")


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        (("pieces", 1, "x"), True, ".x must be a number, not true"),
        (("pieces", 1, "y"), None, ".y must be a number, not null"),
        (("pieces", 1, "owner"), False, ".owner must be a string or null, not false"),
        (("board", "peg_count"), True, "'peg_count' must be a whole number, not true"),
        (("board", "side"), "0.66", "'side' must be a number, not '0.66'"),
        (("board", "side"), 0.0, "'side' must be positive, not 0.0"),
        (("board", "hole_skip_speed"), math.nan, "'hole_skip_speed' must be finite, not nan"),
        (("name",), ["a"], "'name' must be a string, not a list of 1 item"),
        (("set_by_hand",), 1, "'set_by_hand' must be true or false, not 1"),
    ],
)
def test_wrong_types_name_the_field_and_the_value(where, value, words):
    d = doc("crokinole")
    target = d
    for k in where[:-1]:
        target = target[k]
    target[where[-1]] = value
    refused(d, words)


# ------------------------------------------------------------ valid files, as before


@pytest.mark.parametrize("name", list(STANDARD))
def test_every_standard_position_file_loads_as_before(name):
    path = ROOT / "data" / "positions" / f"{name}.json"
    pos = Position.load(path)
    assert pos == standard_position(name)
    assert Position.from_json(pos.to_json()).to_dict() == pos.to_dict()


def test_committed_json_schema_is_the_generated_one():
    committed = (ROOT / "docs" / "position.schema.json").read_text()
    assert committed == schema.json_schema_text(), "run: python -m carromlab.position_schema"


def test_standard_positions_satisfy_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema.json_schema())
    for name in STANDARD:
        assert not list(validator.iter_errors(standard_position(name).to_dict())), name
    bad = board_set("crokinole", peg_count=2**31)
    assert list(validator.iter_errors(bad))


def test_validate_cli_end_to_end_one_line_per_bad_file(tmp_path):
    null_side = tmp_path / "null-side.json"
    null_side.write_text(json.dumps(board_set("icf", side=None)))
    not_utf8 = tmp_path / "bytes.json"
    not_utf8.write_bytes(b'{"format": "\xff\xfe"}')
    proc = subprocess.run(
        [sys.executable, "-m", "carromlab.cli", "validate", str(null_side), str(not_utf8)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 2, proc.stderr
    assert lines[0].startswith(f"error: {null_side}: ") and "'side' must be a number" in lines[0]
    assert lines[1].startswith(f"error: {not_utf8}: not UTF-8: byte 0xff")


# ------------------------------------------------------------ fuzz


def _nested(depth: int):
    value: typing.Any = 0.5
    for k in range(depth):
        value = [value] if k % 2 else {"a": value}
    return value


WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**31, 2**63, 10**30, 10**400, -(10**400)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e-40, 1e300, -0.0, 5e-324, 1e308, -1e308]),
    st.text(max_size=12),
    st.sampled_from(["\ud800", "w\udfff", "x" * 5000, "", "\x00", "\u202e", "square", "ditch"]),
    st.integers(min_value=1, max_value=40).map(_nested),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)


def _spots(d: dict) -> list[tuple]:
    """Every (container, key) of a position dict that a mutation may touch."""
    spots: list[tuple] = [(d, k) for k in d]
    if isinstance(d.get("board"), dict):
        spots += [(d["board"], k) for k in d["board"]]
    if isinstance(d.get("pieces"), list):
        spots += [(d["pieces"], i) for i in range(len(d["pieces"]))]
        for p in d["pieces"]:
            if isinstance(p, dict):
                spots += [(p, k) for k in p]
    return spots


@st.composite
def mutated(draw):
    d = doc(draw(st.sampled_from(sorted(BASE))))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        container, key = draw(st.sampled_from(_spots(d)))
        op = draw(st.sampled_from(["set", "set", "set", "delete", "add"]))
        if op == "set":
            container[key] = draw(WEIRD)
        elif op == "delete":
            del container[key]
        elif isinstance(container, dict):
            container[draw(st.text(max_size=6))] = draw(WEIRD)
        else:
            container.append(draw(WEIRD))
    return d, draw(st.sampled_from(["dict", "text", "bytes"])), draw(st.integers(0, 10**6))


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_fuzz_mutated_positions_load_or_are_refused_in_one_line(case):
    d, mode, seed = case
    try:
        if mode == "dict":
            pos = Position.from_dict(copy.deepcopy(d))
        else:
            data = json.dumps(d).encode("utf-8", "surrogatepass")
            if mode == "bytes":  # one byte replaced
                i = seed % len(data)
                data = data[:i] + bytes([seed % 256]) + data[i + 1 :]
            pos = Position.from_dict(schema.loads_bytes(data))
    except CarromlabError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 400, message
        assert isinstance(e, PositionError) or "variant" in message, message
    else:
        assert pos.validate() == []
        Position.from_json(pos.to_json())
