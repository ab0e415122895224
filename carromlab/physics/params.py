"""Physical parameters: friction and restitution (traced, so they can vary per shot).

No published measurements exist for carrom; every default is an estimate (the sources
and reasoning are in docs/equipment.md and docs/calibration.md) and can be changed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import jax

#: Materials of pieces that play the striker's part (harder, heavier): contacts with them use
#: ``e_striker``.
STRIKER_MATERIALS = frozenset({"striker"})
#: Cushion-like materials (frames and rails) use ``e_cushion``; pegs use ``e_post``.
CUSHION_MATERIALS = frozenset({"frame", "rail"})


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Physics:
    """Traced physical parameters (a pytree: vmap over them for uncertainty studies)."""

    mu: float = field(default=0.10)
    """Sliding friction coefficient, estimate: powdered board 0.06-0.20 (docs/equipment.md).
    Measured for a disc sliding on powdered plywood (powder not pressed): flour 0.11-0.15,
    starch 0.072-0.078 (Iizawa et al., "friction of a disk sliding on powder", Table 2,
    https://www2.nagare.or.jp/mm/99/iizawa/english/res10.htm): the physics priors' range
    0.07-0.15 (docs/studies-guide.md)."""
    g: float = field(default=9.81)
    """Gravitational acceleration, m/s^2 (standard gravity rounded)."""
    e_piece: float = field(default=0.90)
    """Coin-coin (ring-ring, puck-puck) restitution, estimate 0.85-0.93."""
    e_striker: float = field(default=0.85)
    """Striker-coin restitution, estimate 0.8-0.9."""
    e_cushion: float = field(default=0.70)
    """Disc-cushion (frame, rail) restitution, estimate 0.6-0.8."""
    e_post: float = field(default=0.60)
    """Disc-peg restitution (rubber-sleeved pegs), estimate."""
    stick_speed: float = field(default=0.01)
    """Approach speed (m/s) below which a disc-disc contact is plastic: the pair leaves with
    one common (momentum-weighted) velocity, so it slides on together. Estimate; it stops the
    endless ever-slower bouncing of two discs that friction presses together (inelastic
    collapse). 0 turns it off."""
    mu_contact: float = field(default=0.0)
    """Disc-disc contact friction (the switchable tangential contact model): 0, the default,
    makes contacts smooth (impulse along the line of centres only). Above 0 a Coulomb
    tangential impulse of at most ``mu_contact`` times the normal impulse opposes the discs'
    sliding at the contact point, which "throws" a cut object disc off the line of centres
    (docs/physics.md). Estimate: about 0.06 is measured for billiard balls (Alciatore,
    "ball-ball friction", TP A-14); nothing is published for carrom coins. The discs' spin
    about the vertical is not kept after the contact."""
    rail_graze: float = field(default=0.05)
    """Circular rails only: a disc leaves the rail with a normal speed of at least this
    fraction of its speed along the rail (atan 0.05 = 2.86 deg off the rail). A disc running
    round the inside of a circular rail would otherwise bounce ever more often (each bounce
    keeps only e_cushion of the normal speed, and a chord of a circle arrives at the angle it
    left at: infinitely many bounces in a finite time). With the floor it runs round on
    chords of 0.1 rad of arc (2 atan 0.05), with no loss at such grazing bounces. The floor
    never adds kinetic energy: where its normal speed would exceed the incoming one
    (incidence below 2.86 deg), the disc leaves in the floor's direction at its incoming
    speed (the floor turns the velocity; it used to add the normal speed, up to +0.25 % of
    the kinetic energy at the shallowest incidences). A numerical decision, not a
    measurement; 0 turns it off. Straight cushions and pegs are not affected."""

    striker_friction: float = field(default=1.0, metadata={"static": True})
    """The striker's sliding friction as a multiple of ``mu`` (pieces of the striker's
    material, ``STRIKER_MATERIALS``; the coins keep ``mu``): 1, the default, slides every disc
    alike. Estimate: an ICF striker is plastic or ivorine and a coin wood (docs/equipment.md),
    so on the same powder their friction may differ, but nothing measured is published; the
    option is there to ask how much it matters (docs/physics.md, "Per-piece sliding
    friction"). A static field, not traced: the kernel's programs are compiled for it, and
    only where it is not 1 do they carry each disc's own deceleration (the default's programs
    are the ones without it, bit for bit and as fast); so it cannot vary shot by shot under a
    physics prior, and each value compiles its own program."""

    @property
    def deceleration(self) -> float:
        """The coins' sliding deceleration, ``mu * g`` (m/s^2)."""
        return self.mu * self.g

    def pair_restitution(self, material_a: str, material_b: str) -> float:
        if material_a in STRIKER_MATERIALS or material_b in STRIKER_MATERIALS:
            return self.e_striker
        return self.e_piece

    def wall_restitution(self, material: str) -> float:
        if material in CUSHION_MATERIALS:
            return self.e_cushion
        return self.e_post


#: The fields of :class:`Physics` that are traced (arrays in a program: they can vary shot by
#: shot); the others (``striker_friction``) are static, part of the compiled program.
TRACED_FIELDS = tuple(
    f.name for f in dataclasses.fields(Physics) if not f.metadata.get("static", False)
)
#: The other fields of :class:`Physics`: static, part of the compiled program.
STATIC_FIELDS = tuple(f.name for f in dataclasses.fields(Physics) if f.name not in TRACED_FIELDS)

#: Fields a physics' plain form (:func:`plain_physics`) leaves out while they hold these
#: values, their defaults: they came after results were keyed and described by that form,
#: so a default physics keeps the keys it had (the searched breaks, a stored shot map's
#: settings) and a result's configuration reads as before.
QUIET_DEFAULTS = {"striker_friction": 1.0}


def plain_physics(physics: Physics) -> dict[str, Any]:
    """``physics`` as plain data (field: value), the fields of :data:`QUIET_DEFAULTS` only
    where they differ from their default."""
    out = dataclasses.asdict(physics)
    for name, default in QUIET_DEFAULTS.items():
        if name in out and out[name] == default:
            del out[name]
    return out
