"""The compiled programs a process used, and why: every kernel program is one entry.

A kernel (:mod:`carromlab.physics.kernel.batch`, :mod:`carromlab.physics.throw`, the
calibration's one-striker runs) is built by :func:`kernel_program`: each new set of input
shapes it is called with is one program, traced once and kept on disk (exported StableHLO)
for later processes, and noted with what chose it: the kernel's kind and static choices
(board, discs, event cap, contact model, lanes) and the shapes. JAX's own monitoring events
say whether XLA compiled it, or read it from the persistent cache
(:mod:`carromlab.compile_cache`), and how long that took.

- :func:`programs`: this process's programs (``carromlab --explain COMMAND`` prints them);
- :data:`LOG_ENV`: a file every process appends its programs to, one JSON line each (the
  test suite counts its distinct programs this way, across workers and subprocesses);
- :func:`compile_totals`: every XLA compile of the process (helpers included) and its
  seconds.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import jax
import numpy as np

from carromlab.compile_cache import LOCK_SUFFIX, compile_notice

try:
    import fcntl
except ImportError:  # (not POSIX: no lock; two processes may then compile a program twice)
    fcntl = None  # type: ignore[assignment]

#: A file (JSON lines) every process appends its new programs to, when set.
LOG_ENV = "CARROMLAB_PROGRAM_LOG"

#: The program store's sub-folder of the compilation cache's folder.
PROGRAMS_FOLDER = "programs"

_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
_HIT_EVENT = "/jax/compilation_cache/cache_hits"


@dataclass(frozen=True)
class ProgramRecord:
    """One compiled program: ``kind`` (which kernel), ``why`` (its static choices and input
    shapes, as text), ``key`` (a short hash of both: equal keys, one program), the first
    call's ``seconds`` (compile or cache read, and the run), and whether XLA ``compiled`` it
    or it came ``from_disk`` (the persistent cache); ``compile_seconds``: XLA's time."""

    kind: str
    why: dict[str, str]
    key: str
    seconds: float
    compiled: int
    from_disk: int
    compile_seconds: float
    #: "traced" (built here) or "stored" (read back from the program store)
    source: str = "traced"

    def line(self) -> str:
        how = (
            f"compiled {self.compile_seconds:.1f} s"
            if self.compiled
            else ("from the disk cache" if self.from_disk else "already compiled")
        )
        how += ", traced" if self.source == "traced" else ", stored program"
        what = ", ".join(f"{k} {v}" for k, v in self.why.items())
        return f"{self.kind} [{self.key}]: {what} ({how})"


_lock = threading.Lock()
_seen: dict[str, ProgramRecord] = {}
_local = threading.local()
_totals = {"compiles": 0, "compile_seconds": 0.0, "cache_hits": 0}


def _counters() -> dict[str, float]:
    c = getattr(_local, "c", None)
    if c is None:
        c = _local.c = {"compiles": 0, "compile_seconds": 0.0, "cache_hits": 0}
    return c


def _on_duration(event: str, duration: float, **_: Any) -> None:
    if event == _COMPILE_EVENT:
        c = _counters()
        c["compiles"] += 1
        c["compile_seconds"] += duration
        with _lock:
            _totals["compiles"] += 1
            _totals["compile_seconds"] += duration


def _on_event(event: str, **_: Any) -> None:
    if event == _HIT_EVENT:
        _counters()["cache_hits"] += 1
        with _lock:
            _totals["cache_hits"] += 1


jax.monitoring.register_event_duration_secs_listener(_on_duration)
jax.monitoring.register_event_listener(_on_event)


def _summary(leaves: list[Any]) -> str:
    """The batch's size and the float width: what varies between calls of one kernel."""
    lead = sorted({a.shape[0] for a in leaves if getattr(a, "ndim", 0) >= 1})
    floats = sorted({str(a.dtype) for a in leaves if _is_float(a)})
    return f"{'/'.join(map(str, lead)) or '-'} ({'/'.join(floats)})"


def _is_float(a: Any) -> bool:
    try:
        return bool(np.issubdtype(getattr(a, "dtype", int), np.floating))
    except TypeError:  # a key array's dtype (key<fry>) is no NumPy type
        return False


