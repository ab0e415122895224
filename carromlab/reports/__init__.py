"""Reports: an analysis and what is said and drawn of it, as one object.

A report holds a result table (``.table``) with the position it was computed in, and gives
what the command line prints (``.summary()``, a dict), its figure (``.figure()``, a
matplotlib Figure) and its files (``.save(out)``: the parquet files and PNGs of the command
line's ``--out``). Each is made by running the analysis (``.run(...)``; the command line's
typed options, :mod:`carromlab.run_options`, with ``.from_options(options)``, or
``PlayReport.run(options, out)``) or from a table made before (``.from_table(...)``):

- :class:`ShotMapReport`: a shot map (``carromlab shotmap``), with its target map;
- :class:`BestShotsReport`: the best shots of a search under noise (``carromlab best``);
- :class:`EstimateReport`: one shot's estimate (``carromlab estimate``);
- :class:`PlayReport`: whole games between a game's players, played into a resumable game
  log (``carromlab play``): the game rows, what they come to (the wins by seat with their
  intervals, the means, the counts), the tables the command ends with;
- :class:`StudyReport`: a rule-balance study's estimates, comparisons and verdicts
  (``carromlab study report``), from the study's folder.

Warnings a figure raises (a shot map's best cell on the grid's edge) are kept, one line
each, in ``.warnings``. Reports sit above the games and below the command line; they reach a
game only through the registry (the variant's analysis hooks and rules).
"""

from carromlab.reports.best import BestShotsReport
from carromlab.reports.estimate import EstimateReport
from carromlab.reports.play import PlayReport
from carromlab.reports.shotmap import ShotMapReport
from carromlab.reports.study import StudyReport

__all__ = ["BestShotsReport", "EstimateReport", "PlayReport", "ShotMapReport", "StudyReport"]
