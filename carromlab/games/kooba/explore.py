"""KOOBA in the explorer (``cl.Explorer``, ``carromlab explore``): a throw from the seat's
spot aimed at a point, the chance of each tag (:func:`~carromlab.games.kooba.maps.aim_map`),
where a few throws land, and the chance of the inner eye along the line of flight.

The game names this class in its registration (``Game.explorer``); the explorer finds it
there and never names the game. It answers the explorer's model interface
(:class:`carromlab.explore.model.ExplorerModel`) with ``kind = "throw"``: the page's controls
are an aim point, not a shooter placed, aimed and sped.
"""

from __future__ import annotations

import numpy as np

from carromlab.errors import CarromlabError

#: The odds table's rows: (tag column of :func:`~carromlab.games.kooba.maps.aim_map`, label).
HEADLINE = (
    ("p_eye", "in the eye"),
    ("p_inner_eye", "in the inner eye"),
    ("p_kooba", "a KOOBA"),
    ("p_ring", "in a ring"),
    ("p_penalty", "penalty"),
    ("p_off", "off the board"),
)
#: Throws per aim point of the strip.
STRIP_N = 64
#: The aim point's range on both axes (m): the board's eye and rings with a margin.
AIM_RANGE = (-0.4, 0.4)
#: The thrower's distance in stick lengths (the rules' default throw; Pro plays from 5).
THROW_STICKS = 4


class ThrowExplorer:
    """KOOBA's throws for the explorer: aimed at a point from ``seat``'s spot; the tags'
    chances, the landings of a few throws, and the inner eye's chance over the aim's y.
    KOOBA has no turn state: ``turn`` is taken and left unused."""

    kind = "throw"
    headline = HEADLINE
    shooter_radius = 0.0
    #: Why the explorer searches no best throw (its answer to "best shot"; no ``best()``).
    best_note = "KOOBA's best aim: see its aim map (carromlab shotmap)"
    #: The odds' answer where a throw cannot be made (never: every aim point can be thrown at).
    unplayable = "the throw cannot be made"

    def __init__(
        self, position, skill="club", n: int = 2000, seed: int = 0, seat: str = "S", turn=None
    ):
        from carromlab.equipment.kooba import KoobaBoard

        if int(n) <= 0:
            raise CarromlabError(f"n must be a positive number of throws, not {n}")
        self.position, self.skill, self.n, self.seed, self.seat = (
            position,
            skill,
            int(n),
            int(seed),
            seat,
        )
        board = position.board
        self.board = board if isinstance(board, KoobaBoard) else KoobaBoard()

    @staticmethod
    def skill_names(variant: str) -> list[str]:
        """The throw skills (:data:`carromlab.shots.THROW_SKILLS`)."""
        from carromlab.shots import THROW_SKILLS

        return list(THROW_SKILLS)

    # -- the page's fixed parts -------------------------------------------------------------
    def thrower(self) -> tuple[float, float]:
        """Where the thrower stands (the seat's spot, :data:`THROW_STICKS` stick lengths
        out)."""
        from carromlab.games.kooba.maps import thrower_spot

        x, y = thrower_spot(self.board, self.seat, THROW_STICKS)
        return float(x), float(y)

    def picture(self) -> dict:
        """What the board picture adds: the thrower's spot."""
        return {"thrower": list(self.thrower())}

    def start(self) -> dict:
        """The first aim: the board's centre."""
        return {"aim": [0.0, 0.0]}

    def limits(self) -> dict:
        """The aim point's range on both axes (m)."""
        return {"aim": list(AIM_RANGE)}

    # -- answers ------------------------------------------------------------------------------
    def estimate(self, aim, n: int | None = None, skill=None):
        """The tags' chances (with intervals) of ``n`` throws at ``aim``: one row of
        :func:`~carromlab.games.kooba.maps.aim_map`."""
        from carromlab.games.kooba.maps import aim_map

        df = aim_map(
            [float(aim[0])],
            [float(aim[1])],
            skill=skill or self.skill,
            n=int(n or self.n),
            seed=self.seed,
            sticks=THROW_STICKS,
            seat=self.seat,
            board=self.board,
        )
        return df.iloc[0]

    def landings(self, aim, count: int = 20, skill=None) -> list[list[float]]:
        """Where ``count`` throws at ``aim`` land (the map's own first throws)."""
        import jax
        import jax.numpy as jnp

        from carromlab.physics.throw import throw_batch
        from carromlab.shots import THROW_SKILLS

        sk = THROW_SKILLS[skill or self.skill]
        fx, fy = self.thrower()
        cell = jax.random.fold_in(jax.random.key(self.seed), 0)
        keys = jax.vmap(lambda i: jax.random.fold_in(cell, i))(jnp.arange(count))
        x, y, _rot = throw_batch(
            keys,
            jnp.full(count, float(aim[0])),
            jnp.full(count, float(aim[1])),
            jnp.full(count, fx),
            jnp.full(count, fy),
            sk.angle,
            sk.length,
            sk.release,
            0.0,
        )
        return [[float(a), float(b)] for a, b in zip(np.asarray(x), np.asarray(y))]

    def paths(self, aim, count: int = 20, skill=None) -> list[dict]:
        """The board's marks of ``count`` throws: ``{"landing": [x, y]}`` each."""
        return [{"landing": p} for p in self.landings(aim, count, skill=skill)]

    def story(self, aim, skill=None) -> dict:
        """A throw tells no story (it lands; nothing it hits moves): empty."""
        return {}

    def strip(self, aim, skill=None, n: int = STRIP_N, stale=None) -> dict | None:
        """The chance of the inner eye along the seat's line of flight (the aim's y from the
        centre, m), at the aim's x; one run, so ``stale()`` is asked once, before it (a True
        answer: None)."""
        from carromlab.games.kooba.maps import aim_map

        if stale is not None and stale():
            return None
        ds = np.linspace(-0.3, 0.3, 31)
        df = aim_map(
            [float(aim[0])],
            ds.tolist(),
            skill=skill or self.skill,
            n=int(n),
            seed=self.seed,
            sticks=THROW_STICKS,
            seat=self.seat,
            board=self.board,
        )
        return {
            "angle": ds.tolist(),
            "value": df["p_inner_eye"].astype(float).tolist(),
            "lo": df["p_inner_eye_lo"].astype(float).tolist(),
            "hi": df["p_inner_eye_hi"].astype(float).tolist(),
            "n": int(n),
            "label": "chance of the inner eye over the aim's y (m)",
        }