@functools.cache
def code_digest() -> str:
    """A hash of everything a kernel is traced from: the source of ``carromlab.physics`` and
    the layers below it (equipment, the cache, errors, the version), and the JAX and jaxlib
    versions. A stored program is used only under the same digest (:func:`kernel_program`)."""
    import jaxlib

    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(f"jax {jax.__version__} jaxlib {jaxlib.__version__}".encode())
    files = sorted(
        [*(root / "physics").rglob("*.py"), *(root / "equipment").rglob("*.py")]
        + [root / n for n in ("compile_cache.py", "errors.py", "_version.py")]
    )
    for f in files:
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _environment() -> str:
    """What else decides a compiled program: the backend, its devices, the x64 flag, XLA's
    flags."""
    dev = jax.devices()[0]
    return "|".join(
        [
            dev.platform,
            str(getattr(dev, "device_kind", "")),
            str(jax.config.jax_enable_x64),
            os.environ.get("XLA_FLAGS", ""),
        ]
    )


def store_folder() -> Path | None:
    """Where exported kernel programs are kept: ``programs/`` in the compilation cache's folder
    (:mod:`carromlab.compile_cache`); None when the cache is off."""
    from carromlab.compile_cache import cache_setting

    folder = cache_setting().folder
    return None if folder is None else folder / PROGRAMS_FOLDER


@dataclass
class _Loaded:
    call: Callable[..., Any]
    out_tree: Any


def _load_program(
    fun: Callable[..., Any], options: dict[str, Any], key: str, leaves: list[Any], in_tree: Any
) -> tuple[_Loaded, str]:
    """:func:`kernel_program`'s program for one signature: read back from the store under
    ``key`` ("stored"), else traced, exported and written there ("traced")."""
    folder = store_folder()
    path = None if folder is None else folder / f"{key}.jaxexport"
    if path is not None and path.is_file():
        try:
            blob = path.read_bytes()
            n_tree = int.from_bytes(blob[:4], "little")
            out_tree = pickle.loads(blob[4 : 4 + n_tree])
            exported = jax.export.deserialize(bytearray(blob[4 + n_tree :]))
            return _Loaded(jax.jit(exported.call, compiler_options=options), out_tree), "stored"
        except Exception:  # a damaged or foreign file: traced again and rewritten
            pass
    box: dict[str, Any] = {}

    def flat(*xs: Any) -> list[Any]:
        out = fun(*jax.tree_util.tree_unflatten(in_tree, xs))
        ys, box["tree"] = jax.tree_util.tree_flatten(out)
        return ys

    specs = [jax.typeof(x) for x in leaves]
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in specs]
    exported = jax.export.export(jax.jit(flat, compiler_options=options))(*specs)
    if path is not None:
        _write(path, box["tree"], exported)
    return _Loaded(jax.jit(exported.call, compiler_options=options), box["tree"]), "traced"


def kernel_program(
    fun: Callable[..., Any],
    kind: str,
    compiler_options: dict[str, Any] | None = None,
    **why: object,
) -> Callable[..., Any]:
    """``fun`` jitted (with ``compiler_options``), as a program kept across processes.

    Each new input signature (shapes, dtypes, pytree) is one program: traced once, exported
    (:mod:`jax.export`: the lowered StableHLO) and written to :func:`store_folder` under a key
    made of ``kind``, ``why`` (the static choices that built it: board, discs, event cap...),
    the signature, :func:`code_digest` and the backend. A later process with the same key reads
    it back instead of tracing the kernel again (seconds of Python), and JAX's persistent cache
    then supplies the compiled code. Every process runs the exported program (the same one it
    writes), so a stored program and a fresh one are the same computation, bit for bit. Each
    new signature is noted as a :class:`ProgramRecord` (:func:`programs`, ``--explain``)."""
    static = {k: str(v) for k, v in why.items()}
    options = dict(compiler_options or {})
    loaded: dict[tuple[Any, ...], _Loaded] = {}
    lock = threading.Lock()

    load = partial(_load_program, fun, options)

    def first_call(sig: tuple[Any, ...], leaves: list[Any]) -> tuple[_Loaded, Any]:
        """A new signature: its program made ready (read back, or traced and written) under
        the program's lock, run once, and noted."""
        in_tree, types = sig
        text = f"{in_tree}|{' '.join(map(str, types))}"
        key = hashlib.sha256(
            f"{kind}|{sorted(static.items())}|{text}|{code_digest()}|{_environment()}".encode()
        ).hexdigest()[:24]
        before = dict(_counters())
        t0 = time.perf_counter()
        with compile_notice(_what(kind, static)), program_lock(key):
            prog, source = load(key, leaves, in_tree)
            out = prog.call(*leaves)
            jax.block_until_ready(out)
        after = _counters()
        hits = after["cache_hits"] - before["cache_hits"]
        _note(
            ProgramRecord(
                kind=kind,
                why={**static, "batch": _summary(leaves)},
                key=key[:10],
                seconds=round(time.perf_counter() - t0, 3),
                compiled=int(after["compiles"] - before["compiles"] - hits),
                from_disk=int(hits),
                compile_seconds=round(after["compile_seconds"] - before["compile_seconds"], 3),
                source=source,
            )
        )
        return prog, out

    def call(*args: Any) -> Any:
        leaves, in_tree = jax.tree_util.tree_flatten(args)
        # (the key's hash, the environment and the store are looked at once a signature)
        sig = (in_tree, tuple(jax.typeof(a) for a in leaves))
        prog = loaded.get(sig)
        if prog is None:
            with lock:  # one thread makes a program ready; the others wait for it
                prog = loaded.get(sig)
                if prog is None:
                    prog, out = first_call(sig, leaves)
                    loaded[sig] = prog
                    return jax.tree_util.tree_unflatten(prog.out_tree, out)
        return jax.tree_util.tree_unflatten(prog.out_tree, prog.call(*leaves))

    call.__wrapped__ = fun  # type: ignore[attr-defined]
    call.__doc__ = fun.__doc__
    return call


