"""The sweep file's schema (``carromlab.sweeps.schema``) and the command line's numeric options
(``carromlab.input_schema``): every failure the fuzzing of both found is a named case refused in
one line that names the key or option and its value, before anything is computed; the
committed JSON Schema is the generated one; fuzzed TOML documents and flag values raise nothing
but :class:`CarromlabError`. Nothing here runs a simulation."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import re
import typing
from pathlib import Path

import pytest
import typer
from cli_run import no_work, run
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from carromlab import input_schema as flags
from carromlab.cli import app
from carromlab.errors import CarromlabError, PositionError
from carromlab.registry import standard_position
from carromlab.sweeps import load_sweep, parse_sweep, schema
from carromlab.sweeps.config import with_board

ROOT = Path(__file__).resolve().parents[1]
FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def one_line(message: str) -> str:
    assert message and "\n" not in message.strip(), message
    return message


# ---------------------------------------------------------------------- the flags, by name

#: (id, command line, what the one line must hold): each a failure the fuzzing found.
FLAG_CASES = [
    ("seed-2**63", ["estimate", "--seed", str(2**63)], "--seed 9223372036854775808: must be"),
    ("seed-negative", ["estimate", "--seed", "-1"], "--seed -1: must be at least 0"),
    ("seed-negative-play", ["play", "--seed", "-5"], "--seed -5: must be at least 0"),
    ("population-negative", ["best", "--population", "-1"], "--population -1: must be at"),
    ("n-10**12", ["estimate", "--n", str(10**12)], "--n 1000000000000: must be at most"),
    ("n-grid-huge", ["best", "--n-grid", str(10**12)], "--n-grid 1000000000000: must be at"),
    ("angle-1e300", ["estimate", "--angle", "1e300"], "--angle 1e+300: must be at most 360"),
    ("angle-nan", ["estimate", "--angle", "nan"], "--angle nan: must be finite"),
    ("speed-inf", ["estimate", "--speed", "inf"], "--speed inf: must be finite"),
    ("placement-huge", ["estimate", "--placement", "1e9"], "--placement 1000000000.0: must be"),
    ("hand-set-negative", ["estimate", "--hand-set", "-1"], "--hand-set -1.0: must be at least"),
    ("kooba-aim-nan", ["estimate", "--variant", "kooba", "--aim", "nan,0"], "--aim 'nan,0': nan"),
    ("kooba-aim-far", ["estimate", "--variant", "kooba", "--aim", "0,1e9"], "--aim '0,1e9'"),
    ("kooba-slide-inf", ["estimate", "--variant", "kooba", "--slide", "inf"], "--slide (kooba)"),
    ("kooba-sticks-huge", ["estimate", "--variant", "kooba", "--sticks", "10**9"], "--sticks"),
    ("kooba-aims-empty", ["shotmap", "--variant", "kooba", "--aims", ""], "--aims '': must not"),
    (
        "kooba-aims-throws",
        ["shotmap", "--variant", "kooba", "--aims", "-0.2:0.2:1000", "--n", "100"],
        "100,000,000 throws, more than 5,000,000",
    ),
    ("placements-empty", ["shotmap", "--placements", ""], "--placements '': must not be empty"),
    ("angles-empty", ["shotmap", "--angles", " "], "--angles ' ': must not be empty"),
    (
        "grid-count-10**8",
        ["shotmap", "--angles", "0:1:100000000"],
        "--angles '0:1:100000000': 100,000,000 values, at most 1,000,000",
    ),
    (
        "grid-cells-huge",
        ["shotmap", "--angles", "0:1:1000", "--placements", "-0.1:0.1:1000", "--speeds", "1,2"],
        "shotmap: 2,000,000 cells",
    ),
    (
        "grid-run-over-int32",
        ["shotmap", "--angles", "0:1:1000", "--placements", "-0.1:0.1:1000", "--n", "10000"],
        "10,000,000,000 shots in one kernel run",
    ),
    ("grid-angle-inf", ["shotmap", "--angles", "0,inf"], "--angles '0,inf': inf must be finite"),
    ("speeds-zero", ["best", "--speeds", "0,1"], "--speeds '0,1': 0.0 must be positive"),
    (
        "best-refinement-over-int32",
        ["best", "--population", "100000", "--n-cem", "100000"],
        "population x n_cem",
    ),
    ("games-zero", ["play", "--games", "0"], "--games 0: must be at least 1"),
    ("slots-huge", ["play", "--slots", "10000000"], "--slots 10000000: must be at most"),
    ("boards-huge", ["play", "--variant", "icf", "--boards", "10000000"], "--boards (icf)"),
    ("batch-huge", ["bench", "--batch", str(10**12)], "--batch 1000000000000: must be at most"),
    ("dpi-huge", ["draw", "icf-opening", "-o", "x.png", "--dpi", "10**7"], None),
    ("demo-n-negative", ["demo", "--n", "-5"], "--n -5: must be at least 1"),
]


@pytest.mark.parametrize(
    ("args", "needle"), [c[1:] for c in FLAG_CASES], ids=[c[0] for c in FLAG_CASES]
)
def test_flag_regressions_are_one_line_before_any_work(capsys, tmp_path, args, needle):
    """Refused before any work: the command's work (``no_work``) is never called."""
    args = [a.replace("x.png", str(tmp_path / "x.png")) for a in args]
    if "10**" in " ".join(args):  # typer reads digits only
        args = [str(10 ** int(a[4:])) if a.startswith("10**") else a for a in args]
    with no_work():
        code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("error: "), err
    one_line(err)
    if needle is not None:
        assert needle in err, err
    assert not (tmp_path / "x.png").exists()


