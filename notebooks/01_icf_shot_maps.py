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
# # ICF carrom: how good is a shot, and which shot is best?
#
# This notebook walks through carromlab's main job on a standard carrom (ICF) board:
#
# 1. load a mid-game position and draw it;
# 2. estimate what one shot does when a player of a given skill plays it many times;
# 3. compare players of different skill on that shot;
# 4. map a whole grid of shots (where the striker is placed x where it is aimed);
# 5. search for the best shots;
# 6. draw a few noisy executions of the best one.
#
# Every number comes from Monte-Carlo simulation: the shot is played `n` times with random
# errors in placement, direction and speed, and each probability is reported with a 95 %
# (Wilson) interval, each mean with a 95 % (t) interval.

# %%
import os

import jax
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import carromlab as cl
from carromlab.games.icf.midgame import CUT_POCKET, CUT_STRIKER_X, CUT_TARGET, ghost_aim
from carromlab.games.icf.striker import baseline_y
from carromlab.physics.kernel import make_simulator
from carromlab.shots import noisy_shots, place_shooter, shot_keys

# %% [markdown]
# ## Settings
#
# All sample sizes live in this one cell. With the environment variable `CARROMLAB_QUICK=1`
# (the test suite sets it) every size is tiny, so the notebook runs in seconds and only checks
# that each step works; the numbers are then very rough. Otherwise the sizes are realistic
# (the full run takes about a minute on a 2-core CPU).

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"

SEED = 0
SPEED = 2.0  # m/s, the cut shot's speed and the speed of the shot map
if QUICK:
    N_ESTIMATE = 200  # noisy executions per estimate
    N_CELL = 4  # noisy executions per shot-map cell
    MAP_PLACEMENTS = np.linspace(-0.13, 0.03, 5)  # shot-map striker placements (m)
    N_ANGLES, ANGLE_SPAN = 7, 15.0  # shot-map aim angles: the cut's angle +- ANGLE_SPAN deg
    BEST = dict(n_grid=4, iterations=1, population=8, n_cem=8, top_k=2, n_final=50)
    N_TRACES = 3  # noisy executions drawn at the end
    CHUNK = 64  # shots per kernel call: one small shape, so the kernel compiles once
else:
    N_ESTIMATE = 100_000
    N_CELL = 200
    MAP_PLACEMENTS = np.linspace(-0.17, 0.15, 9)
    N_ANGLES, ANGLE_SPAN = 25, 30.0
    BEST = dict(n_grid=32, iterations=3, population=48, n_cem=256, top_k=5, n_final=20_000)
    N_TRACES = 5
    CHUNK = 4096
print(f"QUICK = {QUICK}: estimates with n = {N_ESTIMATE}, shot map with n = {N_CELL} per cell")

# %% [markdown]
# ## 1. The position
#
# `icf-midgame` is a standard mid-game position: 19 coins scattered over the board. White
# (the player to shoot) has a clear cut: the white coin `w1` can be sent into the north-east
# pocket by a striker placed at x = -0.05 m on the South baseline.

# %%
position = cl.standard_position("icf-midgame")
print(position.description)
ax = cl.draw_position(position, labels=True)
ax.figure.set_size_inches(6, 6)
plt.show()

# %% [markdown]
# ## 2. One shot, played many times
#
# The cut: the striker sits at x = -0.05 m, midway between the South baselines, and is aimed
# at the "ghost" spot (where the striker must touch `w1` to send it to the pocket) at 2 m/s.
# A *club* player plays it `N_ESTIMATE` times; each time the placement, direction and speed
# are off by a small random amount.

# %%
y0 = baseline_y(position.board)
w1 = position.by_id(CUT_TARGET)
cut_angle = ghost_aim(position.board, CUT_STRIKER_X, y0, w1.x, w1.y, CUT_POCKET)
cut = cl.Shot(x=CUT_STRIKER_X, y=y0, angle=cut_angle, speed=SPEED)
print(f"cut: x = {CUT_STRIKER_X} m, angle = {np.degrees(cut_angle):.2f} deg, {SPEED} m/s")

# One runner (the compiled simulator for this position) serves every estimate below.
runner = cl.ShotRunner(position, chunk=CHUNK)
club = cl.estimate(position, cut, skill="club", n=N_ESTIMATE, seed=SEED, runner=runner)

# %% [markdown]
# `estimate` returns a tidy table with one row per quantity. The few that matter here:

