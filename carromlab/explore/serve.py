"""``carromlab explore``: the explorer as a local web page, served by Voila.

Voila runs a notebook in a kernel of its own and serves its widgets as a page without the
code. :func:`write_notebook` writes a one-cell notebook that opens :class:`Explorer` on the
position; :func:`voila_command` is the server's command line, bound to ``127.0.0.1`` unless
asked otherwise. The page shows a Python error's traceback (``show_tracebacks``), so a broken
page says why (the browser test fails on it).
"""

from __future__ import annotations

import errno
import json
import socket
import sys
from pathlib import Path

from carromlab.errors import CarromlabError

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


def bind_address(host: str) -> tuple[socket.AddressFamily, str]:
    """The address family and the address ``host`` (a name or an address, IPv4 or IPv6)
    binds to; one line (:class:`CarromlabError`) naming ``--host`` when it is empty, cannot
    be resolved, or is not an address of this machine (checked by binding a free port)."""
    if not host.strip():
        raise CarromlabError(
            f"--host {host!r}: give an address to bind (127.0.0.1: this machine only; "
            "0.0.0.0: every interface)"
        )
    try:
        infos = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as e:
        why = getattr(e, "strerror", None) or str(e)
        raise CarromlabError(f"--host {host!r}: cannot resolve it ({why})") from None
    family, address = infos[0][0], str(infos[0][4][0])
    why = bind_problem(family, address, 0)
    if why is not None:
        raise CarromlabError(f"--host {host!r}: cannot bind to it ({why})")
    return family, address


def bind_problem(family: socket.AddressFamily, address: str, port: int) -> str | None:
    """Why ``address:port`` cannot be bound (the system's words), or None."""
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((address, port))
        except OSError as e:
            return e.strerror or str(e)
    return None


def port_free(host: str, port: int) -> bool:
    family, address = bind_address(host)
    return bind_problem(family, address, port) is None


def check_port(host: str, port: int) -> None:
    """Refuse a ``--port`` that ``host`` cannot serve on, saying why: in use, or the system's
    reason (a port below 1024 without the right to it)."""
    family, address = bind_address(host)
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((address, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise CarromlabError(
                    f"--port {port} is in use on {host}; choose another or leave it out"
                ) from None
            raise CarromlabError(
                f"--port {port} on {host}: cannot bind to it ({e.strerror or e}); choose another "
                "or leave it out"
            ) from None


def free_port(host: str, first: int = DEFAULT_PORT, tries: int = 50) -> int:
    """The first free port from ``first`` on (``host`` checked first: :func:`bind_address`);
    one line when ``tries`` ports in a row are taken."""
    family, address = bind_address(host)
    for port in range(first, first + tries):
        if bind_problem(family, address, port) is None:
            return port
    raise CarromlabError(
        f"no free port in {first}-{first + tries - 1} on {host}; give one with --port"
    )


def url(host: str, port: int) -> str:
    """The page's address (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


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
