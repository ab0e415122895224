"""Units that cannot be mistaken and errors before any work (issue 22): angles in degrees or
with a unit (``65.9deg``, ``1.15rad``), a warning for plain angles that look like radians,
placements whose unit (metres on a line, degrees on a circle) every refusal names, board
points refused off the board with the board's size in one short line, a misspelt ``--value``
answered with the closest names, and every name refused before JAX is imported.

Nothing here runs the kernel except ``test_value_names_are_the_columns_of_a_real_map`` (one
cell, one shot); where a command would compute, the computation is replaced by a stand-in
that reports what it was given."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_run import no_work, run

from carromlab import cli
from carromlab import input_schema as schema
from carromlab.cli import checks, shots
from carromlab.errors import CarromlabError

ROOT = Path(__file__).resolve().parents[1]


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------------- names, before JAX

#: Runs the command lines given as JSON in argv[1] through the CLI in one fresh process and
#: prints, for each, its exit code, its stderr's last line, its number of lines and whether
#: JAX (and numpy's compiled core, pandas) was imported by then.
PROBE = textwrap.dedent(
    """
    import contextlib, io, json, sys
    from carromlab.cli import main
    out = []
    for args in json.loads(sys.argv[1]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                main(args)
                code = 0
            except SystemExit as e:
                code = e.code
        lines = err.getvalue().strip().splitlines() or [""]
        out.append([code, lines[-1], len(lines), "jax" in sys.modules, "pandas" in sys.modules])
    print(json.dumps(out))
    """
)


def probe(*cases: list[str]) -> list:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(list(cases))],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,  # only against a hang
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_bad_variant_is_refused_in_a_fresh_process_before_jax_or_pandas_is_imported():
    """What made the refusal quick (it used to be timed): nothing heavy is imported first."""
    (result,) = probe(["estimate", "--variant", "carom"])
    code, line, lines, jax, pandas = result
    assert code == 2 and lines == 1
    assert line.startswith("error: unknown game or variant 'carom'; did you mean carroms")
    assert not jax and not pandas


BAD_NAMES = [
    (["shotmap", "--variant", "carom", "--out", "{tmp}/a"], "unknown game or variant 'carom'"),
    (["best", "--variant", "carom"], "unknown game or variant 'carom'"),
    (["play", "--variant", "carom", "--out", "{tmp}/b"], "unknown game or variant 'carom'"),
    (["estimate", "--skill", "klub"], "unknown skill 'klub'; did you mean club?"),
    (["best", "--skill", "klub"], "unknown skill 'klub'; did you mean club?"),
    (["play", "--skill", "klub", "--out", "{tmp}/c"], "unknown skill 'klub'"),
    (["play", "--policy", "greedyy", "--out", "{tmp}/d"], "did you mean greedy"),
    (["estimate", "--position", "nope"], "'nope' is neither a position file"),
    (
        ["shotmap", "--position", "icf-opening", "--variant", "carroms", "--out", "{tmp}/e"],
        "is for",
    ),
    (["shotmap", "--value", "pointz", "--out", "{tmp}/f"], "did you mean points?"),
    (["best", "--value", "p_contnues"], "did you mean p_continues"),
    (["shotmap", "--variant", "carrooka", "--nominate", "blu", "--out", "{tmp}/g"], "blu"),
    (["estimate", "--variant", "carrooka", "--striker", "12,20"], "off the carrooka board"),
    (["estimate", "--angle", "65.9dg"], "unknown unit 'dg'"),
    (["bench", "--scenario", "brek"], "did you mean break?"),
    (["bench", "--scenario", "boards", "--policy", "lookahed"], "did you mean lookahead"),
    (["bench", "--contacts", "clustre"], "did you mean cluster?"),
    (["bench", "--device", "tpu"], "unknown device 'tpu'"),
]


def test_every_bad_name_is_refused_in_one_line_before_jax_is_imported(tmp_path):
    cases = [[a.replace("{tmp}", str(tmp_path)) for a in args] for args, _ in BAD_NAMES]
    results = probe(*cases)
    for (args, needle), (code, line, lines, jax, _) in zip(BAD_NAMES, results):
        assert code == 2 and lines == 1 and line.startswith("error: "), (args, line)
        assert needle in line, (args, line)
        assert not jax, (args, "imported JAX")
    assert not any((tmp_path / x).exists() for x in "abcdefg")


def test_the_checks_names_lists_are_the_libraries():
    from carromlab.physics.kernel import CONTACT_MODELS
    from carromlab.shots import SKILLS, THROW_SKILLS

    assert schema.SKILL_NAMES == tuple(SKILLS) == tuple(THROW_SKILLS)
    assert set(schema.CONTACT_MODEL_NAMES) == set(CONTACT_MODELS)


def test_the_rules_found_without_jax_are_the_analysis_rules():
    from carromlab.registry import GAMES, rules_class

    for game in GAMES.values():
        for variant in game.variants:
            found = rules_class(variant)
            if game.analysis is None:
                assert found is None
            else:
                assert found is type(game.analysis(variant).rules), variant


def test_value_names_are_the_columns_of_a_real_map():
    """The names --value is checked against before the run are a shot map's columns."""
    from carromlab.analysis import shot_map
    from carromlab.registry import standard_position

    pos = standard_position("icf-midgame")
    ids = tuple(p.id for p in pos.pieces if p.kind != "striker")
    df = shot_map(pos, [0.0], [90.0], [2.0], n=1, pieces=ids, per_pocket=True)
    columns = {c for c in df.columns if not c.endswith(("_lo", "_hi"))}
    names = set(checks.value_names("icf", pos, per_pocket=True))
    assert names == columns - {"placement", "angle", "speed", "n"}


def test_a_misspelt_value_names_the_closest_in_one_short_line(capsys, tmp_path):
    code, _, err = run(capsys, "shotmap", "--value", "p_foul.striker", "--out", str(tmp_path))
    line = one_line(err)
    assert code == 2 and "did you mean p_foul.striker_pocketed" in line
    assert "p_capture:<piece>[:<pocket>]" in line and len(line) < 400
    code, _, err = run(capsys, "best", "--value", "p_capture:w11")
    assert code == 2 and "did you mean p_capture:w1" in one_line(err)


# ---------------------------------------------------------------------- angles


@pytest.mark.parametrize(
    "text, degrees, kind",
    [
        ("65.9", 65.9, None),
        ("65.9deg", 65.9, "angle"),
        ("65.9 deg", 65.9, "angle"),
        ("65.9°", 65.9, "angle"),
        ("1.15rad", math.degrees(1.15), "angle"),
        ("-1.5deg", -1.5, "angle"),
        ("1e2", 100.0, None),
    ],
)
def test_an_angle_reads_degrees_or_a_unit(text, degrees, kind):
    q = schema.parse_value(text, "angle")
    assert float(q) == pytest.approx(degrees) and q.kind == kind and q.text == text


@pytest.mark.parametrize(
    "text, needle",
    [
        ("5m", "--angle '5m': m is a unit of length; an angle takes deg or rad"),
        ("65.9dg", "unknown unit 'dg'"),
        ("north", "--angle 'north': must be a number"),
        ("10rad", "--angle 10rad (572.958 deg): must be at most 360 degrees"),
        ("1e300", "--angle 1e+300: must be at most 360 degrees"),
        ("nan", "--angle nan: must be finite"),
    ],
)
def test_a_bad_angle_is_one_line_naming_the_units(text, needle):
    with pytest.raises(CarromlabError) as e:
        schema.parse_value(text, "angle")
    assert needle in one_line(str(e.value))


def test_grids_take_units_on_their_ends():
    deg = schema.parse_grid_spec("30deg:150deg:61", "angles")
    rad = schema.parse_grid_spec("0.5236rad:2.618rad:61", "angles")
    plain = schema.parse_grid_spec("30:150:61", "angles")
    assert plain.plain and deg.kind == rad.kind == "angle"
    assert deg.values == plain.values
    assert rad.values == pytest.approx(plain.values, abs=1e-3)
    assert schema.parse_grid("0.5rad,90", "angles") == pytest.approx([28.6479, 90.0], abs=1e-4)
    assert schema.parse_grid("-18cm:18cm:3", "placements") == pytest.approx([-0.18, 0, 0.18])
    assert schema.parse_pair("12cm,-20mm", "striker") == pytest.approx((0.12, -0.02))
    for text, needle in [
        ("0.1m,-90deg", "mixes units of angle and length"),
        ("-18cm:18cm:3", "cm is a unit of length"),
        ("10rad:20rad:3", "10rad is 572.958 deg, which must be at most 360"),
    ]:
        what = "placements" if "deg" in text else "angles"
        with pytest.raises(CarromlabError, match=needle):
            schema.parse_grid(text, what)


def test_plain_angles_below_two_pi_look_like_radians():
    assert schema.looks_like_radians([1.15]) and schema.looks_like_radians([0.5, 2.6])
    assert not schema.looks_like_radians([0.0]) and not schema.looks_like_radians([30, 150])
    assert not schema.looks_like_radians([0.5, 90.0])
    line = schema.radians_warning("1.15", "angle", [1.15])
    assert line == (
        "warning: --angle 1.15 looks like radians (a plain number is degrees); write 1.15rad "
        "if radians were meant (= 65.9deg), or 1.15deg to silence this"
    )
    line = schema.radians_warning("0.5:2.6:61", "angles", [0.5, 2.6])
    assert "write 0.5rad:2.6rad:61 if radians were meant (= 28.6deg to 149deg)" in line
    assert "or 0.5deg:2.6deg:61 to silence this" in line


def _stop_estimate(monkeypatch):
    """Replace the kernel run of ``estimate`` by a stand-in that reports the shot it got."""
    import carromlab.analysis

    def stand_in(pos, shot, **kw):
        raise CarromlabError(f"stand-in: x={shot.x:.4f} angle={math.degrees(shot.angle):.2f} deg")

    monkeypatch.setattr(carromlab.analysis, "estimate", stand_in)


def test_estimate_reads_angle_units_and_warns_on_radians(capsys, monkeypatch):
    _stop_estimate(monkeypatch)
    _, _, err = run(capsys, "estimate", "--angle", "1.15")
    warning, stop = err.strip().splitlines()
    assert warning.startswith("warning: --angle 1.15 looks like radians")
    assert "angle=1.15 deg" in stop
    for text in ("1.15rad", "65.89deg"):
        _, _, err = run(capsys, "estimate", "--angle", text, "--placement", "-5cm")
        assert "angle=65.89 deg" in one_line(err) and "x=-0.0500" in err
    _, _, err = run(capsys, "estimate", "--angle", "1.15deg")  # silenced
    assert "angle=1.15 deg" in one_line(err)


def _stop_map(monkeypatch, summary=None):
    """Replace the shot map's computation by a stand-in that records its grid."""
    got = {}

    def stand_in(position, variant, placements, angles, speeds, *args, **kw):
        got.update(placements=placements, angles=angles, speeds=speeds)
        return summary or {"out": "x", "cells": 1, "shots": 1, "value": "points"}

    monkeypatch.setattr(shots, "run_shotmap", stand_in)
    return got


def test_shotmap_reads_angle_units_and_warns_once_on_radians(capsys, monkeypatch, tmp_path):
    got = _stop_map(monkeypatch)
    out = ["--out", str(tmp_path)]
    code, _, err = run(capsys, "shotmap", "--angles", "0.5:2.6:3", *out)
    assert code == 0 and got["angles"] == pytest.approx([0.5, 1.55, 2.6])
    assert [x for x in err.splitlines() if x.startswith("warning:")] == [
        "warning: --angles 0.5:2.6:3 look like radians (a plain number is degrees); write "
        "0.5rad:2.6rad:3 if radians were meant (= 28.6deg to 149deg), or 0.5deg:2.6deg:3 "
        "to silence this"
    ]
    code, _, err = run(capsys, "shotmap", "--angles", "0.5rad:2.6rad:3", *out)
    assert code == 0 and "warning" not in err
    assert got["angles"] == pytest.approx([28.648, 88.808, 148.969], abs=1e-3)
    code, _, err = run(capsys, "shotmap", "--angles", "30:150:3", *out)
    assert code == 0 and "warning" not in err


def test_aims_behind_the_baseline_are_refused_on_a_line_board(capsys, monkeypatch, tmp_path):
    """docs/decisions.md: the laws forbid striking a piece behind the baseline directly and
    the rules do not judge it, so an aim from a line must point forward."""
    _stop_estimate(monkeypatch)
    code, _, err = run(capsys, "estimate", "--angle", "250")
    line = one_line(err)
    assert code == 2 and "the aim does not point forward" in line
    assert "between 0 and 180 deg" in line and "docs/decisions.md" in line
    _stop_map(monkeypatch)
    code, _, err = run(capsys, "shotmap", "--angles", "0:360:73", "--out", str(tmp_path))
    assert code == 2 and "38 of 73 aims do not point forward" in one_line(err)
    # Carrooka plays all round from the striker: no such bound
    code, _, err = run(capsys, "estimate", "--variant", "carrooka", "--angle", "250")
    assert "stand-in" in one_line(err)


# ---------------------------------------------------------------------- placements, points


@pytest.mark.parametrize(
    "args, needles",
    [
        (["--placement", "10deg"], ["on the icf board a placement is in metres", "not an angle"]),
        (["--placement", "5"], ["5 m lies off the icf board (x from -0.37 to 0.37 m", "12cm"]),
        (["--placement", "0.3"], ["striker at x=0.3000 m is not a legal placement"]),
        (
            ["--variant", "force-out", "--placement", "0.1m"],
            ["on the force-out board a placement is in degrees", "not a length"],
        ),
        (
            ["--variant", "force-out", "--placement", "0.1deg"],
            ["no legal shooter placement", "force-out placements are degrees", "-130:-50:9"],
        ),
        (
            ["--variant", "carroms", "--placement", "25cm", "--position", "carroms-opening"],
            ["no legal shooter placement", "carroms placements are metres", "legal: "],
        ),
    ],
)
def test_every_placement_refusal_names_the_boards_unit(capsys, monkeypatch, args, needles):
    _stop_estimate(monkeypatch)
    code, _, err = run(capsys, "estimate", *args)
    line = one_line(err)
    assert code == 2 and "stand-in" not in line
    for needle in needles:
        assert needle in line, line


def test_a_plain_placement_on_a_circle_that_looks_like_radians_warns(capsys, monkeypatch):
    _stop_estimate(monkeypatch)
    _, _, err = run(capsys, "estimate", "--variant", "force-out", "--placement", "-1.57")
    warning, refusal = err.strip().splitlines()
    assert warning.startswith("warning: --placement -1.57 looks like radians")
    assert "degrees" in refusal
    _, _, err = run(capsys, "estimate", "--variant", "force-out", "--placement", "-1.57rad")
    assert "stand-in" in one_line(err)  # -90 deg: legal, and no warning


def test_placements_off_the_board_are_one_short_line_with_the_size(capsys, tmp_path):
    code, _, err = run(capsys, "shotmap", "--placements=-18:18:13", "--out", str(tmp_path))
    line = one_line(err)
    assert code == 2 and len(line) < 250
    assert "12 of 13 placements lie off the icf board (x from -0.37 to 0.37 m" in line
    assert "placements are metres" in line and "...and 8 more" in line


@pytest.mark.parametrize(
    "args, needles",
    [
        (
            ["estimate", "--variant", "carrooka", "--striker", "12,20"],
            ["the point lies off the carrooka board, a circle of radius 0.4 m", "metres"],
        ),
        (
            ["estimate", "--variant", "kooba", "--aim", "0.3,0.4"],
            ["off the kooba board, x and y from -0.29 to 0.29 m: (0.3, 0.4) m"],
        ),
        (
            ["shotmap", "--variant", "kooba", "--aims", "-27:27:28"],
            ["28 of 28 values lie off the kooba board", "...and 24 more", "12cm"],
        ),
    ],
)
def test_board_points_off_the_board_are_refused_with_its_size(capsys, tmp_path, args, needles):
    code, _, err = (
        run(capsys, *args, "--out", str(tmp_path)) if args[0] == "shotmap" else run(capsys, *args)
    )
    line = one_line(err)
    assert code == 2 and len(line) < 250, line
    for needle in needles:
        assert needle in line, line


def test_board_points_take_length_units(capsys, monkeypatch):
    _stop_estimate(monkeypatch)
    _, _, err = run(capsys, "estimate", "--variant", "carrooka", "--striker", "5cm,-25cm")
    assert "stand-in: x=0.0500" in one_line(err)


def test_a_placement_is_ignored_with_a_warning_where_the_striker_lies(capsys, monkeypatch):
    _stop_estimate(monkeypatch)
    args = ["estimate", "--variant", "carrooka", "--striker", "0.05,-0.25", "--placement", "10"]
    _, _, err = run(capsys, *args)
    warning, stop = err.strip().splitlines()
    assert warning == (
        "warning: --placement 10 is ignored: the striker lies at (0.050, -0.250) m and is "
        "played from there"
    )
    assert "x=0.0500" in stop


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["estimate", "--seed", "abc"], ["carromlab estimate", "'--seed'", "integer"]),
        (["shotmap", "--n", "many"], ["carromlab shotmap", "'--n'", "integer"]),
        (["no-such-command"], ["No such command", "'no-such-command'"]),
        (["validate"], ["carromlab validate", "Missing argument"]),
        (["estimate", "--n"], ["'--n'", "requires an argument"]),
    ],
)
def test_the_command_lines_own_errors_are_one_line(capsys, args, words):
    """An option of the wrong type, an unknown command, a missing argument or value: one line
    on stderr naming the command and the option, exit 2 (not click's usage block)."""
    with pytest.raises(SystemExit) as e:
        cli.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    for w in words:
        assert w in err, (w, err)


