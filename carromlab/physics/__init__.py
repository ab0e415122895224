"""The physics layer: sliding discs with Coulomb friction, event-driven, batched in JAX.

No module here knows a rule. Inputs are a :class:`~carromlab.physics.table.Table` (static
geometry compiled from a board's layout), :class:`~carromlab.physics.table.Pieces` (arrays of
piece state) and :class:`~carromlab.physics.params.Physics` (traced parameters: friction and
restitution).
"""

from carromlab.physics.params import Physics
from carromlab.physics.table import Pieces, Table

__all__ = ["Physics", "Pieces", "Table"]
