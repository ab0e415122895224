"""The kernel's former single module: every name now lives in :mod:`carromlab.physics.kernel`
(re-exported here while callers move)."""

from carromlab.physics.kernel import *  # noqa: F403
from carromlab.physics.kernel import __all__  # noqa: F401
