"""``carromlab explore``: the explorer as a local web page (:mod:`carromlab.explore.serve`)."""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
import webbrowser
from pathlib import Path

import typer

from carromlab.cli.app import app, check
from carromlab.errors import CarromlabError


@app.command()
def explore(
    position: str = typer.Option(
        "icf-midgame", help="Standard position name or JSON file (`carromlab positions list`)."
    ),
    skill: str = typer.Option("club", help="Execution skill (a throw skill for KOOBA)."),
    n: int = typer.Option(2000, help="Noisy executions behind each full answer."),
    seed: int = typer.Option(0, help="Root PRNG seed."),
    port: int = typer.Option(None, help="Port to serve on (default: the first free from 8866)."),
    host: str = typer.Option("127.0.0.1", help="Address to bind (default: this machine only)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
) -> None:
    """Serve the explorer as a local web page: the board, the striker on its line, the aim,
    the shot's odds with intervals, a few executions' paths and the best shot. Prints the
    page's address; Ctrl-C stops the server."""
    from carromlab.cli.checks import resolve
    from carromlab.explore.serve import (
        bind_address,
        check_port,
        free_port,
        url,
        voila_command,
        write_notebook,
    )
    from carromlab.input_schema import check_name

    pos = resolve(position)  # a bad name or file: one line, before anything starts
    if position not in _names() and Path(position).exists():
        position = str(Path(position).resolve())
    from carromlab.explore.model import model_class

    # the skills of the position's game, as its explorer model names them
    check_name(skill, model_class(pos.variant).skill_names(pos.variant), "skill")
    check(n=n, seed=seed, port=port)
    bind_address(host)  # an empty, unknown or foreign host: one line, before anything starts
    try:
        import anywidget  # noqa: F401
        import voila  # noqa: F401
    except ImportError as e:
        raise CarromlabError(
            f"the explorer's page needs {e.name}: pip install 'carromlab[explore]'"
        ) from None
    if port is None:
        port = free_port(host)
    else:
        check_port(host, int(port))
    folder = Path(tempfile.mkdtemp(prefix="carromlab-explore-"))
    notebook = write_notebook(folder, position, skill, n, seed)
    address = url(host, int(port))
    log = folder / "server.log"  # the server's own messages (a pipe nobody reads would fill)
    with open(log, "w", encoding="utf-8") as sink:
        # its own session: the terminal's Ctrl-C reaches this process only, which stops the
        # server (SIGTERM: it shuts its kernels down) on its way out
        proc = subprocess.Popen(
            voila_command(notebook, host, int(port)),
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        if not _wait_for(host, int(port), proc):
            err = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise CarromlabError("the page server did not start" + (f": {err[-1]}" if err else ""))
        typer.echo(f"carromlab explorer on {pos.name or position}: {address}  (Ctrl-C stops it)")
        if not no_browser:
            webbrowser.open(address)
        proc.wait()
    finally:
        signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def _terminated(signum, frame):
    """SIGTERM (a test's or a service manager's stop): leave through ``finally``, which stops
    the server, rather than die and leave it running."""
    raise SystemExit(128 + signum)


def _names() -> list[str]:
    from carromlab.registry import STANDARD

    return list(STANDARD)


def _wait_for(host: str, port: int, proc, timeout: float = 120.0) -> bool:
    """Wait until the server accepts connections (False if it exits first)."""
    import socket

    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False