# ---------------------------------------------------------------------- numbers: ASCII only


@pytest.mark.parametrize(
    ("args", "flag", "digit"),
    [
        (["estimate", "--angle", "６５"], "--angle", "FULLWIDTH DIGIT SIX"),
        (["estimate", "--angle", "٦٥deg"], "--angle", "ARABIC-INDIC DIGIT SIX"),
        (["estimate", "--placement", "-０.05"], "--placement", "FULLWIDTH DIGIT ZERO"),
        (["shotmap", "--angles", "60:90:３"], "--angles", "FULLWIDTH DIGIT THREE"),
        (["shotmap", "--speeds", "1,２"], "--speeds", "FULLWIDTH DIGIT TWO"),
        (["best", "--speeds", "１:3:3"], "--speeds", "FULLWIDTH DIGIT ONE"),
        (["estimate", "--variant", "carrooka", "--striker", "０.05,0"], "--striker", "ZERO"),
        (["shotmap", "--variant", "kooba", "--aims", "-0.1:0.1:３"], "--aims", "THREE"),
        (["play", "--variant", "carroms", "--target", "３"], "--target", "FULLWIDTH DIGIT"),
        (["play", "--variant", "kooba", "--players=٣"], "--players", "ARABIC-INDIC DIGIT"),
    ],
)
def test_numbers_take_ascii_digits_only(capsys, tmp_path, args, flag, digit):
    """Was: --angle read "６５" as 65 (Python's float reads any Unicode digit) while --speed
    refused it (pydantic reads ASCII only). One rule for every number: ASCII digits."""
    code, _, err = run(capsys, *args, "--out", str(tmp_path / "out"))
    line = one_line(err)
    assert code == 2 and line.startswith(f"error: {flag} "), line
    assert "ASCII digits 0-9 only" in line and digit in line, line
    assert not (tmp_path / "out").exists()


