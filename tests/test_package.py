"""The package as it ships: every data file the package reads is in the wheel's package data,
and the version is said the same way everywhere. (``python3 tasks.py wheel`` builds the wheel
and runs the demo and the API from a fresh environment; CI runs it.)"""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

import carromlab

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def package_files() -> list[str]:
    """The package's files that are not Python source, as paths from the repository root."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "carromlab"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist)
        out = [str(p.relative_to(ROOT)) for p in (ROOT / "carromlab").rglob("*") if p.is_file()]
    return [f for f in out if not f.endswith((".py", ".pyc")) and "__pycache__" not in f]


def shipped(path: str, package_data: dict[str, list[str]]) -> bool:
    """Whether ``path`` matches a package-data pattern of a package above it."""
    for package, patterns in package_data.items():
        folder = package.replace(".", "/") + "/"
        if path.startswith(folder):
            rel = path[len(folder) :]
            if any(fnmatch.fnmatch(rel, pattern) for pattern in patterns):
                return True
    return False


def test_every_data_file_of_the_package_is_package_data():
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    files = package_files()
    assert any(f.endswith("screen.npz") for f in files)  # the listing found the data
    missing = [f for f in files if not shipped(f, package_data)]
    assert not missing, f"not in pyproject's package-data (the wheel would lack them): {missing}"


def test_a_file_outside_the_patterns_is_found():
    data = {"carromlab.games": ["*/breaks.json"]}
    assert shipped("carromlab/games/icf/breaks.json", data)
    assert not shipped("carromlab/games/icf/notes.txt", data)
    assert not shipped("carromlab/explore/static/app.js", data)


def test_the_version_is_one():
    version = PYPROJECT["project"]["version"]
    assert carromlab.__version__ == version
    assert f"## {version} " in (ROOT / "CHANGELOG.md").read_text()
