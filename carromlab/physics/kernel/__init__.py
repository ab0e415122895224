"""The event-driven batch kernel, in named steps over (static spec, traced constants, state).

One shot is a bounded ``lax.while_loop`` over events, built in the manner of MJX's
``forward(m, d)`` and Brax's pipelines: a short chain of module-level functions
``f(spec, c, state) -> state``.

| module | what it holds |
|---|---|
| :mod:`~carromlab.physics.kernel.state` | the typed values: ``Discs``, ``KernelState``, ``Kinematics``, ``Event``, ``Pending``, ``ShotOutcome``, ``Trace`` |
| :mod:`~carromlab.physics.kernel.spec` | the kernel's constants, the static ``KernelSpec`` (``make_spec``: walls, captures, pair tables, counts, cap, contact model; built once) and a shot's traced ``Constants`` (``bind``) |
| :mod:`~carromlab.physics.kernel.detect` | event times: one-disc events, pair rows, the next event |
| :mod:`~carromlab.physics.kernel.resolve` | what an event does: ``advance``, ``resolve_pair``, ``resolve_disc`` (cushion, rail, peg, capture, ditch) |
| :mod:`~carromlab.physics.kernel.cluster` | the cluster contact model's solve |
| :mod:`~carromlab.physics.kernel.tally` | contacts counted, the shooter's first contact, the trace, the outcome |
| :mod:`~carromlab.physics.kernel.step` | ``init`` and ``apply`` (in ``Stages``), ``EventLoop``, ``make_shot_loop`` |
| :mod:`~carromlab.physics.kernel.batch` | ``make_simulator`` (one shot), ``make_batch_simulator`` (vmap), ``make_lane_simulator`` (refilling lanes), the cached ``batch_simulator_for`` / ``lane_simulator_for`` |

See docs/physics.md for the model and docs/ARCHITECTURE.md for the layout.
"""

from carromlab.physics.kernel.batch import (
    apply_batch,
    batch_simulator_for,
    lane_simulator_for,
    make_batch_simulator,
    make_lane_simulator,
    make_simulator,
    run_where,
)
from carromlab.physics.kernel.cluster import (
    ClusterHits,
    ClusterInput,
    ClusterOutput,
    solve_cluster_hits,
    solve_clusters,
)
from carromlab.physics.kernel.detect import first_min
from carromlab.physics.kernel.resolve import rail_bounce
from carromlab.physics.kernel.spec import (
    CLOSING_SPEED,
    CLUSTER_MAX_STEPS,
    CLUSTER_STEPS,
    CONTACT_MODELS,
    CONTACT_TOL,
    CPU_COMPILER_OPTIONS,
    DEFAULT_CONTACTS,
    DISC_BUCKETS,
    LANES,
    PAIR_WIDTH,
    ROWS_PER_PASS,
    SOLVE_LANES,
    TOUCH_GAP,
    Constants,
    KernelSpec,
    bind,
    disc_bucket,
    kernel_compiler_options,
    make_spec,
)
from carromlab.physics.kernel.state import (
    FIRST_NONE,
    FIRST_PIECE,
    FIRST_WALL,
    Discs,
    Event,
    KernelState,
    Kinematics,
    Pending,
    ShotOutcome,
    Trace,
)
from carromlab.physics.kernel.step import (
    EventLoop,
    ShotLoop,
    Stages,
    event_loop,
    make_shot_loop,
    shot_loop_for,
)

__all__ = [
    "CLOSING_SPEED",
    "CLUSTER_MAX_STEPS",
    "CLUSTER_STEPS",
    "CONTACT_MODELS",
    "CONTACT_TOL",
    "CPU_COMPILER_OPTIONS",
    "DEFAULT_CONTACTS",
    "DISC_BUCKETS",
    "FIRST_NONE",
    "FIRST_PIECE",
    "FIRST_WALL",
    "LANES",
    "PAIR_WIDTH",
    "ROWS_PER_PASS",
    "SOLVE_LANES",
    "TOUCH_GAP",
    "ClusterHits",
    "ClusterInput",
    "ClusterOutput",
    "Constants",
    "Discs",
    "Event",
    "EventLoop",
    "KernelSpec",
    "KernelState",
    "Kinematics",
    "Pending",
    "ShotLoop",
    "ShotOutcome",
    "Stages",
    "Trace",
    "apply_batch",
    "batch_simulator_for",
    "bind",
    "disc_bucket",
    "event_loop",
    "first_min",
    "kernel_compiler_options",
    "lane_simulator_for",
    "make_batch_simulator",
    "make_lane_simulator",
    "make_shot_loop",
    "make_simulator",
    "make_spec",
    "rail_bounce",
    "run_where",
    "shot_loop_for",
    "solve_cluster_hits",
    "solve_clusters",
]
