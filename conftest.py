"""Root conftest: the notebooks (run by nbmake) use tiny sample sizes under the test suite,
and an xdist worker's teardown cannot be interrupted by its own transport.

The notebooks read ``CARROMLAB_QUICK``; the kernel nbmake starts inherits this process's
environment, so setting it here (at collection, in every xdist worker) reaches the kernel.
Set ``CARROMLAB_QUICK=0`` to run them at full size.

``pytest -n 2`` (``tasks.py test``) runs the tests in execnet workers. When the controller
closes a worker, execnet gives the worker's session 5 s to finish and then sends the worker
a SIGINT of its own (execnet/gateway_base.py, ``_terminate_execution``: "sending ourselves a
SIGINT"). A worker whose teardown is slower than that (its last garbage collections, JAX and
the notebooks' kernels on a busy 2-core machine) got a KeyboardInterrupt wherever it was: in
the run that ended "686 passed" it landed in hypothesis's gc callback and pytest reported a
PytestUnraisableExceptionWarning, though no one pressed Ctrl-C and every test had passed. So
a worker ignores SIGINT once its tests are over (execnet still ends it 10 s later with
``os._exit`` if it hangs); the controller, which handles Ctrl-C, is untouched.
"""

import os
import signal

import pytest

os.environ.setdefault("CARROMLAB_QUICK", "1")


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    if hasattr(config, "workerinput"):  # an xdist worker, its tests done and reported
        signal.signal(signal.SIGINT, signal.SIG_IGN)
