"""Analysis: Monte-Carlo estimates with intervals, shot maps, and the runner under them."""

from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.shotmap import shot_map

__all__ = ["ShotRunner", "estimate", "shot_map"]
