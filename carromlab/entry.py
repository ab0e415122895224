"""The console script ``carromlab`` and ``python -m carromlab``: Ctrl-C handled first, then
the command line.

Importing the command line and its libraries takes seconds; Ctrl-C in that time must not
print a traceback. So this module imports only :mod:`carromlab.interrupt` (the standard
library), which installs its handling before :mod:`carromlab.cli` is imported, then runs
:func:`carromlab.cli.main` (the API the tests call in-process). After Ctrl-C, in any phase,
the process ends with one line on stderr and exit code 130.
"""

from __future__ import annotations

from carromlab import interrupt


def _command_line():
    from carromlab.cli import main

    return main


def main(argv: list[str] | None = None) -> None:
    """Run the command line with Ctrl-C handled in every phase: the imports, the command (a
    kernel compiling included) and the end."""
    interrupt.run(_command_line, argv)
