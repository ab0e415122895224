# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # How much does an answer depend on the board?
#
# Nobody has measured a carrom board's friction or its cushions' bounce to better than a
# range: sliding friction `mu` 0.06-0.20 (a powdered board at the low end, an unpowdered one
# at the high end), cushion restitution 0.6-0.8 (docs/equipment.md). This notebook shows what that
# uncertainty does to carromlab's answers:
#
# 1. the same shot map on a fast board (`mu` = 0.06) and a slow one (`mu` = 0.20): where the
#    good shots are, and how far they move;
# 2. an estimate that averages over a prior on the board's parameters, drawn per shot
#    (`vary_physics`), and the pot rate binned by friction (`physics_draws`, `binned_rate`);
# 3. the switchable contact-friction model (`Physics.mu_contact`): how "throw" on a cut
#    changes the cut's pocket probability and its best aim.

# %%
import math
import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import Normalize

import carromlab as cl
from carromlab.games.icf.midgame import CUT_STRIKER_X
from carromlab.games.icf.striker import baseline_y
from carromlab.physics.priors import normal, uniform
from carromlab.plot.shotmap import default_norm

# %% [markdown]
# ## Settings
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the sizes are tiny and the numbers rough;
# otherwise a full run takes a few minutes on a 2-core CPU.

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
if QUICK:
    N_CELL, N_EST, N_DRAWS = 8, 300, 600
    PLACEMENTS = np.linspace(-0.12, 0.0, 3)
    ANGLES = np.linspace(55, 75, 5)
    CHUNK = 64
else:
    N_CELL, N_EST, N_DRAWS = 300, 40_000, 40_000
    PLACEMENTS = np.linspace(-0.17, 0.15, 17)
    ANGLES = np.linspace(40, 140, 51)
    CHUNK = 4096
FAST, SLOW = cl.Physics(mu=0.06), cl.Physics(mu=0.20)

pos = cl.standard_position("icf-midgame")
y0 = baseline_y(pos.board)
cut = cl.Shot(x=CUT_STRIKER_X, y=y0, angle=math.radians(65.94), speed=2.0)

# %% [markdown]
# ## 1. A fast board and a slow board
#
# The same grid of shots (striker placement x aim, 2 m/s, club skill), the expected points of
# each cell on both boards, and the difference. At 2 m/s most pots are direct and fast enough
# that friction barely matters on the way to the pocket; the difference shows where it does:
# long shots, banks and shots whose coin only just reaches the pocket.

# %%
maps = {}
for name, physics in (("fast (mu 0.06)", FAST), ("slow (mu 0.20)", SLOW)):
    maps[name] = cl.shot_map(
        pos, PLACEMENTS, ANGLES, [2.0], n=N_CELL, seed=SEED, chunk=CHUNK, physics=physics
    )
fig, axes = plt.subplots(1, 3, figsize=(17, 5.5))
# one colour scale for the two boards, so their maps compare
both = default_norm("points", pd.concat([df["points"] for df in maps.values()]))
for ax, (name, df) in zip(axes, maps.items()):
    cl.draw_shotmap(df, value="points", ax=ax, norm=both)
    ax.set_title(f"expected points, {name}: club, n = {N_CELL} per cell", fontsize=10)
diff = maps["slow (mu 0.20)"].copy()
diff["points"] = diff["points"] - maps["fast (mu 0.06)"]["points"]
cl.draw_shotmap(diff, value="points", ax=axes[2], norm=Normalize(-0.5, 0.5), mark_best=False)
axes[2].set_title(f"slow minus fast (n = {N_CELL} per cell each)", fontsize=10)
fig.tight_layout()

# %%
best = pd.DataFrame(
    [
        df.loc[df["points"].idxmax(), ["placement", "angle", "points", "points_lo", "points_hi"]]
        for df in maps.values()
    ],
    index=list(maps),
)
print(best.to_string(float_format="%.3f"))

# %% [markdown]
# ## 2. Averaging over the board: a prior drawn per shot
#
# `vary_physics` draws the named parameters once per shot (the rest stay at their defaults),
# vmapped with the shots, so an estimate averages over boards as well as over the player's
# errors. Below: the mid-game cut and a soft version of it (1.3 m/s, the coin only just
# reaches the pocket) on the default board and under the prior.

