"""``carromlab explore``: the explorer as a local web page, served by Voila.

Voila runs a notebook in a kernel of its own and serves its widgets as a page without the
code. :func:`write_notebook` writes a one-cell notebook that opens :class:`Explorer` on the
position; :func:`voila_command` is the server's command line, bound to ``127.0.0.1`` unless
asked otherwise. The page shows a Python error's traceback (``show_tracebacks``), so a broken
page says why (the browser test fails on it).
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

#: The first port tried when none is given (Voila's own default).
DEFAULT_PORT = 8866


def notebook_source(position: str, skill: str, n: int, seed: int) -> str:
    """The one cell the page runs: the explorer on ``position`` (a name or a JSON file)."""
    return (
        "import carromlab as cl\n"
        f"cl.Explorer({position!r}, skill={skill!r}, n={int(n)}, seed={int(seed)})\n"
    )


def write_notebook(folder: Path, position: str, skill: str, n: int, seed: int) -> Path:
    """Write the explorer's notebook into ``folder``; its path."""
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": notebook_source(position, skill, n, seed),
    }
    nb = {
        "cells": [cell],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = Path(folder) / "carromlab-explorer.ipynb"
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return path


def port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str, first: int = DEFAULT_PORT, tries: int = 50) -> int:
    """The first free port from ``first`` on."""
    for port in range(first, first + tries):
        if port_free(host, port):
            return port
    raise OSError(f"no free port in {first}-{first + tries - 1} on {host}")


def voila_command(notebook: Path, host: str, port: int) -> list[str]:
    """The server's command line (this Python's Voila, no browser of its own)."""
    return [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        f"--port={int(port)}",
        "--no-browser",
        f"--Voila.ip={host}",
        "--theme=light",
        "--show_tracebacks=True",
        f"--Voila.root_dir={notebook.parent}",
    ]
