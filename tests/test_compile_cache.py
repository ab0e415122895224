"""The persistent compilation cache (``carromlab.compile_cache``): where it is and what
chose it, that importing the physics turns it on (in a fresh process: JAX's settings are
global), and ``carromlab cache info|clear`` (without JAX; clearing only a folder carromlab
made)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run

from carromlab import compile_cache as cc


def test_where_the_cache_is_and_what_chose_it(tmp_path):
    mine = cc.cache_setting({cc.CACHE_ENV: str(tmp_path / "c"), cc.JAX_CACHE_ENV: "/elsewhere"})
    assert mine == cc.CacheSetting(tmp_path / "c", cc.CACHE_ENV)
    for word in ("off", "OFF", "0", "false", "no", "none"):
        off = cc.cache_setting({cc.CACHE_ENV: word, cc.JAX_CACHE_ENV: "/elsewhere"})
        assert off.folder is None and word in off.source
    jax_own = cc.cache_setting({cc.JAX_CACHE_ENV: str(tmp_path / "j")})
    assert jax_own == cc.CacheSetting(tmp_path / "j", cc.JAX_CACHE_ENV)
    default = cc.cache_setting({})
    assert default.source == "default" and default.folder is not None
    assert default.folder.parts[-2:] == ("carromlab", "jax")


PROBE = """
import json, sys
import jax
import carromlab.physics  # turns the cache on
print(json.dumps({"dir": jax.config.jax_compilation_cache_dir,
                  "min": jax.config.jax_persistent_cache_min_compile_time_secs}))
"""


def probe(env: dict[str, str]) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in (cc.CACHE_ENV, cc.JAX_CACHE_ENV)}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**base, **env, "JAX_PLATFORMS": "cpu", "CARROMLAB_CORES": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_importing_the_physics_turns_the_cache_on_with_its_tag(tmp_path):
    folder = tmp_path / "cache"
    got = probe({cc.CACHE_ENV: str(folder)})
    assert got == {"dir": str(folder), "min": cc.MIN_COMPILE_SECONDS}
    assert (folder / cc.TAG).read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert probe({cc.CACHE_ENV: "off"})["dir"] is None
    # JAX's own variable is JAX's: carromlab leaves it as it is
    assert probe({cc.JAX_CACHE_ENV: str(tmp_path / "j")})["dir"] == str(tmp_path / "j")
    assert not (tmp_path / "j" / cc.TAG).exists()


def test_cache_info_and_clear(capsys, monkeypatch, tmp_path):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cc.CACHE_ENV, str(folder))
    folder.mkdir()
    (folder / cc.TAG).write_text(cc.TAG_TEXT)
    for name in ("jit_simulate-abc", "jit_simulate-abc-atime", "programs/0123.jaxexport"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_bytes(b"x" * 1000)
    code, out, _ = run(capsys, "cache", "info", "--json")
    info = json.loads(out)
    assert code == 0 and info["entries"] == 3 and info["bytes"] == 3000
    assert info["programs"] == 1
    assert info["folder"] == str(folder) and info["source"] == cc.CACHE_ENV
    code, out, _ = run(capsys, "cache", "info")
    assert "kernel programs kept whole: 1" in out
    code, out, _ = run(capsys, "cache", "clear")
    assert code == 0 and "removed 3 entries (3.0 kB)" in out
    assert sorted(p.name for p in folder.iterdir()) == [cc.TAG]
    code, out, _ = run(capsys, "cache", "info")
    assert "entries: 0" in out


def test_clear_leaves_a_folder_carromlab_did_not_make(capsys, monkeypatch, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "thesis.tex").write_text("keep me")
    monkeypatch.setenv(cc.CACHE_ENV, str(folder))
    code, _, err = run(capsys, "cache", "clear")
    assert code == 2 and err.startswith("error: ") and "not cleared" in err
    assert len(err.strip().splitlines()) == 1
    assert (folder / "thesis.tex").read_text() == "keep me"


def test_an_off_cache_has_nothing_to_clear(capsys, monkeypatch):
    monkeypatch.setenv(cc.CACHE_ENV, "off")
    code, out, _ = run(capsys, "cache", "clear")
    assert code == 0 and "off" in out and "nothing to clear" in out


@pytest.mark.parametrize("command", [["cache", "info"], ["cache", "clear"]])
def test_the_cache_commands_load_no_jax(command, tmp_path):
    env = {**os.environ, cc.CACHE_ENV: str(tmp_path / "c")}
    code = (
        "import sys\nfrom carromlab.cli import main\ntry:\n    main(sys.argv[1:])\n"
        "except SystemExit:\n    pass\nprint('jax' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *command], env=env, capture_output=True, text=True
    )
    assert proc.stdout.strip().splitlines()[-1] == "False", proc.stdout + proc.stderr
    assert Path(tmp_path).exists()
