"""The same shots in pymunk (an optional dependency): a speed peer and an independent check.

pymunk (Chipmunk2D) is a general rigid-body engine with a fixed time step and an iterative
contact solver; nothing of the kernel's event machinery is shared. The model mirrors the
kernel's *physics*, never its code:

- **Table friction** (the issue's recipe): each disc is tied to the static body by a
  ``PivotJoint`` at its centre with ``max_bias = 0`` (no position correction) and
  ``max_force = mu * m * g``: the joint resists the disc's velocity with at most the Coulomb
  sliding force, so a sliding disc decelerates at ``mu * g`` and a slow one stops. Discs
  cannot rotate (infinite moment): the kernel has no spin, and an off-centre contact on a
  polygonised rail would otherwise make them turn.
- **Contacts** are frictionless. Restitution is exact for every pair the kernel has:
  pymunk multiplies the two shapes' elasticities, so a non-striker disc gets
  ``sqrt(e_piece)`` and a striker ``e_striker / sqrt(e_piece)`` (coin-coin ``e_piece``,
  striker-coin ``e_striker``; two strikers never meet), and every contact with the table
  (cushion, rail, peg) is set in a pre-solve callback to the wall material's restitution
  (``e_cushion`` for frames and rails, ``e_post`` for pegs), whatever the disc.
- **Straight cushions** are zero-thickness segments. **Circular rails** (Carrooka) are
  polygons of :data:`RAIL_SEGMENTS` chords, their vertices on the circle's radius plus half
  the chords' sagitta (so the polygon lies within +-1 um of a 0.4 m rail); at each rail
  contact the pre-solve callback replaces the chord's normal by the circle's radial normal
  (without it the corners of the polygon scatter a bounce: a bank shot then lands
  millimetres to decimetres away) and applies the kernel's grazing floor (``Physics.rail_graze``: the normal speed out is at
  least ``rail_graze`` of the speed along the rail; where that would leave faster than the
  disc came, it leaves in the floor's direction at its incoming speed, as in the kernel).
  **Pegs** are static circles.
  **Pegged (static) pieces** are static circles with the piece's elasticity.
- **Captures** mirror the kernel's rule: a disc is captured when its centre is inside a
  capture circle (pocket, hole) while its speed is at most the capture's skip speed (``inf``
  for pockets); on a ditch board, when its centre leaves the surface circle (code ``C``, the
  number of captures, as in the kernel). Each capture circle is a sensor shape that finds the
  candidates; the exact test runs on the disc's centre every step; the captured disc is
  removed after that step.
- **First contacts**: a collision callback records the shooter's (disc 0) first contact with a
  piece (``first_piece``) and its first contact of any kind (``first_contact_kind``,
  ``first_contact`` with walls in ``Table.cushion_names`` order), as the kernel does; two
  first contacts in one step are told apart by depth (the deeper one happened first).

Not modelled: contact friction (``Physics.mu_contact``, 0 by default; the peer refuses any
other value). Not mirrored: the kernel's plastic rule for contacts slower than
``Physics.stick_speed`` (0.01 m/s: a disc that slow slides at most 0.05 mm) and its fixed
sequential order of the contacts inside a touching cluster (pymunk solves a cluster's
contacts together, iteratively): see docs/validation.md.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import replace

import numpy as np

from carromlab.physics import Physics
from carromlab.physics.params import STRIKER_MATERIALS
from carromlab.physics.table import Pieces, Table

#: Default time step (s). pymunk finds a contact only once the discs overlap, so a contact
#: is resolved up to one step's travel late (1 mm at 5 m/s with 2e-4 s), which turns the
#: line of centres of a cut. At 5e-5 s (0.25 mm at 5 m/s, 0.1 mm at 2 m/s) the validation
#: shots agree with the kernel on every first contact and capture, final places 0.04-2.8 mm
#: apart (21 mm after many contacts), at 3-4 times the cost of 2e-4 s; docs/validation.md
#: shows the convergence in the step.
DT = 5e-5
#: Chords of a circular rail's polygon. 1,024 chords of a 0.40 m rail are 2.5 mm long with a
#: sagitta of 1.9 um, far below the contact error of the time step; their normals are
#: replaced by the radial one at each contact (256 chords already agree with the kernel to
#: 0.05 mm on the Carrooka bank shot; 1,024 leave a margin at no measurable cost).
RAIL_SEGMENTS = 1024
#: Contact solver iterations per step (pymunk's default is 10). Packed clusters pass an
#: impulse through several discs in one step; 20 brings the chain close to converged.
SOLVER_ITERATIONS = 20
#: Overlap (m) pymunk leaves uncorrected. Its default, 0.1, is meant for pixels; in metres
#: it would let discs sink into each other unchecked. 1 um is far below any length of the
#: model and above float rounding.
COLLISION_SLOP = 1e-6
#: Speed (m/s) under which a disc counts as at rest. A disc that slow slides at most 0.5 um
#: more before friction stops it (v^2 / 2 mu g with mu = 0.1).
REST_SPEED = 1e-3
#: Steps between two checks that every disc is at rest (the check costs a Python loop).
REST_CHECK_STEPS = 20
#: Without ``t_max``: simulate up to this many times the slowest-to-stop disc's sliding time
#: (v / mu g), plus one second. A contact can send a coin off at up to 1.4 times the striker's
#: speed, and bounces only lose speed; reaching the limit flags the shot ``truncated``.
T_MAX_FACTOR = 2.0

# Collision types of the shapes.
_SHOOTER, _PIECE, _WALL, _RAIL, _POST, _CAPTURE = 1, 2, 3, 4, 5, 6
_FIRST_NONE, _FIRST_PIECE, _FIRST_WALL = 0, 1, 2  # the kernel's first_contact_kind codes


def _rail_polygon(cx: float, cy: float, radius: float, n: int) -> np.ndarray:
    """Vertices (n + 1, 2; the last repeats the first) of an n-gon whose chords lie within
    half a sagitta of the circle (cx, cy, radius) on either side."""
    sagitta = radius * (1.0 - math.cos(math.pi / n))
    rv = radius + 0.5 * sagitta
    a = np.linspace(0.0, 2.0 * math.pi, n + 1)
    return np.stack([cx + rv * np.cos(a), cy + rv * np.sin(a)], axis=1)


def _on_collision(space, a: int, b: int, **callbacks) -> None:
    """Register collision callbacks ``fn(arbiter)`` for types (a, b) on pymunk 7
    (``Space.on_collision``) or pymunk 6 (``add_collision_handler``, callbacks return True)."""
    if hasattr(space, "on_collision"):
        space.on_collision(
            a, b, **{k: (lambda arb, _s, _d, f=f: f(arb)) for k, f in callbacks.items()}
        )
        return
    handler = space.add_collision_handler(a, b)
    for k, f in callbacks.items():

        def wrapped(arb, _s, _d, f=f):
            f(arb)
            return True

        setattr(handler, k, wrapped)


def simulate_pymunk(
    table: Table,
    pieces: Pieces,
    physics: Physics = Physics(),
    dt: float = DT,
    t_max: float | None = None,
    rest_speed: float = REST_SPEED,
    rail_segments: int = RAIL_SEGMENTS,
    iterations: int = SOLVER_ITERATIONS,
) -> dict:
    """One shot in pymunk (disc 0 is the shooter).

    Returns a dict of numpy arrays and scalars named like the kernel's ``ShotOutcome``:
    ``x``, ``y`` (final places; where it was captured for a captured disc), ``alive``,
    ``capture`` (-1 on the board, ``0..C-1`` the table's captures, ``C`` the ditch),
    ``capture_time``, ``first_piece`` (the first piece the shooter touched; -1 none),
    ``first_contact_kind`` (0 none, 1 piece, 2 wall), ``first_contact`` (piece index or wall
    index in ``Table.cushion_names`` order), ``t_end``, ``steps`` and ``truncated`` (the time
    limit was reached before every disc came to rest).
    """
    import pymunk

    if physics.e_piece <= 0:
        raise ValueError("the pymunk peer needs e_piece > 0 (elasticities are multiplied)")
    if getattr(physics, "mu_contact", 0.0) != 0.0:
        raise ValueError(
            "the pymunk peer has smooth contacts only (Physics.mu_contact = 0): the kernel's "
            "contact friction (no spin kept after a contact) has no pymunk counterpart"
        )
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.iterations = int(iterations)
    space.collision_slop = COLLISION_SLOP
    static = space.static_body
    k_coin = math.sqrt(physics.e_piece)

    wall_of: dict = {}  # shape -> (wall index in cushion_names order, restitution)
    n_seg, n_rail = len(table.segments), len(table.rails)
    for w, ((x0, y0, x1, y1), mat) in enumerate(zip(table.segments, table.segment_materials)):
        seg = pymunk.Segment(static, (float(x0), float(y0)), (float(x1), float(y1)), 0.0)
        seg.collision_type = _WALL
        wall_of[seg] = (w, physics.wall_restitution(mat))
        space.add(seg)
    rail_of: dict = {}  # shape -> (cx, cy)
    for k, ((cx, cy, rr), mat) in enumerate(zip(table.rails, table.rail_materials)):
        verts = _rail_polygon(float(cx), float(cy), float(rr), int(rail_segments))
        for p, q in itertools.pairwise(verts):
            seg = pymunk.Segment(static, tuple(p), tuple(q), 0.0)
            seg.collision_type = _RAIL
            wall_of[seg] = (n_seg + k, physics.wall_restitution(mat))
            rail_of[seg] = (float(cx), float(cy))
            space.add(seg)
    for k, ((px, py, pr), mat) in enumerate(zip(table.posts, table.post_materials)):
        post = pymunk.Circle(static, float(pr), (float(px), float(py)))
        post.collision_type = _POST
        wall_of[post] = (n_seg + n_rail + k, physics.wall_restitution(mat))
        space.add(post)
    capture_of: dict = {}  # sensor shape -> (capture index, x, y, r^2, skip speed)
    for c, (cx, cy, cr, skip) in enumerate(table.captures):
        sensor = pymunk.Circle(static, float(cr), (float(cx), float(cy)))
        sensor.sensor = True
        sensor.collision_type = _CAPTURE
        capture_of[sensor] = (c, float(cx), float(cy), float(cr) ** 2, float(skip))
        space.add(sensor)

    n = pieces.n
    index_of: dict = {}  # shape -> piece index
    bodies: dict[int, tuple] = {}  # piece index -> (body, shape, joint) of moving discs
    for i in range(n):
        if not pieces.alive[i]:
            continue
        r = float(pieces.radius[i])
        striker = pieces.materials[i] in STRIKER_MATERIALS
        if pieces.static[i]:
            shape = pymunk.Circle(static, r, (float(pieces.x[i]), float(pieces.y[i])))
            parts: tuple = (shape,)
        else:
            m = float(pieces.mass[i])
            body = pymunk.Body(m, math.inf)
            body.position = (float(pieces.x[i]), float(pieces.y[i]))
            body.velocity = (float(pieces.vx[i]), float(pieces.vy[i]))
            shape = pymunk.Circle(body, r)
            joint = pymunk.PivotJoint(static, body, (0.0, 0.0), (0.0, 0.0))
            joint.max_bias = 0.0
            joint.max_force = physics.mu * m * physics.g
            parts = (body, shape, joint)
            bodies[i] = parts
        shape.elasticity = physics.e_striker / k_coin if striker else k_coin
        shape.friction = 0.0
        shape.collision_type = _SHOOTER if i == 0 else _PIECE
        index_of[shape] = i
        space.add(*parts)

    # ---------------------------------------------------------------- callbacks
    def wall_restitution(arb):
        arb.restitution = wall_of[arb.shapes[1]][1]

    def rail_contact(arb):
        disc, seg = arb.shapes
        cx, cy = rail_of[seg]
        px, py = disc.body.position
        dx, dy = px - cx, py - cy
        d = math.hypot(dx, dy)
        if d <= 0:
            return
        nx, ny = dx / d, dy / d  # the circle's outward normal at the disc (disc -> rail)
        cps = arb.contact_point_set
        if cps.normal.x * nx + cps.normal.y * ny < 0:  # keep pymunk's sense
            nx, ny = -nx, -ny
        arb.contact_point_set = pymunk.ContactPointSet(pymunk.Vec2d(nx, ny), cps.points)
        e = wall_of[seg][1]
        vx, vy = disc.body.velocity
        vn = vx * nx + vy * ny  # > 0: towards the rail
        vt = math.sqrt(max(vx * vx + vy * vy - vn * vn, 0.0))
        floor = physics.rail_graze * vt  # the kernel's grazing floor
        if vn > 1e-12 and floor > vn:
            # the floor turns a grazing bounce, never speeds it up: the disc leaves in the
            # floor's direction at its incoming speed. A restitution cannot turn a velocity,
            # so the disc arrives in the mirror image of that and leaves with restitution 1.
            s = math.sqrt((vt * vt + vn * vn) / (vt * vt + floor * floor))
            tx, ty = vx - vn * nx, vy - vn * ny
            disc.body.velocity = ((tx + floor * nx) * s, (ty + floor * ny) * s)
            e = 1.0
        elif vn > 1e-12:
            e = max(e, floor / vn)
        arb.restitution = e

    pending: dict[int, int] = {}  # piece index -> capture code, this step

    def capture_check(arb):
        sensor, disc = arb.shapes
        c, cx, cy, r2, skip = capture_of[sensor]
        body = disc.body
        px, py = body.position
        if (px - cx) ** 2 + (py - cy) ** 2 < r2 and body.velocity.length <= skip:
            pending.setdefault(index_of[disc], c)

    first_cands: list = []  # (depth, kind, index) of the shooter's contacts begun this step

    def shooter_begin(arb):
        a, b = arb.shapes
        cps = arb.contact_point_set
        nx, ny = cps.normal
        va = a.body.velocity
        vb = b.body.velocity
        if (va.x - vb.x) * nx + (va.y - vb.y) * ny <= 0:  # touching, not approaching
            return
        depth = min((p.distance for p in cps.points), default=0.0)
        if b in index_of:
            first_cands.append((depth, _FIRST_PIECE, index_of[b]))
        else:
            first_cands.append((depth, _FIRST_WALL, wall_of[b][0]))

    # other discs: exact wall restitution, rail normals, captures
    _on_collision(space, _PIECE, _WALL, pre_solve=wall_restitution)
    _on_collision(space, _PIECE, _POST, pre_solve=wall_restitution)
    _on_collision(space, _PIECE, _RAIL, pre_solve=rail_contact)
    _on_collision(space, _CAPTURE, _PIECE, pre_solve=capture_check)
    # the shooter: the same, and its first contacts
    _on_collision(space, _CAPTURE, _SHOOTER, pre_solve=capture_check)
    _on_collision(space, _SHOOTER, _PIECE, begin=shooter_begin)
    _on_collision(space, _SHOOTER, _WALL, begin=shooter_begin, pre_solve=wall_restitution)
    _on_collision(space, _SHOOTER, _POST, begin=shooter_begin, pre_solve=wall_restitution)
    _on_collision(space, _SHOOTER, _RAIL, begin=shooter_begin, pre_solve=rail_contact)

    # ---------------------------------------------------------------- stepping
    capture = np.full(n, -1)
    capture_time = np.full(n, np.nan)
    x_out, y_out = pieces.x.astype(float).copy(), pieces.y.astype(float).copy()
    alive = pieces.alive.astype(bool).copy()
    first_piece, first_kind, first_contact = -1, _FIRST_NONE, -1
    ditch = table.surface_beyond == "ditch" and table.surface_shape == "circle"
    surface2 = float(table.surface_size) ** 2
    n_caps = len(table.captures)
    if t_max is None:
        vmax = max((float(math.hypot(pieces.vx[i], pieces.vy[i])) for i in bodies), default=0.0)
        t_max = T_MAX_FACTOR * vmax / max(physics.mu * physics.g, 1e-12) + 1.0
    t, steps, at_rest = 0.0, 0, False
    while t < t_max:
        space.step(dt)
        t += dt
        steps += 1
        if first_cands:
            if first_kind == _FIRST_NONE:
                _, first_kind, first_contact = min(first_cands)
            pieces_hit = [c for c in first_cands if c[1] == _FIRST_PIECE]
            if first_piece < 0 and pieces_hit:
                first_piece = min(pieces_hit)[2]
            first_cands.clear()
        if ditch:
            for i, (body, _, _) in bodies.items():
                px, py = body.position
                if px * px + py * py > surface2:
                    pending.setdefault(i, n_caps)
        for i, c in pending.items():
            if i in bodies:
                body, shape, joint = bodies.pop(i)
                x_out[i], y_out[i] = body.position
                space.remove(body, shape, joint)
                capture[i], capture_time[i], alive[i] = c, t, False
        pending.clear()
        if steps % REST_CHECK_STEPS == 0 and all(
            b.velocity.length <= rest_speed for b, _, _ in bodies.values()
        ):
            at_rest = True
            break
    for i, (body, _, _) in bodies.items():
        x_out[i], y_out[i] = body.position
    return {
        "x": x_out,
        "y": y_out,
        "alive": alive,
        "capture": capture,
        "capture_time": capture_time,
        "first_piece": first_piece,
        "first_contact_kind": first_kind,
        "first_contact": first_contact,
        "t_end": t,
        "steps": steps,
        "truncated": not at_rest,
    }


def bench_pymunk(
    table: Table, template: Pieces, shots, physics: Physics = Physics(), dt: float = DT
) -> dict:
    """Time pymunk on ``shots`` (a list of (x, y, angle, speed) for disc 0) at step ``dt``;
    returns ``shots``, ``elapsed_s``, ``shots_per_s`` and the per-shot ``results`` of
    :func:`simulate_pymunk`."""
    t0 = time.perf_counter()
    results = [
        simulate_pymunk(table, place_shot(template, *shot), physics, dt=dt) for shot in shots
    ]
    elapsed = time.perf_counter() - t0
    return {
        "shots": len(shots),
        "elapsed_s": elapsed,
        "shots_per_s": len(shots) / elapsed,
        "results": results,
    }


def bench_pymunk_machine(
    table: Table,
    template: Pieces,
    shots,
    processes: int,
    physics: Physics = Physics(),
    dt: float = DT,
) -> dict:
    """:func:`bench_pymunk` on every core: ``processes`` spawned processes, started together
    (a barrier), each with every ``processes``-th shot. ``shots_per_s`` is the sum of the
    processes' own rates (each timed over its own shots while the others run: a process that
    ran alone for part of the time only adds to the peer's figure); ``results`` come back in
    the shots' order."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    procs = [
        ctx.Process(
            target=_peer_worker,
            args=(w, table, template, list(shots[w::processes]), physics, dt, barrier, results),
        )
        for w in range(processes)
    ]
    for p in procs:
        p.start()
    got = dict(results.get() for _ in procs)
    for p in procs:
        p.join()
    per = [got[w]["shots_per_s"] for w in range(processes)]
    ordered = [None] * len(shots)
    for w in range(processes):
        ordered[w::processes] = got[w]["results"]
    return {
        "shots": len(shots),
        "processes": processes,
        "shots_per_s_per_process": per,
        "shots_per_s": float(sum(per)),
        "results": ordered,
    }


def _peer_worker(w, table, template, shots, physics, dt, barrier, results) -> None:
    barrier.wait()
    results.put((w, bench_pymunk(table, template, shots, physics, dt)))


def place_shot(template: Pieces, x: float, y: float, angle: float, speed: float) -> Pieces:
    """``template`` with disc 0 at (x, y) moving at ``speed`` towards ``angle`` (radians)."""
    px, py = template.x.copy(), template.y.copy()
    vx, vy = template.vx.copy(), template.vy.copy()
    px[0], py[0] = x, y
    vx[0], vy[0] = speed * math.cos(angle), speed * math.sin(angle)
    return replace(template, x=px, y=py, vx=vx, vy=vy)
