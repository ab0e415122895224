"""Kernel benchmarks (``carromlab bench``): scenarios, the chunked runner and a pymunk peer."""

from carromlab.bench.runner import bench
from carromlab.bench.scenarios import scenario

__all__ = ["bench", "scenario"]
