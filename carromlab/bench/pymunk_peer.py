"""The same shots in pymunk (an optional dependency), as a speed and sanity peer.

Model (the issue's recipe): table friction is a pivot joint from each disc to the static body
with ``max_bias = 0`` and ``max_force = mu * m * g`` (Coulomb sliding friction on the
translation); contacts are frictionless; a disc whose centre enters a pocket circle is removed.
Restitution: pymunk multiplies the two shapes' elasticities, so each shape gets a factor chosen
to reproduce coin-coin ``e_piece`` and coin-cushion ``e_cushion`` exactly; striker-coin and
striker-cushion then come out as ``e_striker`` and ``e_cushion * e_striker / e_piece``
(0.66 instead of 0.70 with the defaults: a documented approximation).
"""

from __future__ import annotations

import math
import time

import numpy as np

from carromlab.physics import Physics
from carromlab.physics.table import Pieces, Table


def simulate_pymunk(
    table: Table,
    pieces: Pieces,
    physics: Physics = Physics(),
    dt: float = 2e-4,
    t_max: float = 10.0,
    rest_speed: float = 1e-3,
) -> dict:
    """One shot in pymunk; returns final positions and which piece fell in which pocket."""
    import pymunk

    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.iterations = 20
    static = space.static_body
    k_coin = math.sqrt(physics.e_piece)
    for x0, y0, x1, y1 in table.segments:
        seg = pymunk.Segment(static, (x0, y0), (x1, y1), 0.0)
        seg.elasticity = physics.e_cushion / k_coin
        seg.friction = 0.0
        space.add(seg)
    bodies = []
    for n in range(pieces.n):
        m, r = float(pieces.mass[n]), float(pieces.radius[n])
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0, r))
        body.position = (float(pieces.x[n]), float(pieces.y[n]))
        body.velocity = (float(pieces.vx[n]), float(pieces.vy[n]))
        shape = pymunk.Circle(body, r)
        striker = pieces.materials[n] == "striker"
        shape.elasticity = physics.e_striker / k_coin if striker else k_coin
        shape.friction = 0.0
        joint = pymunk.PivotJoint(static, body, (0.0, 0.0), (0.0, 0.0))
        joint.max_bias = 0.0
        joint.max_force = physics.mu * m * physics.g
        space.add(body, shape, joint)
        bodies.append((body, shape, joint))
    captured = np.full(pieces.n, -1)
    alive = np.ones(pieces.n, dtype=bool)
    t = 0.0
    while t < t_max:
        space.step(dt)
        t += dt
        moving = False
        for n, (body, shape, joint) in enumerate(bodies):
            if not alive[n]:
                continue
            px, py = body.position
            for c, (cx, cy, cr, _skip) in enumerate(table.captures):
                if (px - cx) ** 2 + (py - cy) ** 2 < cr * cr:
                    captured[n] = c
                    alive[n] = False
                    space.remove(body, shape, joint)
                    break
            else:
                moving |= body.velocity.length > rest_speed
        if not moving:
            break
    pos = np.array([b.position for b, _, _ in bodies])
    return {"x": pos[:, 0], "y": pos[:, 1], "capture": captured, "t_end": t}


def bench_pymunk(table: Table, template: Pieces, shots, physics: Physics = Physics()) -> dict:
    """Time pymunk on ``shots`` (a list of (x, y, angle, speed)); shots per second."""
    from dataclasses import replace

    t0 = time.perf_counter()
    results = []
    for x, y, angle, speed in shots:
        px, py = template.x.copy(), template.y.copy()
        vx, vy = template.vx.copy(), template.vy.copy()
        px[0], py[0] = x, y
        vx[0], vy[0] = speed * math.cos(angle), speed * math.sin(angle)
        results.append(simulate_pymunk(table, replace(template, x=px, y=py, vx=vx, vy=vy), physics))
    elapsed = time.perf_counter() - t0
    return {
        "shots": len(shots),
        "elapsed_s": elapsed,
        "shots_per_s": len(shots) / elapsed,
        "results": results,
    }