def test_the_typed_options_refuse_other_digits_too(capsys):
    for flag in ("--speed", "--n", "--seed", "--hand-set"):
        code, _, err = run(capsys, "estimate", flag, "２")
        assert code == 2 and flag in one_line(err), err


def test_a_games_own_number_options_refuse_other_digits_for_library_callers_too():
    """``Option.parse`` (what a library caller reaches, without the command line's check)
    keeps the same rule: ``int("３")`` is 3 in Python, refused here."""
    from carromlab.registry import Option

    opt = Option("rounds", 4, "rounds", minimum=1)
    assert opt.parse("3", "force-out") == 3
    for text in ("３", "٣"):
        with pytest.raises(CarromlabError, match="ASCII digits 0-9 only"):
            opt.parse(text, "force-out")


def test_ascii_numbers_and_the_degree_sign_still_read():
    assert schema.parse_value(" 65.5° ", "angle") == 65.5
    assert schema.parse_grid("1e1:2E1:3", "angles") == [10.0, 15.0, 20.0]
    with pytest.raises(CarromlabError, match="NO-BREAK SPACE"):
        schema.parse_value("\u00a065", "angle")


# ---------------------------------------------------------------------- play's folder


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"kind": "play", "variant": "icf", "se', "is not valid JSON"),
        ("", "is not valid JSON"),
        (b"\xff\xfe{}", "is not valid JSON (not UTF-8"),
        ("[1, 2]", "holds JSON that is not an object"),
    ],
)
def test_a_play_folder_with_a_config_cut_short_is_refused_before_any_game(
    capsys, tmp_path, text, words
):
    """Was: a traceback (JSONDecodeError) without log.sqlite, and with it the games played on
    beside a config.json no rerun could read. Now refused before the log is opened or a game
    played (:func:`cli_run.no_work`), the folder untouched."""
    folder = tmp_path / "play"
    folder.mkdir()
    config = folder / "config.json"
    (config.write_bytes if isinstance(text, bytes) else config.write_text)(text)
    (folder / "log.sqlite").write_bytes(b"")  # a log's database: the folder is not new
    before = sorted(p.name for p in folder.iterdir())
    with no_work():
        code, out, err = run(capsys, "play", "--games", "1", "--out", str(folder))
    line = one_line(err)
    assert code == 2 and out == "" and line.startswith(f"error: {config} {words}"), line
    assert "new folder" in line
    assert sorted(p.name for p in folder.iterdir()) == before
