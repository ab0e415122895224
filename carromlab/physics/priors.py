"""Uncertain physics: a distribution over the traced :class:`Physics` parameters, drawn once
per shot and vmapped with the shots (``make_batch_simulator(per_shot_physics=True)``).

Nobody has measured a carrom board's friction or restitution to better than a range
(docs/equipment.md): ``mu`` 0.06-0.20, cushions 0.6-0.8. A prior over them turns an estimate into
one that averages over boards, and the draws kept with every shot show which parameter an
answer depends on (``analysis.sensitivity``)::

    prior = vary_physics(mu=uniform(0.08, 0.14), e_cushion=normal(0.70, 0.04))
    estimate(position, shot, physics=prior)

Field ``f`` of shot ``key`` is drawn with ``fold_in(fold_in(key, PHYSICS_STREAM), k_f)``
(``k_f`` the field's index in :class:`Physics`), a stream apart from the execution noise's
(shots.py folds in 1-3), so adding a prior leaves each shot's execution error unchanged.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import jax
import jax.numpy as jnp

from carromlab.errors import CarromlabError
from carromlab.physics.params import STATIC_FIELDS, TRACED_FIELDS, Physics, plain_physics

#: The key stream physics draws come from (any constant apart from the noise's 1-3).
PHYSICS_STREAM = 1000
#: The fields a prior can draw: the traced ones (a static field, ``striker_friction``, is
#: part of the compiled program). Their order fixes each field's key stream.
FIELDS = TRACED_FIELDS


@dataclass(frozen=True)
class Uniform:
    """Uniform on [low, high]."""

    low: float
    high: float

    def draw(self, key):
        return self.low + (self.high - self.low) * jax.random.uniform(key)

    def check(self, name: str) -> None:
        if not 0 <= self.low <= self.high:
            raise CarromlabError(f"{name}: uniform needs 0 <= low <= high, not {self}")


@dataclass(frozen=True)
class Normal:
    """Normal with ``mean`` and ``sd``, clipped at 0 (no parameter here is negative)."""

    mean: float
    sd: float

    def draw(self, key):
        return jnp.maximum(self.mean + self.sd * jax.random.normal(key), 0.0)

    def check(self, name: str) -> None:
        if self.mean < 0 or self.sd < 0:
            raise CarromlabError(f"{name}: normal needs mean >= 0 and sd >= 0, not {self}")


def uniform(low: float, high: float) -> Uniform:
    return Uniform(float(low), float(high))


def normal(mean: float, sd: float) -> Normal:
    return Normal(float(mean), float(sd))


@dataclass(frozen=True)
class PhysicsPrior:
    """``base`` with the fields in ``vary`` ((name, distribution) pairs) drawn per shot."""

    base: Physics
    vary: tuple[tuple[str, Uniform | Normal], ...]

    def draw(self, key) -> Physics:
        """One shot's parameters (traceable; vmap it over keys)."""
        sub = jax.random.fold_in(key, PHYSICS_STREAM)
        values = {
            name: dist.draw(jax.random.fold_in(sub, FIELDS.index(name))) for name, dist in self.vary
        }
        # every field an array of the draws' type (not a weakly typed Python number): a
        # prior's kernel program is then one whatever fields it varies
        dt = next(iter(values.values())).dtype
        fixed = {name: jnp.asarray(getattr(self.base, name), dt) for name in FIELDS}
        return dataclasses.replace(self.base, **{**fixed, **values})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.vary)

    def describe(self) -> dict:
        """Plain data for a result's configuration."""
        return {
            "base": plain_physics(self.base),
            "vary": {name: {"kind": type(d).__name__.lower(), **vars(d)} for name, d in self.vary},
        }


def vary_physics(base: Physics | None = None, **dists) -> PhysicsPrior:
    """A prior: ``base`` (default ``Physics()``) with each named field drawn per shot from its
    distribution (:func:`uniform`, :func:`normal`)."""
    if not dists:
        raise CarromlabError("vary_physics needs at least one field to vary")
    for name, dist in dists.items():
        if name in STATIC_FIELDS:
            raise CarromlabError(
                f"{name} cannot vary shot by shot: it is part of the compiled program (set it "
                "in the base physics instead)"
            )
        if name not in FIELDS:
            raise CarromlabError(f"unknown Physics field {name!r}; the fields are {FIELDS}")
        if not isinstance(dist, (Uniform, Normal)):
            raise CarromlabError(f"{name}: give uniform(low, high) or normal(mean, sd)")
        dist.check(name)
    return PhysicsPrior(base or Physics(), tuple(dists.items()))
