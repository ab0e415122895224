"""The command line's small refusals: one line each, saying the value as given; ``--version``;
``--explain`` adds nothing to a refused command's line."""

import pytest
from cli_run import no_work, run

from carromlab import _version


def test_version_option_prints_the_package_version(capsys):
    code, out, err = run(capsys, "--version")
    assert (code, out, err) == (0, f"carromlab {_version.__version__}\n", "")


@pytest.mark.parametrize(
    "args",
    [
        ["--explain", "estimate", "--speed", "1e400"],
        ["--explain", "estimate", "--no-such-option"],
        ["--explain", "estimate", "--position", "no-such-position"],
    ],
)
def test_explain_on_a_refused_command_prints_the_error_alone(capsys, args):
    with no_work():
        code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: "), err


@pytest.mark.parametrize("command", ["estimate", "shotmap", "best", "decide"])
@pytest.mark.parametrize("text", ["", "  "])
def test_an_empty_position_is_said_empty(capsys, command, text):
    with no_work():
        code, _, err = run(capsys, command, "--position", text)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: the position is empty ({text!r})"), err


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["estimate", "--speed", "1e400"], "error: --speed 1e400: must be finite"),
        (["estimate", "--speed", "-1E400"], "error: --speed -1E400: must be finite"),
        (["estimate", "--hand-set", "1e999"], "error: --hand-set 1e999: must be finite"),
        (["estimate", "--speed", "99"], "error: --speed 99.0: must be at most 15 m/s"),
    ],
)
def test_a_number_out_of_range_is_reported_as_given(capsys, args, shown):
    with no_work():
        code, _, err = run(capsys, *args)
    assert code == 2 and err == shown + "\n", err


def test_validate_says_an_empty_file_name_is_empty(capsys):
    """``validate ''`` names the empty argument (as a path it would be the current folder,
    and the reading error would say "Is a directory")."""
    code, _out, err = run(capsys, "validate", "")
    assert code == 1
    assert err.strip() == "error: a position file's name is empty ('')"
    assert "directory" not in err
