"""The compilation cache's setting and entries: ``CARROMLAB_CACHE_DIR`` naming no folder (a
file, ``/dev/null``) or set but empty is said in one line; a damaged entry is replaced."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import run

from carromlab import compile_cache as cc


@pytest.fixture
def a_file(tmp_path) -> Path:
    path = tmp_path / "a-file"
    path.write_text("not a folder")
    return path


@pytest.mark.parametrize("which", ["file", "devnull", "below a file"])
def test_a_cache_setting_that_names_no_folder_is_refused_by_clear(
    capsys, monkeypatch, a_file, which
):
    value = {"file": str(a_file), "devnull": os.devnull, "below a file": str(a_file / "sub")}
    monkeypatch.setenv(cc.CACHE_ENV, value[which])
    setting = cc.cache_setting()
    assert setting.folder is None and setting.problem is not None
    code, out, err = run(capsys, "cache", "clear")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"error: {cc.CACHE_ENV}: {value[which]}") and "nothing cleared" in err
    code, out, err = run(capsys, "cache", "info")
    assert code == 0 and out.startswith("compilation cache: off")
    assert err.startswith(f"warning: {cc.CACHE_ENV}: {value[which]}") and err.count("\n") == 1
    assert a_file.read_text() == "not a folder"


def test_an_empty_cache_setting_is_said(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv(cc.CACHE_ENV, "")
    monkeypatch.setenv(cc.JAX_CACHE_ENV, str(tmp_path / "jax-own"))
    setting = cc.cache_setting()
    assert setting.folder == tmp_path / "jax-own" and setting.source == cc.JAX_CACHE_ENV
    assert setting.problem is not None and "set but empty" in setting.problem
    code, _, err = run(capsys, "cache", "info")
    assert code == 0 and err.count("\n") == 1 and "set but empty" in err


PROBE = """
import json, sys, warnings
import jax, jax.numpy as jnp
import carromlab.physics  # turns the cache on
warnings.simplefilter("always")
f = jax.jit(lambda x: jnp.sin(x) * 3.0 + x)
print(json.dumps({"y": float(f(jnp.float32(0.5)))}))
"""


def probe(env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in (cc.CACHE_ENV, cc.JAX_CACHE_ENV)}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**base, **env, "JAX_PLATFORMS": "cpu", "CARROMLAB_CORES": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout.strip().splitlines()[-1])
    return proc


@pytest.mark.parametrize("value", [os.devnull, ""])
def test_a_run_says_the_setting_in_one_line(value):
    proc = probe({cc.CACHE_ENV: value})
    lines = [x for x in proc.stderr.splitlines() if cc.CACHE_ENV in x]
    assert len(lines) == 1 and lines[0].startswith("warning: "), proc.stderr


def test_a_damaged_entry_is_replaced(tmp_path):
    folder = tmp_path / "cache"
    probe({cc.CACHE_ENV: str(folder)})
    entries = sorted(folder.glob("*-cache"))
    assert entries, sorted(p.name for p in folder.iterdir())
    whole = {p: p.read_bytes() for p in entries}
    for p, data in whole.items():  # truncated
        p.write_bytes(data[: len(data) // 3])
    second = probe({cc.CACHE_ENV: str(folder)})
    assert "Error reading persistent compilation cache" not in second.stderr, second.stderr
    said = [x for x in second.stderr.splitlines() if "damaged compilation-cache entry" in x]
    assert len(said) == len(entries), second.stderr
    for p in entries:  # written anew, whole
        assert p.is_file() and len(p.read_bytes()) > len(whole[p]) // 3
    third = probe({cc.CACHE_ENV: str(folder)})
    assert "damaged" not in third.stderr and "Error reading" not in third.stderr, third.stderr