#: How a compile names each kind of kernel to the user (the spinner's line).
KIND_NAMES = {
    "lanes": "the physics kernel",
    "batch": "the physics kernel (plain batch)",
    "trace": "the path-recording kernel",
    "throw": "the throw kernel",
    "one-striker": "the calibration kernel",
}


@contextlib.contextmanager
def program_lock(key: str) -> Iterator[None]:
    """Held while a process makes a program ready (reads or traces it, compiles or reads the
    compiled code): another process that needs the same program at the same moment (a test
    worker, a sweep's worker) waits, then reads both back instead of compiling them a second
    time. A lock file per program in the store (``fcntl.flock``: released by the system if
    the process dies); nothing where the store is off or ``fcntl`` is missing (Windows)."""
    folder = store_folder()
    if folder is None or fcntl is None:
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / f"{key}{LOCK_SUFFIX}", "a")  # (held until the block ends)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        try:
            fcntl.flock(handle, fcntl.LOCK_UN)
        finally:
            handle.close()


def _what(kind: str, static: dict[str, str]) -> str:
    discs = f" for {static['discs']} discs" if "discs" in static else ""
    return f"{KIND_NAMES.get(kind, f'the {kind} kernel')}{discs}"


def _write(path: Path, out_tree: Any, exported: Any) -> None:
    """The program's file, written whole or not at all (another process may read it)."""
    try:
        tree = pickle.dumps(out_tree)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(len(tree).to_bytes(4, "little") + tree + bytes(exported.serialize()))
        os.replace(tmp, path)
    except Exception:  # a store is a speed-up, never a reason to fail
        pass


def _note(rec: ProgramRecord) -> None:
    with _lock:
        if rec.key in _seen:
            return
        _seen[rec.key] = rec
    path = os.environ.get(LOG_ENV, "").strip()
    if path:
        try:
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({**asdict(rec), "pid": os.getpid()}) + "\n")
        except OSError:
            pass  # a log is a help, never a reason to fail


def programs() -> list[ProgramRecord]:
    """The kernel programs this process has used, first used first."""
    with _lock:
        return list(_seen.values())


def compile_totals() -> dict[str, float]:
    """Every XLA compile of this process so far (kernels and small helpers): ``compiles``,
    ``compile_seconds``, ``cache_hits`` (programs read from the persistent cache)."""
    with _lock:
        return dict(_totals)


def explain_lines() -> list[str]:
    """What ``--explain`` prints: one line per kernel program, then the totals."""
    recs = programs()
    tot = compile_totals()
    out = [f"kernel programs used: {len(recs)}"]
    out += [f"  {r.line()}" for r in recs]
    out.append(
        f"XLA compiles in all (helpers included): {tot['compiles']}, "
        f"{tot['compile_seconds']:.1f} s; read from the disk cache: {tot['cache_hits']}"
    )
    return out
