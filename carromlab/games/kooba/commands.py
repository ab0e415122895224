"""KOOBA's own shot commands: throws are aimed at points, so ``estimate`` gives one aim
point's tag probabilities and ``shotmap`` an aim map over the board."""

from __future__ import annotations

from pathlib import Path

from carromlab.errors import CarromlabError
from carromlab.input_schema import check_throws
from carromlab.registry import parse_grid, parse_pair


def estimate(skill: str, n: int, seed: int, options: dict):
    """One aim point's tag probabilities (a tidy table with Wilson intervals)."""
    from carromlab.games.kooba.maps import aim_estimate

    ax, ay = parse_pair(options.get("aim", "0,0"), "aim")
    check_throws(1, n, "estimate --variant kooba")
    return aim_estimate(
        ax,
        ay,
        skill=skill,
        sticks=options["sticks"],
        n=n,
        seed=seed,
        seat=options["seat"],
        slide=options["slide"],
    )


def shotmap(skill: str, n: int, seed: int, value: str, out: Path, options: dict) -> dict:
    """Compute, write and draw a KOOBA aim map (``out/shotmap.parquet`` and ``.png``);
    returns a summary (the best aim point with its interval)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from carromlab.analysis.results import write_parquet
    from carromlab.analysis.shotmap import map_summary
    from carromlab.games.kooba.maps import TAGS, aim_map
    from carromlab.plot.kooba import aim_meaning, draw_aim_map

    grid = parse_grid(options.get("aims", "-0.27:0.27:28"), "aims")
    check_throws(len(grid) ** 2, n, "shotmap --variant kooba")
    value = "p_eye" if value == "points" else value
    if value not in [f"p_{t}" for t in TAGS]:
        raise CarromlabError(
            f"no column {value!r} in a KOOBA aim map; choose from "
            + ", ".join(f"p_{t}" for t in TAGS)
        )
    sticks, seat, slide = options["sticks"], options["seat"], options["slide"]
    df = aim_map(grid, grid, skill, sticks, n, seed=seed, seat=seat, slide=slide)
    out.mkdir(parents=True, exist_ok=True)
    write_parquet(df, out / "shotmap.parquet")
    fig, ax = plt.subplots(figsize=(7, 6))
    title = (
        f"KOOBA: {aim_meaning(value)} by aim point\n{skill} thrower, {sticks} sticks from "
        f"{seat}, n = {n:,} throws per aim point"
    )
    draw_aim_map(df, value=value, ax=ax, title=title)
    fig.savefig(out / "shotmap.png", dpi=120, bbox_inches="tight")
    plt.close(fig)
    return map_summary(df, out, value, ("aim_x", "aim_y"))