def test_every_numeric_option_of_the_command_line_has_a_bound():
    """Every int and float option of every command is in input_schema.FLAGS (so a new one
    cannot go unbounded), every grid option in GRIDS; typer's own ranges are gone, so the
    bounds are checked in one place (one line, not typer's usage text)."""
    callbacks = [c.callback for c in app.registered_commands]
    callbacks += [
        c.callback for g in app.registered_groups for c in g.typer_instance.registered_commands
    ]
    seen = set()
    for callback in callbacks:
        hints = typing.get_type_hints(callback)
        for name, param in inspect.signature(callback).parameters.items():
            info = param.default
            if hints.get(name) in (int, float) and isinstance(info, typer.models.OptionInfo):
                assert name in flags.FLAGS, (callback.__name__, name)
                assert info.min is None and info.max is None, (callback.__name__, name)
                seen.add(name)
            if name in ("placements", "angles", "speeds"):
                assert name in flags.GRIDS
    assert {"seed", "n", "angle", "speed", "placement", "population", "games", "slots"} <= seen
    assert {"dpi", "batch", "lanes", "cores", "workers", "job_size", "n_cem", "top"} <= seen


def test_the_seed_bound_is_what_the_kernel_keys_tell_apart():
    """jax.random.key keeps a seed's low 32 bits (JAX's default 32-bit mode): 2**32 would
    repeat seed 0, so the bound is 2**32 - 1."""
    import jax

    data = jax.random.key_data
    assert (data(jax.random.key(2**32)) == data(jax.random.key(0))).all()
    assert not (data(jax.random.key(flags.MAX_SEED)) == data(jax.random.key(0))).all()
    assert flags.MAX_SEED == 2**32 - 1 and flags.FLAGS["seed"].problem(2**32) is not None


def test_max_speed_is_the_analysis_layers():
    from carromlab.analysis import variants

    assert variants.MAX_SPEED == flags.MAX_SPEED == flags.SPEED.hi


# ---------------------------------------------------------------------- the sweep file, by name

BASE = 'n = 8\n[grid]\nvariant = "icf"\n'

