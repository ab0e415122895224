"""Kernel benchmarks (``carromlab bench``): scenarios, the chunked runner and a pymunk peer."""

from carromlab.bench.runner import bench
from carromlab.bench.scenarios import cut_position, scenario

__all__ = ["bench", "cut_position", "scenario"]