# %%
prior = cl.vary_physics(mu=uniform(0.06, 0.20), e_cushion=normal(0.70, 0.04))
soft = cl.Shot(x=cut.x, y=cut.y, angle=cut.angle, speed=1.3)
rows = []
for label, shot in (("cut 2.0 m/s", cut), ("soft cut 1.3 m/s", soft)):
    for board, physics in (("default board", cl.Physics()), ("prior", prior)):
        df = cl.estimate(pos, shot, n=N_EST, seed=SEED, chunk=CHUNK, physics=physics)
        r = df[df["quantity"] == "capture:w1"].iloc[0]
        rows.append(
            {
                "shot": label,
                "board": board,
                "P(w1 pocketed)": r.estimate,
                "lo": r.lo,
                "hi": r.hi,
                "n": r.n,
            }
        )
pd.DataFrame(rows)

# %% [markdown]
# The prior's answer is one number with one interval, but the draws kept with every shot
# show what it hides: the soft cut's pot rate against the board's friction.

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for label, shot in (("cut 2.0 m/s", cut), ("soft cut 1.3 m/s", soft)):
    draws = cl.physics_draws(pos, shot, prior, n=N_DRAWS, seed=SEED, chunk=CHUNK, pieces=("w1",))
    b = cl.binned_rate(draws, "mu", "capture:w1", bins=7)
    ax.errorbar(
        b["centre"],
        b["rate"],
        yerr=[b["rate"] - b["rate_lo"], b["rate_hi"] - b["rate"]],
        marker="o",
        capsize=3,
        label=label,
    )
ax.set_xlabel("sliding friction mu")
ax.set_ylabel("P(w1 pocketed), 95 % interval")
ax.set_ylim(0, 1)
ax.legend()
ax.set_title("The cut's pot rate against the board's friction (club skill)")

# %% [markdown]
# ## 3. Contact friction: the "throw" on a cut
#
# The kernel's default contact is smooth: the impulse acts along the line of centres only.
# `Physics(mu_contact=...)` switches on a Coulomb tangential impulse between discs (at most
# `mu_contact` times the normal impulse), which throws a cut coin off the line of centres,
# towards the striker's sideways motion, by up to atan(`mu_contact`): about 3.4 degrees at
# 0.06 (a billiard-ball figure; nothing is measured for carrom coins). Below: the cut's pocket
# probability over the aim, for three values, with the 95 % intervals.

# %%
aims = np.linspace(64.5, 67.5, 7 if QUICK else 25)
fig, ax = plt.subplots(figsize=(7, 4))
summary = []
for mu_c in (0.0, 0.06, 0.15):
    df = cl.shot_map(
        pos,
        [cut.x],
        aims,
        [2.0],
        n=N_CELL * 4,
        seed=SEED,
        chunk=CHUNK,
        physics=cl.Physics(mu_contact=mu_c),
        pieces=("w1",),
    )
    p, lo, hi = df["p_capture:w1"], df["p_capture:w1_lo"], df["p_capture:w1_hi"]
    ax.fill_between(df["angle"], lo, hi, alpha=0.2)
    ax.plot(df["angle"], p, marker=".", label=f"mu_contact = {mu_c}")
    top = df.loc[p.idxmax()]
    summary.append(
        {
            "mu_contact": mu_c,
            "best aim (deg)": top.angle,
            "P": top["p_capture:w1"],
            "lo": top["p_capture:w1_lo"],
            "hi": top["p_capture:w1_hi"],
        }
    )
ax.set_xlabel("aim (degrees)")
ax.set_ylabel("P(w1 pocketed)")
ax.legend()
ax.set_title("Throw moves the cut's best aim")
pd.DataFrame(summary)

# %% [markdown]
# What to take from this: the sign and size of each effect, with its interval. A shot whose
# answer moves little between the fast and the slow board (most firm direct pots) can be
# trusted without knowing the board; a soft shot or a bank cannot, and its estimate should be
# quoted under a prior. Throw shifts a cut's best aim by a fraction of a degree: small against
# a club player's 0.75 degree aiming error, not against a professional's.