#: (id, TOML text, what the one line must hold): each a failure the fuzzing found.
TOML_CASES = [
    ("mu-inf", BASE + "[grid.physics]\nmu = inf\n", "grid.physics.mu = inf: must be finite"),
    ("mu-huge", BASE + "[grid.physics]\nmu = 50.0\n", "grid.physics.mu = 50.0: must be at most 2"),
    ("e-piece-2", BASE + "[grid.physics]\ne_piece = 2\n", "grid.physics.e_piece = 2: must be at"),
    ("e-cushion-1e6", BASE + "[grid.physics]\ne_cushion = 1e6\n", "e_cushion = 1000000.0: must"),
    ("mu-nan-range", BASE + "[grid.physics]\nmu = {start = 0, stop = nan, count = 2}\n", "nan"),
    ("mu-range-out", BASE + "[grid.physics]\nmu = {start = 0, stop = 9, count = 3}\n", "= 9.0"),
    (
        "coin-mass-inf",
        BASE + "[grid.equipment]\ncoin_mass = inf\n",
        "grid.equipment.coin_mass = inf: must be finite",
    ),
    (
        "coin-mass-heavy",
        BASE + "[grid.equipment]\ncoin_mass = 1e6\n",
        "grid.equipment.coin_mass = 1000000.0: must be at most 10 kg",
    ),
    (
        "queen-covered-nan",
        BASE + "[grid.scoring]\nqueen_covered = nan\n",
        "grid.scoring.queen_covered = nan: must be finite",
    ),
    ("turn-inf", BASE + "[grid.turn]\ndues = inf\n", "grid.turn.dues = inf: must be finite"),
    (
        "angle-count-10**8",
        BASE + "angle = {start = 0, stop = 1, count = 100000000}\n",
        "grid.angle.count = 100000000: must be at most 1,000,000 values",
    ),
    ("angle-1e300", BASE + "angle = [1e300]\n", "grid.angle = 1e+300: must be at most 360"),
    ("speed-inf", BASE + "speed = inf\n", "grid.speed = inf: must be finite"),
    (
        "tasks-over-cap",
        BASE + "angle = {start = 0, stop = 1, count = 1000}\nspeed = "
        "{start = 1, stop = 2, count = 1001}\n",
        "grid: 1,001,000 tasks",
    ),
    (
        "shots-over-cap",
        'n = 100000000\n[grid]\nvariant = "icf"\nangle = {start = 0, stop = 1, count = 101}\n',
        "n = 100,000,000: 101 tasks x 100,000,000 shots",
    ),
    ("seed-2**63", "seed = 9223372036854775808\n" + BASE, "seed = 9223372036854775808: must be"),
    ("seed-negative", "seed = -1\n" + BASE, "seed = -1: must be at least 0"),
    ("n-zero", BASE.replace("n = 8", "n = 0"), "n = 0: must be at least 1"),
    ("n-float", BASE.replace("n = 8", "n = 8.0"), "n = 8.0: must be a whole number"),
    ("captures-int", "captures = 1\n" + BASE, "captures = 1: must be true or false"),
    ("confidence-1", "confidence = 1.0\n" + BASE, "confidence = 1.0: must be below 1"),
    ("name-table", "name = {a = 1}\n" + BASE, "name = a table of 1 key: must be a string"),
    ("variant-int", BASE.replace('"icf"', "3"), "grid.variant = 3: must be a string"),
    ("peg-count-huge", BASE + "[grid.equipment]\npeg_count = 2147483648\n", "at most 64 pegs"),
    ("datetime", "seed = 1979-05-27\n" + BASE, "seed = datetime.date(1979, 5, 27): must be"),
]


@pytest.mark.parametrize(
    ("text", "needle"), [c[1:] for c in TOML_CASES], ids=[c[0] for c in TOML_CASES]
)
def test_sweep_regressions_are_one_line_naming_key_and_value_before_values_are_made(
    monkeypatch, tmp_path, text, needle
):
    """Refused before a range of more than ``MAX_COUNT`` values is made (a count of 10**8
    was made whole, 150 s, before it was refused) and before any task is."""
    from carromlab.sweeps import config

    made, make = [], config.values
    monkeypatch.setattr(
        config, "values", lambda v, *a: made.append(schema.length(v)) or make(v, *a)
    )
    monkeypatch.setattr(config.Sweep, "tasks", lambda self: pytest.fail("tasks made"))
    path = tmp_path / "sweep.toml"
    path.write_text(text)
    with pytest.raises(CarromlabError) as e:
        load_sweep(path)
    assert all(k <= flags.MAX_COUNT for k in made), made
    message = one_line(str(e.value))
    assert message.startswith(f"{path}: ") and needle in message, message


