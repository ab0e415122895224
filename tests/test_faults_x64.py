"""Float64 through every shot command: ``JAX_ENABLE_X64=1`` runs estimate (the lane
simulator), a shot map, best and a game to the end (small versions), each in float64."""

import json
import os
import subprocess
import sys

import pytest

COMMANDS = [
    ["estimate", "--position", "icf-midgame", "--n", "200", "--json"],
    [
        "shotmap",
        "--position",
        "icf-midgame",
        "--placements",
        "0:0:1",
        "--angles",
        "60:70:2",
        "--speeds",
        "3",
        "--n",
        "50",
        "--no-story",
        "--json",
    ],
    [
        "best",
        "--position",
        "icf-midgame",
        "--n-grid",
        "4",
        "--iterations",
        "1",
        "--population",
        "8",
        "--n-cem",
        "8",
        "--top",
        "1",
        "--n",
        "50",
        "--json",
    ],
    ["play", "--variant", "icf", "--games", "1", "--policy", "random", "--json"],
]


@pytest.mark.heavy
@pytest.mark.parametrize("args", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_shot_command_runs_in_float64(tmp_path, args):
    if args[0] in ("shotmap", "play"):
        args = [*args, "--out", str(tmp_path / "out")]
    env = dict(os.environ, JAX_ENABLE_X64="1", JAX_PLATFORMS="cpu")
    proc = subprocess.run(
        [sys.executable, "-m", "carromlab", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    json.loads(proc.stdout.strip().splitlines()[-1])  # the command's whole answer
