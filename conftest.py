"""Root conftest: the notebooks (run by nbmake) use tiny sample sizes under the test suite.

The notebooks read ``CARROMLAB_QUICK``; the kernel nbmake starts inherits this process's
environment, so setting it here (at collection, in every xdist worker) reaches the kernel.
Set ``CARROMLAB_QUICK=0`` to run them at full size.
"""

import os

os.environ.setdefault("CARROMLAB_QUICK", "1")