def test_sweep_file_that_is_not_utf8_or_a_folder_is_one_line(tmp_path, capsys):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(BASE.encode() + b'name = "caf\xe9"\n')
    big = tmp_path / "big.toml"
    big.write_bytes(BASE.encode() + b"#" * schema.MAX_BYTES)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    deep = tmp_path / "deep.toml"
    deep.write_text(BASE + "angle = " + "[" * 5000 + "]" * 5000 + "\n")
    long_int = tmp_path / "long.toml"
    long_int.write_text("seed = " + "9" * 5000 + "\n" + BASE)
    for path, needle in [
        (bad, "not UTF-8: byte 0xe9 at offset"),
        (big, "larger than 1,048,576 bytes"),
        (folder, "a folder, not a sweep file"),
        (deep, "not valid TOML"),
        (long_int, "not valid TOML"),
        (tmp_path / "none.toml", "no such sweep file"),
    ]:
        with pytest.raises(CarromlabError, match=re.escape(needle)) as e:
            load_sweep(path)
        one_line(str(e.value))
    for path in (bad, folder):
        code, _, err = run(capsys, "sweep", str(path), "--out", str(tmp_path / "out"))
        assert code == 2 and err.startswith(f"error: {path}: "), err
        one_line(err)


def test_with_board_goes_through_the_position_schema():
    pos = standard_position("icf-midgame")
    assert with_board(pos, (("pocket_diameter", 0.046),)).board.pocket_diameter == 0.046
    for field, value, needle in [
        ("coin_mass", math.inf, "must be finite"),
        ("coin_mass", 1e6, "is too large"),
        ("pocket_diameter", "wide", "must be a number"),
    ]:
        with pytest.raises(PositionError, match=needle):
            with_board(pos, ((field, value),))


def test_valid_sweeps_keep_their_tasks_and_types():
    """The schema changes no valid sweep: floats where numbers were given as integers, the
    file's order of group fields, ranges made as before."""
    raw = {
        "grid": {
            "variant": "icf",
            "physics": {"e_piece": 1, "mu": {"start": 0, "stop": 0.2, "count": 3}},
            "equipment": {"pocket_diameter": [0.0445, 0.05]},
            "scoring": {"own_coin": [1, 0.5]},
            "angle": 90,
        }
    }
    sweep = parse_sweep(raw)
    assert sweep.axes["physics"] == {"e_piece": [1.0], "mu": [0.0, 0.1, 0.2]}
    assert sweep.axes["scoring"] == {"own_coin": [1, 0.5]}  # as given (the digest's input)
    assert sweep.axes["angle"] == [90.0] and sweep.axes["speed"] == [2.0]
    tasks = sweep.tasks()
    assert len(tasks) == 2 * 3 * 2 and tasks[0].physics == (("e_piece", 1.0), ("mu", 0.0))


def test_physics_fields_have_bounds_and_equipment_takes_the_position_schemas():
    from carromlab.physics import Physics
    from carromlab.position_schema import MASS

    assert set(flags.PHYSICS) == {f.name for f in dataclasses.fields(Physics)}
    default = Physics()
    for name, limit in flags.PHYSICS.items():  # the defaults lie inside
        assert limit.problem(getattr(default, name)) is None, name
    props = schema.json_schema()["$defs"]["EquipmentAxes"]["properties"]
    one = props["coin_mass"]["oneOf"][-1]
    assert (one["minimum"], one["maximum"]) == (MASS.lo, MASS.hi)


def test_committed_sweep_json_schema_is_the_generated_one():
    committed = (ROOT / "docs" / "sweep.schema.json").read_text()
    assert committed == schema.json_schema_text(), "run: python -m carromlab.sweeps.schema"


