"""The ``carromlab`` command line: a thin shell over the API (README.md, "Use").

One module per group of commands, each a thin wrapper over the library (parse, check, call,
print), registered on the one typer app of :mod:`carromlab.cli.app`:

- ``app``: the app, :func:`main` (one ``error: ...`` line for bad input, exit 2), what every
  command shares (numeric options' check, output paths, exit codes, truncation lines,
  console, device) and ``version``;
- ``checks``: the checks of registry names (variant, a game's own options, skill, policy,
  ``--value``), calling the library's shot set-up (``carromlab.shot_setup``: the position a
  shot is played in, its turn, estimate's shot, a map's grid); the others live beside their
  schemas (``carromlab.input_schema``, ``carromlab.input_checks``,
  ``carromlab.position_schema``, ``carromlab.sweeps.schema``); each command family's
  options, their defaults and their numbers' check, are one typed object
  (``carromlab.run_options``) that the command builds and hands to its report;
- ``positions``: ``games``, ``positions list|show|write``, ``validate``, ``draw``,
  ``equipment``;
- ``shots``: ``estimate``, ``shotmap`` (``run_shotmap``), ``best``, ``demo``; ``tables``:
  what they print; ``decide``: ``decide`` (a player's chosen stroke at a position);
- ``play``: ``play`` (over ``carromlab.reports.PlayReport``); ``summaries``: the tables
  ``play`` and ``sweep`` end with; ``bench``: ``bench``; ``sweep``: ``sweep``; ``cache``:
  ``cache info``, ``cache clear``; ``warmup``: ``warmup``; ``explore``: ``explore`` (the
  explorer served in the browser); ``study``: ``study run|check|report`` (a rule-balance
  study from its file: its arms played, its plan checked, its report); ``train``: ``train``
  (a learned screen); ``spinner``: the compile spinner; ``policy_help``: the help of
  ``--policy`` (``play``, ``decide``), written from the registry's players.

Importing this package registers every command; :func:`main` is the API (the tests call it
in-process). The console script (:mod:`carromlab.entry`), ``python -m carromlab`` and
``python -m carromlab.cli`` run it with Ctrl-C handled first (:mod:`carromlab.interrupt`).
"""

# the commands, registered on the app in the order `carromlab --help` lists them
# isort: off
from carromlab.cli import positions, shots, decide, play, sweep  # noqa: F401
from carromlab.cli import bench, cache, warmup, explore, study, train  # noqa: F401

# isort: on
from carromlab.cli.app import TRUNCATED_EXIT, app, main
from carromlab.cli.positions import equipment_markdown
from carromlab.input_checks import check_out_path

__all__ = ["TRUNCATED_EXIT", "app", "check_out_path", "equipment_markdown", "main"]
