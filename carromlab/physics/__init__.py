"""The physics layer: sliding discs with Coulomb friction, event-driven, batched in JAX.

No module here knows a rule. Inputs are a :class:`~carromlab.physics.table.Table` (static
geometry compiled from a board's layout), :class:`~carromlab.physics.table.Pieces` (arrays of
piece state) and :class:`~carromlab.physics.params.Physics` (traced parameters: friction and
restitution).

Importing it asks JAX for one CPU device per core (:mod:`carromlab.physics.devices`;
``CARROMLAB_CORES`` sets the count), unless JAX's backend has already started, and turns on
the persistent compilation cache (:mod:`carromlab.compile_cache`;
``CARROMLAB_CACHE_DIR`` moves it or, ``off``, switches it off).
"""

from carromlab import compile_cache as _compile_cache
from carromlab.physics import devices as _devices

_devices.configure()
_compile_cache.configure()

from carromlab.physics.params import Physics  # noqa: E402
from carromlab.physics.table import Pieces, Table  # noqa: E402

__all__ = ["Physics", "Pieces", "Table"]