def test_sweep_files_satisfy_the_json_schema():
    import tomllib

    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema.json_schema())
    for path in sorted((ROOT / "experiments" / "sweeps").glob("*.toml")):
        validator.validate(tomllib.loads(path.read_text()))
    for bad in [{"seed": -1}, {"grid": {"physics": {"e_piece": 2}}}, {"spin": 1}]:
        assert not validator.is_valid(bad), bad


# ---------------------------------------------------------------------- fuzz: flag values

SPECIAL = [0, 1, -1, 2**31, 2**32, 2**63, 10**12, 0.0, -0.0, 1e300, -1e300, 5e-324, 360.0001]
WEIRD_NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([*SPECIAL, 10**400, 15.0001]),
    st.floats(allow_nan=True, allow_infinity=True),
)


@FUZZ
@given(st.sampled_from(sorted(flags.FLAGS)), WEIRD_NUMBERS)
def test_fuzz_flag_values_pass_within_bounds_or_are_one_line(name, value):
    limit = flags.FLAGS[name]
    if limit.kind is int and isinstance(value, float):
        value = int(value) if math.isfinite(value) else 0
    try:
        flags.check_flags(**{name: value})
    except CarromlabError as e:
        assert one_line(str(e)).startswith(flags.flag(name) + " ")
    else:
        assert math.isfinite(value) and limit.problem(value) is None


GRID_TEXT = st.text(alphabet="0123456789.:-,e+naif ", max_size=24)


@FUZZ
@given(st.sampled_from(sorted(flags.GRIDS)), GRID_TEXT)
def test_fuzz_grid_and_point_specs_are_bounded_or_one_line(what, text):
    try:
        values = flags.parse_grid(text, what)
    except CarromlabError as e:
        assert one_line(str(e)).startswith(f"--{what}")
    else:
        assert 1 <= len(values) <= flags.MAX_CELLS
        assert all(flags.GRIDS[what].problem(v) is None for v in values)
    try:
        x, y = flags.parse_pair(text, "aim")
    except CarromlabError as e:
        assert one_line(str(e)).startswith("--aim")
    else:
        assert flags.POINT.problem(x) is None and flags.POINT.problem(y) is None


#: Commands and the options they bound; values drawn outside the bounds are refused first.
COMMANDS = {
    "estimate": ["seed", "n", "angle", "speed", "placement", "hand_set", "chunk"],
    "shotmap": ["seed", "n", "chunk", "hand_set"],
    "best": ["seed", "n", "n_grid", "n_cem", "population", "top", "iterations", "chunk"],
    "play": ["seed", "games", "slots"],
    "bench": ["seed", "batch", "chunk", "peer_shots", "lanes", "cores"],
}


@st.composite
def out_of_bounds(draw):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    name = draw(st.sampled_from(COMMANDS[command]))
    limit = flags.FLAGS[name]
    if limit.kind is int:
        value = draw(
            st.one_of(
                st.integers(max_value=int(limit.lo) - 1, min_value=-(2**80)),
                st.integers(min_value=int(limit.hi) + 1, max_value=2**80),
            )
        )
    else:
        value = draw(
            st.one_of(
                st.sampled_from([math.inf, -math.inf, math.nan]),
                st.floats(min_value=limit.hi, exclude_min=True, allow_infinity=False),
                st.floats(max_value=limit.lo, exclude_max=limit.lo_open is False),
            )
        )
    return command, name, value


@settings(
    FUZZ,
    max_examples=40,
    suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture],
)
@given(out_of_bounds())
def test_fuzz_out_of_bounds_flags_exit_2_with_one_line(capsys, case):
    command, name, value = case
    flag = flags.flag(name)
    code, _, err = run(capsys, command, f"{flag}={value!r}")
    assert code == 2 and err.startswith(f"error: {flag} "), err
    one_line(err)


# ---------------------------------------------------------------------- fuzz: TOML documents

