"""A persistent compilation cache, on by default: a kernel compiled once is read back from
disk by every later process (the command line, the library, notebooks), instead of being
compiled again (tens of seconds on a 2-core machine).

**Where.** In this order:

1. ``CARROMLAB_CACHE_DIR``: a folder, or ``off`` (also ``0``, ``false``, ``no``, ``none``) to
   switch the cache off; naming something that is no folder (a file, ``/dev/null``) it
   switches the cache off too, and set but empty it is passed over, each said in one line
   (``cache clear`` refuses the first);
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
space (``carromlab cache clear``). An entry that cannot be read back (truncated, corrupted)
is removed when it is read and written anew by the compile that follows
(:func:`replace_damaged_entries`; JAX alone would keep it and compile in every process).
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
    """Where the compilation cache is (``folder``; None: off) and what decided it; ``problem``:
    one line on a setting that could not be followed as given (the cache is then off, or in
    the next place of the list), None when there is none."""

    folder: Path | None
    source: str
    problem: str | None = None


def _kind(path: Path) -> str:
    """What a path that is not a folder is, in words."""
    import stat

    mode = path.stat().st_mode
    for test, words in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "not a folder"


def folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the cache's folder without touching anything (it, or the first
    of its parents that exists, is no folder), or None."""
    try:
        if path.exists():
            return None if path.is_dir() else f"{path} is {_kind(path)}, not a folder"
        for parent in path.parents:
            if parent.exists():
                if parent.is_dir():
                    return None
                return f"{path} cannot be made ({parent} is {_kind(parent)})"
    except OSError as e:
        return f"{path} cannot be used ({e.strerror or e})"
    return None


def cache_setting(environ: dict[str, str] | None = None) -> CacheSetting:
    """The cache folder and what decided it (the module's docstring), from ``environ``
    (default ``os.environ``). Touches nothing. ``CARROMLAB_CACHE_DIR`` naming something that
    is not a folder (a file, ``/dev/null``) switches the cache off; set but empty, it is passed
    over for the next place; either way ``problem`` says so in one line."""
    env = os.environ if environ is None else environ
    given = env.get(CACHE_ENV)
    mine = (given or "").strip()
    if mine:
        if mine.lower() in OFF_WORDS:
            return CacheSetting(None, f"{CACHE_ENV}={mine}")
        folder = Path(mine).expanduser()
        why = folder_problem(folder)
        if why is not None:
            return CacheSetting(
                None,
                f"{CACHE_ENV}={mine}",
                f"{CACHE_ENV}: {why}: the compilation cache is off (set it to a folder, or to off)",
            )
        return CacheSetting(folder, CACHE_ENV)
    jax_dir = env.get(JAX_CACHE_ENV, "").strip()
    if jax_dir:
        setting = CacheSetting(Path(jax_dir).expanduser(), JAX_CACHE_ENV)
    else:
        import platformdirs

        setting = CacheSetting(Path(platformdirs.user_cache_dir("carromlab")) / "jax", "default")
    if given is not None:  # set, but empty
        return CacheSetting(
            setting.folder,
            setting.source,
            f"{CACHE_ENV} is set but empty: the compilation cache is in {setting.folder} "
            f"(from {setting.source}); unset it, or set it to a folder or to off",
        )
    return setting


def say(line: str) -> None:
    """One line on stderr (a cache's problem: never an error, the cache is a speed-up)."""
    import sys

    print(f"warning: {line}", file=sys.stderr, flush=True)


def configure(environ: dict[str, str] | None = None) -> CacheSetting:
    """Point JAX's persistent compilation cache at :func:`cache_setting`'s folder (made if
    missing; a folder that cannot be made leaves the cache off, with no error: a cache is a
    speed-up, never a requirement). ``JAX_COMPILATION_CACHE_DIR``'s folder is JAX's to read and is
    left alone."""
    import jax

    setting = cache_setting(environ)
    if setting.problem is not None:
        say(setting.problem)
    if setting.source == JAX_CACHE_ENV:
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
        return setting
    folder = setting.folder
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if not (folder / TAG).exists():
                (folder / TAG).write_text(TAG_TEXT)
        except OSError as e:
            why = f"{folder} cannot be made ({e.strerror or e})"
            say(f"the compilation cache's folder {why}: the cache is off")
            folder = None
            setting = CacheSetting(None, why)
    jax.config.update("jax_compilation_cache_dir", None if folder is None else str(folder))
    if folder is not None:
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)
        replace_damaged_entries()
    return setting


#: The suffixes of JAX's files for one entry of its cache (``<key>-cache``, ``<key>-atime``).
ENTRY_SUFFIXES = ("-cache", "-atime")


def replace_damaged_entries() -> None:
    """Make an entry of the cache that cannot be read back (truncated, corrupted) be written
    again: JAX warns, compiles, and leaves the damaged file in place (it never overwrites an
    entry), so every later process would compile again. Here reading such an entry removes
    it and counts as a miss: the compile that follows writes the entry anew, and one line
    says so. Where JAX is asked to raise on cache errors (``jax_raise_persistent_cache_
    errors``), or its cache module has another shape, nothing changes."""
    try:
        from jax._src import compilation_cache as jax_cache
    except ImportError:  # another JAX: its own behaviour
        return
    read = getattr(jax_cache, "get_executable_and_time", None)
    if read is None or getattr(read, "replaces_damaged", False):
        return

    def get_executable_and_time(cache_key: str, *args: object, **kwargs: object) -> object:
        try:
            return read(cache_key, *args, **kwargs)
        except Exception as e:
            import jax

            if jax.config.jax_raise_persistent_cache_errors or not remove_entry(cache_key):
                raise
            say(
                f"a damaged compilation-cache entry ({cache_key[:40]}: {type(e).__name__}) was "
                "removed; compiled again and written anew"
            )
            return None, None

    get_executable_and_time.replaces_damaged = True  # type: ignore[attr-defined]
    jax_cache.get_executable_and_time = get_executable_and_time


def remove_entry(cache_key: str) -> bool:
    """Remove the files of one entry of JAX's cache in the configured folder; whether its
    entry file was there to remove."""
    import jax

    folder = jax.config.jax_compilation_cache_dir
    if not folder:
        return False
    removed = False
    for suffix in ENTRY_SUFFIXES:
        path = Path(folder) / f"{cache_key}{suffix}"
        try:
            path.unlink()
            removed |= suffix == ENTRY_SUFFIXES[0]
        except OSError:
            pass
    return removed


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
        "problem": setting.problem,
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

    setting = cache_setting(environ)
    if setting.folder is None and setting.problem is not None:
        raise CarromlabError(
            setting.problem.replace("the compilation cache is off", "nothing cleared")
        )
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
