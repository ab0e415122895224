"""The cross-check against pymunk as Markdown tables (:func:`markdown`), from
:func:`carromlab.bench.validation.run_validation`'s result."""

from __future__ import annotations

import math


def _fmt(v, digits: int = 3) -> str:
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:.{digits}f}"
    return str(v)


def markdown(result: dict) -> str:
    """The comparison as Markdown tables (deterministic; Monte-Carlo per key event; the
    step convergence; the labelling check), from :func:`run_validation`'s result."""
    rows = result["rows"]
    lines = _deterministic_table(rows) + _monte_carlo_table(rows)
    if result.get("convergence"):
        lines += _convergence_table(result["convergence"])
    if result.get("labelling"):
        lines += _labelling_table(result["labelling"])
    return "\n".join(lines)


def _deterministic_table(rows: list[dict]) -> list[str]:
    lines = [
        "**Deterministic base shots** (distances: final places of the pieces on the board in "
        "both engines)",
        "",
        "| case | shot (x, y; angle; speed) | noise sd (angle; speed; placement) "
        "| first contact / piece: kernel | pymunk | captures: kernel | pymunk "
        "| max / mean distance (mm) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['case']} | ({r['x']:.3f}, {r['y']:.3f}); {r['angle_deg']:.2f} deg; "
            f"{r['speed']:.1f} m/s | {math.degrees(r['noise_angle_rad']):.2f} deg; "
            f"{100 * r['noise_speed_rel']:.0f} %; {1e3 * r['noise_placement_m']:.0f} mm "
            f"| {r['det_first_kernel']} / {r['det_first_piece_kernel']} "
            f"| {r['det_first_pymunk']} / {r['det_first_piece_pymunk']} "
            f"| {r['det_captures_kernel']} | {r['det_captures_pymunk']} "
            f"| {r['det_pos_max_mm']:.2f} / {r['det_pos_mean_mm']:.2f} |"
        )
    return lines


def _monte_carlo_table(rows: list[dict]) -> list[str]:
    n = rows[0]["n"] if rows else 0
    lines = [
        "",
        f"**Monte-Carlo**: the same {n} noisy shots (club skill) in both engines; SE is the "
        "two-sample standard error; discordant: shots the engines call differently (in "
        "brackets: of which chaotic, their event changing in the kernel itself when the shot "
        "is turned by 1e-6 rad)",
        "",
        "| case | event | p kernel | p pymunk | diff | SE | diff/SE | verdict | discordant "
        "| same captures | median max distance (mm) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        k = 1
        while r.get(f"key{k}"):
            lines.append(
                f"| {r['case'] if k == 1 else ''} | {r[f'key{k}']} | {r[f'key{k}_p_kernel']:.3f} "
                f"| {r[f'key{k}_p_pymunk']:.3f} | {r[f'key{k}_diff']:+.3f} "
                f"| {r[f'key{k}_se']:.3f} | {_fmt(r[f'key{k}_z'], 2)} "
                f"| {r[f'key{k}_verdict']} | {r[f'key{k}_discordant']} "
                f"({r[f'key{k}_discordant_chaotic']}) "
                + (
                    f"| {r['mc_same_captures']:.3f} | {_fmt(r['mc_pos_max_mm_median'], 2)} |"
                    if k == 1
                    else "| | |"
                )
            )
            k += 1
        lines.append(
            f"| | pieces captured (mean) | {r['mc_captured_mean_kernel']:.3f} "
            f"| {r['mc_captured_mean_pymunk']:.3f} | {r['mc_captured_diff']:+.3f} "
            f"| {_fmt(r['mc_captured_se'])} | "
            + _fmt(r["mc_captured_diff"] / r["mc_captured_se"] if r["mc_captured_se"] else 0.0, 2)
            + " | | | | |"
        )
    return lines


def _convergence_table(convergence: list[dict]) -> list[str]:
    dts = sorted({c["dt"] for c in convergence}, reverse=True)
    lines = [
        "",
        "**Time-step convergence** of the deterministic shots: max distance (mm) between "
        "the engines' final places at each pymunk step (`*`: the captures differ)",
        "",
        "| case | " + " | ".join(f"dt = {dt:g} s" for dt in dts) + " |",
        "|---|" + "---|" * len(dts),
    ]
    for case in dict.fromkeys(c["case"] for c in convergence):
        by = {c["dt"]: c for c in convergence if c["case"] == case}
        cells = [
            f"{by[dt]['pos_max_mm']:.2f}" + ("" if by[dt]["captures_same"] else " *") for dt in dts
        ]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    return lines


def _labelling_table(labelling: list[dict]) -> list[str]:
    lines = [
        "",
        "**Labelling check** (cluster cases): the same shots with the position's pieces "
        "listed in another order; z against the same engine's original order",
        "",
        "| case | engine | order | n | events: p (z) | pieces captured (mean) |",
        "|---|---|---|---|---|---|",
    ]
    for r in labelling:
        ev = []
        k = 1
        while f"key{k}" in r:
            ev.append(
                f"{r[f'key{k}']} {r[f'key{k}_p']:.3f} ({_fmt(r[f'key{k}_z_vs_original'], 1)})"
            )
            k += 1
        lines.append(
            f"| {r['case']} | {r['engine']} | {r['order']} | {r['n']} | "
            + "; ".join(ev)
            + f" | {r['captured_mean']:.2f} |"
        )
    return lines
