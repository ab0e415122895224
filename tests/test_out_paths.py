"""Output paths are checked before any work: a file where a folder is wanted, a folder where
a file is wanted, or a folder that cannot be written is refused at once with one line naming
the option and its value (exit code 2, no traceback)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from carromlab.cli import check_out_path
from carromlab.errors import CarromlabError
from tests.cli_run import no_work, run

#: Every command that writes, with the arguments it needs besides its output path.
WRITERS = {
    "estimate": (["estimate", "--n", "4"], "--out"),
    "shotmap": (["shotmap", "--n", "4"], "--out"),
    "best": (["best", "--n", "4"], "--out"),
    "play": (["play", "--games", "1"], "--out"),
    "sweep": (["sweep", "no-such-sweep.toml"], "--out"),
    "demo": (["demo", "--n", "2"], "--out"),
    "train": (["train", "--game", "icf", "--positions", "2"], "--out"),
}


def _refused(capsys, args, needle):
    """The command refused in one line, exit 2, before any work: its work (a kernel runner,
    the play log, the sweep, the drawing...) is never called (``no_work``)."""
    with no_work():
        code, _, err = run(capsys, *args)
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "Traceback" not in err
    return err


@pytest.fixture
def a_file(tmp_path) -> Path:
    path = tmp_path / "a-file.txt"
    path.write_text("x")
    return path


@pytest.mark.parametrize("command", list(WRITERS))
def test_a_file_as_the_folder_is_refused_before_work(capsys, command, a_file):
    args, option = WRITERS[command]
    err = _refused(capsys, [*args, option, str(a_file)], f"{option} {a_file}: not a folder")
    # a folder below a file
    below = a_file / "sub"
    err = _refused(capsys, [*args, option, str(below)], f"{a_file} is not a folder")
    assert err.startswith(f"error: {option} {below}: ")


@pytest.mark.parametrize("command", ["estimate", "shotmap", "demo"])
def test_dev_null_is_not_a_folder(capsys, command):
    args, option = WRITERS[command]
    _refused(capsys, [*args, option, "/dev/null"], f"{option} /dev/null: not a folder")


def test_positions_write_and_draw(capsys, tmp_path, a_file):
    _refused(capsys, ["positions", "write", str(a_file)], f"OUT {a_file}: not a folder")
    _refused(capsys, ["draw", "icf-opening", "-o", str(tmp_path)], "a folder, not a file")
    missing = tmp_path / "none" / "x.png"
    _refused(
        capsys,
        ["draw", "icf-opening", "-o", str(missing)],
        f"--output {missing}: its folder {missing.parent} does not exist",
    )


def test_a_read_only_folder_is_refused(capsys, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as root: a read-only folder is writable")
        _refused(capsys, ["estimate", "--out", str(ro)], f"--out {ro}: the folder is not writable")
        inner = ro / "new"
        _refused(
            capsys,
            ["shotmap", "--out", str(inner)],
            f"--out {inner}: its folder {ro} is not writable",
        )
    finally:
        ro.chmod(stat.S_IRWXU)


def test_an_unwritable_folder_is_refused_whoever_runs(capsys, tmp_path, monkeypatch):
    """As root every permission check passes: the probe (a file made in the folder) is what
    refuses, shown here with the probe failing; /proc refuses a new file even to root."""
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", denied)
    _refused(capsys, ["best", "--out", str(tmp_path)], f"--out {tmp_path}: the folder is not")
    monkeypatch.undo()
    if Path("/proc").is_dir():
        _refused(capsys, ["play", "--out", "/proc/x"], "--out /proc/x: its folder /proc is not")


#: Every writer with its output option, the file writer (draw) and the argument (positions).
ALL_WRITERS = {
    **WRITERS,
    "draw": (["draw", "icf-opening"], "-o"),
    "positions write": (["positions", "write"], None),
}


def _with_path(command: str, path: str) -> tuple[list[str], str]:
    """The command line of ``command`` writing to ``path``, and the option its message names."""
    args, option = ALL_WRITERS[command]
    if option is None:
        return [*args, path], "OUT"
    return [*args, option, path], "--output" if option == "-o" else option


@pytest.mark.parametrize("command", list(ALL_WRITERS))
def test_a_symbolic_link_that_leads_nowhere_is_refused_before_work(capsys, command, tmp_path):
    """Was: a traceback (FileExistsError from mkdir, or estimate's parquet writer once the
    shots were computed) for a dangling link or a link loop as the output path."""
    suffix = ".png" if command == "draw" else ""
    loop_a, loop_b = tmp_path / f"loop-a{suffix}", tmp_path / f"loop-b{suffix}"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    dangling = tmp_path / f"dangling{suffix}"
    dangling.symlink_to(tmp_path / "nowhere" / "at-all")
    for link, words in ((loop_a, "a symbolic link loop"), (dangling, "a dangling symbolic link")):
        args, option = _with_path(command, str(link))
        _refused(capsys, args, f"{option} {link}: {link} is {words}")
    if command != "draw":  # a link on the way to a folder that would be made below it
        below = dangling / "sub"
        args, option = _with_path(command, str(below))
        _refused(capsys, args, f"{option} {below}: {dangling} is a dangling symbolic link")


@pytest.mark.parametrize("command", list(ALL_WRITERS))
def test_an_empty_output_path_is_refused(capsys, command, tmp_path, monkeypatch):
    """Was: ``--out ""`` read as the current folder, and written into it."""
    monkeypatch.chdir(tmp_path)
    args, option = _with_path(command, "")
    _refused(capsys, args, f"{option} '': an empty path")
    assert list(tmp_path.iterdir()) == []


def test_links_that_lead_somewhere_pass(tmp_path):
    folder = tmp_path / "real"
    folder.mkdir()
    (tmp_path / "to-folder").symlink_to(folder)
    check_out_path(tmp_path / "to-folder")
    check_out_path(tmp_path / "to-folder" / "new" / "deeper")
    (tmp_path / "to-file.png").symlink_to(folder / "x.png")  # dangling: refused
    with pytest.raises(CarromlabError, match="dangling symbolic link"):
        check_out_path(tmp_path / "to-file.png", "file", "--output")
    (folder / "x.png").write_bytes(b"")
    check_out_path(tmp_path / "to-file.png", "file", "--output")


def test_good_paths_pass_and_nothing_is_made(tmp_path):
    check_out_path(tmp_path)  # an empty folder
    check_out_path(tmp_path / "a" / "b")  # made later, with its parents
    check_out_path(tmp_path / "x.png", "file", "--output")
    check_out_path(Path("relative-out"))
    assert list(tmp_path.iterdir()) == []  # the probe leaves nothing behind
    with pytest.raises(CarromlabError, match="--out /dev/null: not a folder"):
        check_out_path(Path("/dev/null"))


def test_refused_before_jax_is_imported():
    """In a fresh process, every writing command refuses its output path with JAX not yet
    imported: nothing was computed, nothing compiled."""
    import subprocess
    import sys

    commands = [args for args, _ in WRITERS.values()]
    code = (
        "import sys\n"
        "from carromlab.cli import main\n"
        f"for args in {commands!r}:\n"
        "    try:\n"
        "        main([*args, '--out', '/dev/null'])\n"
        "    except SystemExit as e:\n"
        "        assert e.code == 2, (args, e.code)\n"
        "print('jax' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    assert done.stderr.count("error: --out /dev/null: not a folder") == len(WRITERS)
