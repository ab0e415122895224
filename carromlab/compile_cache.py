"""A persistent compilation cache, on by default: a kernel compiled once is read back from
disk by every later process (the command line, the library, notebooks), instead of being
compiled again (tens of seconds on a 2-core machine).

**Where.** In this order:

1. ``CARROMLAB_CACHE_DIR``: a folder, or ``off`` (also ``0``, ``false``, ``no``, ``none``) to
   switch the cache off;
2. ``JAX_COMPILATION_CACHE_DIR``, JAX's own variable, when it is set (the folder is left to JAX;
   carromlab only sets what it keeps: :data:`MIN_COMPILE_SECONDS`);
3. the user's cache folder (``platformdirs.user_cache_dir("carromlab")``, for example
   ``~/.cache/carromlab``), sub-folder ``jax``.

:func:`configure` applies it when ``carromlab.physics`` is imported (before anything is
compiled); ``carromlab cache info`` shows it, ``carromlab cache clear`` empties it.

**Nothing stale is used.** JAX keys every entry by a hash of the compiled program (the
lowered StableHLO: every shape, every constant, every operation of the kernel), the
compiler options, the JAX and jaxlib versions, the XLA flags and the backend and its
devices. A carromlab version whose kernel computes anything differently lowers to another
program, so to another key: an entry is used only for the very program it was compiled
from. A cache folder may be shared by versions side by side; old entries are only disk
space (``carromlab cache clear``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

#: carromlab's variable: a folder for the cache, or one of :data:`OFF_WORDS`.
CACHE_ENV = "CARROMLAB_CACHE_DIR"
#: JAX's own variable, respected when set.
JAX_CACHE_ENV = "JAX_COMPILATION_CACHE_DIR"
OFF_WORDS = ("off", "0", "false", "no", "none")
#: The folders carromlab makes for its cache carry a cache-directory tag (the Cache Directory
#: Tagging convention, https://bford.info/cachedir/: backup tools skip such folders), and
#: ``carromlab cache clear`` empties only a folder that carries it.
TAG = "CACHEDIR.TAG"
TAG_TEXT = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# carromlab's compilation cache: compiled kernels, safe to delete (carromlab cache clear)\n"
)
#: Programs that compile faster than this (s) are not written. JAX's default is 1 s; here every
#: program is kept: the kernels take seconds to compile, and the ten or so small helper
#: programs a command also compiles (noise, placing the shooter, tallies) 0.1-0.2 s each, more
#: than a second in all, against a few milliseconds each to read back.
MIN_COMPILE_SECONDS = 0.0


#: XLA's C++ log level (``TF_CPP_MIN_LOG_LEVEL``; 3: fatal only), set when carromlab is
#: imported unless the user set it: XLA's "Very slow compile?" banners (a compile over a few
#: seconds on a busy machine) are log lines of level ERROR and never the user's concern;
#: errors that matter reach Python as exceptions. ``TF_CPP_MIN_LOG_LEVEL=0`` shows them all.
XLA_LOG_LEVEL = "3"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", XLA_LOG_LEVEL)

#: What shows a long compile (a spinner on the command line; nothing in the library): a
#: factory ``notice(what) -> context manager``, set by :func:`set_compile_notice`.
_NOTICE: list[Callable[[str], AbstractContextManager[object]]] = []


def set_compile_notice(factory: Callable[[str], AbstractContextManager[object]] | None) -> None:
    """Show every kernel compile from now on with ``factory(what)`` (None: nothing)."""
    _NOTICE[:] = [] if factory is None else [factory]


def compile_notice(what: str) -> AbstractContextManager[object]:
    """The context a kernel is compiled (or read back) in: the notice set, else nothing."""
    return _NOTICE[0](what) if _NOTICE else nullcontext()


#: The lock file a process holds while it makes a kernel program ready
#: (:func:`carromlab.physics.programs.program_lock`); empty, not counted as an entry.
LOCK_SUFFIX = ".lock"


@dataclass(frozen=True)
class CacheSetting:
    """Where the compilation cache is (``folder``; None: off) and what decided it."""

    folder: Path | None
    source: str


def cache_setting(environ: dict[str, str] | None = None) -> CacheSetting:
    """The cache folder and what decided it (the module's docstring), from ``environ``
    (default ``os.environ``). Touches nothing."""
    env = os.environ if environ is None else environ
    mine = env.get(CACHE_ENV, "").strip()
    if mine:
        if mine.lower() in OFF_WORDS:
            return CacheSetting(None, f"{CACHE_ENV}={mine}")
        return CacheSetting(Path(mine).expanduser(), CACHE_ENV)
    jax_dir = env.get(JAX_CACHE_ENV, "").strip()
    if jax_dir:
        return CacheSetting(Path(jax_dir).expanduser(), JAX_CACHE_ENV)
    import platformdirs

    return CacheSetting(Path(platformdirs.user_cache_dir("carromlab")) / "jax", "default")


def configure(environ: dict[str, str] | None = None) -> CacheSetting:
    """Point JAX's persistent compilation cache at :func:`cache_setting`'s folder (made if
    missing; a folder that cannot be made leaves the cache off, with no error: a cache is a
    speed-up, never a requirement). ``JAX_COMPILATION_CACHE_DIR``'s folder is JAX's to read and is
    left alone."""
    import jax

    setting = cache_setting(environ)
    if setting.source == JAX_CACHE_ENV:
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
        return setting
    folder = setting.folder
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not (folder / TAG).exists():
                (folder / TAG).write_text(TAG_TEXT)
        except OSError:
            folder = None
            setting = CacheSetting(None, f"{setting.folder} cannot be made")
    jax.config.update("jax_compilation_cache_dir", None if folder is None else str(folder))
    if folder is not None:
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
    return setting


def cache_info(environ: dict[str, str] | None = None) -> dict[str, object]:
    """The cache's folder, what chose it, and its entries and size on disk (without JAX)."""
    setting = cache_setting(environ)
    files = []
    if setting.folder is not None and setting.folder.is_dir():
        files = [
            p
            for p in setting.folder.rglob("*")
            if p.is_file() and p.name != TAG and p.suffix != LOCK_SUFFIX
        ]
    return {
        "folder": None if setting.folder is None else str(setting.folder),
        "enabled": setting.folder is not None,
        "source": setting.source,
        "entries": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        # the kernel programs kept whole (carromlab/physics/programs.py: ``programs/``)
        "programs": sum(1 for p in files if p.suffix == ".jaxexport"),
    }


def clear_cache(environ: dict[str, str] | None = None) -> dict[str, object]:
    """Remove every entry of the cache folder (the folder and its tag stay); what was there.
    A folder without carromlab's tag (:data:`TAG`; JAX's own variable's folder, say) is not
    touched: one line says so, since it may hold anything."""
    from carromlab.errors import CarromlabError

    info = cache_info(environ)
    folder = info["folder"]
    if not isinstance(folder, str) or not Path(folder).is_dir():
        return info
    if not (Path(folder) / TAG).is_file():
        raise CarromlabError(
            f"{folder} is not a folder carromlab made for its cache (no {TAG}): not cleared; "
            "remove its files yourself if they are only compiled kernels"
        )
    for p in Path(folder).iterdir():
        if p.name == TAG:
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()
    return info