# %%
SHOWN = {
    f"capture:{CUT_TARGET}": f"{CUT_TARGET} pocketed (any pocket)",
    f"capture:{CUT_TARGET}:{CUT_POCKET}": f"{CUT_TARGET} in {CUT_POCKET}",
    "striker_pocketed": "striker pocketed",
    "foul": "foul (any kind)",
    "continues": "turn continues",
    "points": "points (mean)",
}


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """The SHOWN quantities of an estimate: estimate and interval, named in plain words."""
    rows = df.set_index("quantity").loc[list(SHOWN), ["kind", "estimate", "lo", "hi", "n"]]
    return rows.rename(index=SHOWN).rename_axis("quantity")


summary(club).round(4)

# %% [markdown]
# ## 3. Does skill matter?
#
# The same cut, played by the four skill presets (from a novice's ~1.5 degrees of direction
# error down to a professional's ~0.2 degrees). The bars are 95 % Wilson intervals.

# %%
names = ["novice", "club", "expert", "pro"]
rows = []
for name in names:
    df = (
        club
        if name == "club"
        else cl.estimate(position, cut, name, N_ESTIMATE, SEED, runner=runner)
    )
    row = df.set_index("quantity").loc[f"capture:{CUT_TARGET}"]
    rows.append(
        {
            "skill": name,
            "angle sd (deg)": np.degrees(cl.SKILLS[name].angle),
            **row[["estimate", "lo", "hi", "n"]],
        }
    )
by_skill = pd.DataFrame(rows).set_index("skill")
by_skill.round(4)

# %%
fig, ax = plt.subplots(figsize=(5, 3.5))
est = by_skill["estimate"].to_numpy(float)
err = np.vstack([est - by_skill["lo"].to_numpy(float), by_skill["hi"].to_numpy(float) - est])
ax.errorbar(by_skill.index, est, yerr=err, fmt="o", capsize=4)
ax.set_ylim(0, 1)
ax.set_ylabel(f"P({CUT_TARGET} pocketed)")
ax.set_title(f"The cut by skill (n = {N_ESTIMATE} each, 95 % intervals)")
ax.grid(alpha=0.3)
plt.show()

# %% [markdown]
# ## 4. A shot map
#
# Instead of one shot, a grid: striker placements along the baseline x aim angles (around the
# cut's angle), all at 2 m/s, each cell played `N_CELL` times by a club player. The value drawn
# is the expected points of the stroke (own coins pocketed count +1, opponent's -1, fouls
# cost a penalty coin). Cells where the striker cannot legally be placed, or would sit on a
# coin, stay grey. The star marks the best cell *of this grid*, named with its 95 % interval
# under the map: the best of a window of aims around the cut (± `ANGLE_SPAN` degrees) from
# these placements at 2 m/s, not the position's best shot. Section 5 searches the whole
# baseline, every aim and several speeds for that, and compares the two.
# The colour scale is fitted to this map, symmetric about 0 (white: no gain; blue: points
# won; red: points lost); `cl.ColourScale("points", fixed=True)` (±3 points) compares maps
# of different positions.
#
# `cl.ShotMapReport` holds the map with what `carromlab shotmap` says and draws of it: its
# table, its summary, its figures and its files (`.save(folder)` writes the parquet files
# and pictures the command line writes).

# %%
placements = np.round(MAP_PLACEMENTS, 3)
angles = np.degrees(cut_angle) + np.linspace(-ANGLE_SPAN, ANGLE_SPAN, N_ANGLES)
report = cl.ShotMapReport.run(
    position,
    placements,
    angles,
    SPEED,
    skill="club",
    n=N_CELL,
    seed=SEED,
    value="points",
    runner=runner,
)
smap = report.table
smap[["placement", "angle", "speed", "n", f"p_capture:{CUT_TARGET}", "points"]].head()

# %% [markdown]
# The command line's figure: the map, and on the board the best aim from each placement (a
# short aim line from the striker's spot, better aims drawn wider and on top), both panels
# on one colour scale. A best cell on the grid's edge is written under the map and kept in
# `report.warnings`. The figure's heading says which window "best" is the best of.

# %%
window = (
    f"the best of this window: aims {angles[0]:.0f}° to {angles[-1]:.0f}° (the cut "
    f"± {ANGLE_SPAN:.0f}°), placements {placements[0]:+.2f} to {placements[-1]:+.2f} m, "
    f"{SPEED:g} m/s; not the position's best shot (section 5)"
)
fig = report.figure()
fig.axes[0].locator_params(axis="x", nbins=5)
fig.suptitle(window, fontsize=9, y=1.01, va="bottom")  # above the panels' titles
plt.show()
map_best = smap.loc[smap["points"].idxmax()]
report.summary()

# %% [markdown]
# The target map: for each coin White may pocket, the best chance any cell of the map gives
# of putting it in its likeliest pocket.