WEIRD = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(SPECIAL),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["icf", "carrooka", "club", "icf-midgame", "red", "", "nowhere.json"]),
    st.lists(st.one_of(st.floats(), st.integers(), st.text(max_size=3)), max_size=4),
    st.fixed_dictionaries(
        {
            "start": st.floats(),
            "stop": st.floats(),
            "count": st.one_of(st.integers(-3, 5), st.sampled_from([10**6, 10**6 + 1, 10**8])),
        }
    ),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
#: Values a key may well take: the fuzz reaches the checks behind the schema's.
PLAUSIBLE = st.one_of(
    st.sampled_from([0.05, 0.5, 0.9, 1, 2, 3.0, True, "club", "pro", "red", "icf-midgame"]),
    st.lists(st.floats(min_value=0.01, max_value=1.0), min_size=1, max_size=3, unique=True),
    st.builds(
        lambda a, b, k: {"start": a, "stop": b, "count": k},
        st.floats(0.0, 1.0),
        st.floats(0.0, 1.0),
        st.integers(1, 4),
    ),
)
VALUES = st.one_of(PLAUSIBLE, WEIRD)
GRID_KEYS = ["variant", "position", "skill", "placement", "angle", "speed", "spin"]
GROUP_KEYS = {
    "physics": ["mu", "e_piece", "e_cushion", "g", "rail_graze", "muu"],
    "equipment": ["coin_mass", "pocket_diameter", "peg_count", "surround", "side", "wobble"],
    "turn": ["on", "dues", "shooter", "is_break", "x"],
    "scoring": ["queen_covered", "own_coin", "foul", "x"],
}


@st.composite
def sweep_documents(draw):
    doc = {
        "n": 8,
        "grid": {
            "variant": draw(st.sampled_from(["icf", "carrooka", "ring-pegs", ["icf", "carroms"]])),
            "angle": [80.0, 90.0],
        },
    }
    grid = doc["grid"]
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["top", "grid", *GROUP_KEYS]))
        if where == "top":
            doc[draw(st.sampled_from([*schema.TOP_KEYS[:-1], "spin"]))] = draw(VALUES)
        elif where == "grid":
            grid[draw(st.sampled_from(GRID_KEYS))] = draw(VALUES)
        else:
            table = grid.setdefault(where, {})
            table[draw(st.sampled_from(GROUP_KEYS[where]))] = draw(VALUES)
    return doc, draw(st.sampled_from(["text", "text", "bytes"])), draw(st.integers(0, 10**6))


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else repr(v)
    if isinstance(v, str):  # a TOML basic string (JSON's escapes, DEL escaped too)
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{toml_value(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


@settings(FUZZ, max_examples=400)
@given(sweep_documents())
def test_fuzz_sweep_documents_load_or_are_refused_in_one_line(tmp_path_factory, case):
    doc, mode, seed = case
    text = "\n".join(f"{k} = {toml_value(v)}" for k, v in doc.items()) + "\n"
    data = text.encode("utf-8", "surrogatepass")
    if mode == "bytes":  # one byte replaced
        i = seed % len(data)
        data = data[:i] + bytes([seed % 256]) + data[i + 1 :]
    path = tmp_path_factory.mktemp("fuzz") / "sweep.toml"
    path.write_bytes(data)
    try:
        sweep = load_sweep(path)
    except CarromlabError as e:
        assert one_line(str(e)).startswith(f"{path}: "), str(e)
        event(str(e)[len(str(path)) + 2 :].split(" ")[0].split(".")[0])  # what refused it
    else:
        event("loaded")
        sizes = [len(sweep.axes[a]) for a in ("skill", *schema.SHOT_AXES) if a in sweep.axes]
        sizes += [len(v) for g in schema.GROUPS for v in sweep.axes.get(g, {}).values()]
        assert 1 <= sweep.n <= flags.MAX_SHOTS and 0 <= sweep.seed <= flags.MAX_SEED
        assert math.prod(sizes) <= flags.MAX_CELLS
        for v in sweep.axes.get("physics", {}).values():
            assert all(math.isfinite(x) for x in v)
        for axis in schema.SHOT_AXES:
            assert all(math.isfinite(x) for x in sweep.axes.get(axis, []))