# %%
report.targets_figure()
plt.show()

# %% [markdown]
# ## 5. The best shots
#
# `best_shots` searches placement, angle and speed: a coarse grid first, then a few rounds of
# cross-entropy refinement around the best cells, and finally the top candidates are played
# again with fresh random numbers, so the reported values are not inflated by the search
# picking lucky cells.

# %%
if QUICK:  # a small grid around the cut; the full run uses the default (whole baseline)
    search = dict(placements=placements, angles_deg=angles, speeds=(SPEED,))
else:
    search = {}
best = cl.best_shots(
    position,
    skill="club",
    value="points",
    pieces=(CUT_TARGET,),
    seed=SEED,
    chunk=CHUNK,
    **search,
    **BEST,
)
columns = ["rank", "placement", "angle", "speed", "n", "points", "points_lo", "points_hi"]
columns += [f"p_capture:{CUT_TARGET}", "p_foul", "p_foul_lo", "p_foul_hi"]
best.head(3)[columns].round(3)

# %% [markdown]
# The shot map's best cell was the best of its window only; the search's best is the
# position's (as far as the search reaches). Side by side, each with its 95 % interval:

# %%
pd.DataFrame(
    [
        {"best of": "the shot map's window", **map_best[["placement", "angle", "speed"]]}
        | {k: map_best[k] for k in ("points", "points_lo", "points_hi", "n")},
        {"best of": "the search", **best.iloc[0][["placement", "angle", "speed"]]}
        | {k: best.iloc[0][k] for k in ("points", "points_lo", "points_hi", "n")},
    ]
).set_index("best of").round(3)

# %% [markdown]
# The best shots on the board, ranked: each from its placement, coloured by its expected
# points (`cl.BestShotsReport`, as `carromlab best` reports them).

# %%
cl.BestShotsReport.from_table(best, position).figure()
plt.show()

# %% [markdown]
# ## 6. What the best shot looks like
#
# A few noisy executions of the best shot, simulated with the event recording on: every
# collision, cushion hit and capture is kept, so the paths can be drawn exactly. One panel per
# execution: the striker's path in blue, each moved piece's in its own colour, a cross where a
# disc fell into a pocket; the panel's title says what fell, and the figure's heading counts
# what the executions pocketed (the best shot need not be the cut: it pots whatever coin pays
# best).

# %%
top = best.iloc[0]
best_shot = cl.Shot(
    x=float(top["placement"]),
    y=y0,
    angle=np.radians(float(top["angle"])),
    speed=float(top["speed"]),
)
keys = shot_keys(SEED, 0, N_TRACES)
shots = noisy_shots(best_shot, cl.SKILLS["club"].noise(), keys)
discs = jax.vmap(place_shooter, in_axes=(None, 0))(runner.template, shots)
simulate = make_simulator(runner.table, runner.pieces.n, max_events=512, record=True)
outcome, traces = jax.jit(jax.vmap(simulate, in_axes=(0, None)))(discs, runner.physics)
capture = np.asarray(outcome.capture)
# how many executions pocketed each disc (the striker among them: a foul)
fell = {runner.ids[k]: int(c) for k, c in enumerate((capture >= 0).sum(axis=0)) if c}
if fell:
    pocketed = ", ".join(f"{d} in {c} of {N_TRACES}" for d, c in fell.items())
else:
    pocketed = f"nothing in any of the {N_TRACES}"
print(f"pocketed: {pocketed}")


def what_fell(row: np.ndarray) -> str:
    """The discs one execution pocketed, in words (the striker among them: a foul)."""
    down = [runner.ids[k] for k in np.flatnonzero(row >= 0)]
    return "pocketed: " + ", ".join(down) if down else "nothing pocketed"


fig, axes = plt.subplots(1, N_TRACES, figsize=(3.3 * N_TRACES, 4.2), squeeze=False)
for k, ax in enumerate(axes[0]):
    one = jax.tree_util.tree_map(lambda a, k=k: a[k], traces)
    cl.draw_trajectories(
        position,
        one,
        runner.physics.deceleration,
        ax=ax,
        legend=k == N_TRACES // 2,  # one legend, under the middle panel
    )
    ax.set_title(f"execution {k + 1}: {what_fell(capture[k])}", fontsize=9)
fig.suptitle(
    f"{N_TRACES} club executions of the best shot (x = {top['placement']:.3f} m, "
    f"{top['angle']:.1f}°, {top['speed']:.2f} m/s); pocketed: {pocketed}",
    fontsize=11,
    y=0.98,
)
plt.show()
