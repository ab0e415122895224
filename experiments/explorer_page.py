"""The explorer's page in headless Chromium: screenshots of several boards, and the latency of
the first answer after a move.

    python experiments/explorer_page.py screens --out docs/figures
    python experiments/explorer_page.py latency --moves 40 > data/benchmarks/DATE-explorer.json

``screens`` serves `carromlab explore` on each position, waits for the full answer, presses
"best shot" on shooter boards (waits for its line), and saves ``explorer-<position>.png``.
``latency`` serves ICF's mid-game position (warm cache: the page opened once first), then
moves the angle by 1 deg ``--moves`` times, each after the previous answer is final (with
``--busy``: 0.2-0.6 s after the previous first answer, while it is being refined), and times
each move to the first odds of the new generation (the quick 256-shot answer), as the
browser sees it. Prints JSON: median, 95th percentile, every time, machine and date.
Needs Debian's ``chromium`` (apt-get install chromium) and the "explore" extra.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENS = ("icf-midgame", "carrooka-midgame", "force-out-opening", "kooba-opening")


def serve(position: str, n: int, port: int):
    cmd = [sys.executable, "-m", "carromlab", "explore", "--no-browser", f"--port={port}"]
    cmd += ["--position", position, "--n", str(n)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        if "http://" in line:
            return proc, "http://" + line.split("http://", 1)[1].split()[0]
    raise SystemExit(f"the explorer did not start on {position}")


def stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def final(page, timeout=300_000):
    page.wait_for_function(
        "document.querySelector('table.cl-odds')?.dataset.final === 'true'", timeout=timeout
    )


def screens(out: Path, n: int) -> None:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for k, name in enumerate(SCREENS):
            proc, url = serve(name, n, 8900 + k)
            try:
                page = browser.new_page(viewport={"width": 1060, "height": 680})
                page.goto(url, timeout=300_000)
                final(page)
                best = page.get_by_role("button", name="best shot")
                if best.is_visible():
                    best.click()
                    page.locator("[data-role=best-shot]").wait_for(timeout=600_000)
                page.wait_for_function(
                    "/(shots|throws)$/.test(document.querySelector('.cl-status')?.textContent)",
                    timeout=300_000,
                )
                path = out / f"explorer-{name}.png"
                page.screenshot(path=str(path))
                print(path, flush=True)
            finally:
                stop(proc)
        browser.close()


def latency(moves: int, n: int, busy: bool = False) -> dict:
    from playwright.sync_api import sync_playwright

    proc, url = serve("icf-midgame", n, 8950)
    times = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1060, "height": 680})
            page.goto(url, timeout=300_000)
            final(page)
            angle = page.get_by_label("angle", exact=True)
            for k in range(moves):
                gen = int(page.locator("table.cl-odds").get_attribute("data-generation"))
                angle.focus()
                key = "ArrowLeft" if (k // 10) % 2 == 0 else "ArrowRight"
                ms = page.evaluate(
                    """([key, gen]) => new Promise((resolve) => {
                        const t = document.querySelector('table.cl-odds');
                        const t0 = performance.now();
                        const obs = new MutationObserver(() => {
                            if (Number(t.dataset.generation) > gen) {
                                obs.disconnect(); resolve(performance.now() - t0);
                            }
                        });
                        obs.observe(t, {attributes: true});
                        const a = document.querySelector('input[aria-label=angle]');
                        a.stepDown(key === 'ArrowLeft' ? 2 : -2);
                        a.dispatchEvent(new Event('input'));
                    })""",
                    [key, gen],
                )
                times.append(ms / 1000)
                if busy:  # the next move lands while this one is refined (paths, n, strip)
                    time.sleep(0.2 + 0.1 * (k % 5))
                    continue
                final(page)
                page.wait_for_function(
                    "/(shots|throws)$/.test(document.querySelector('.cl-status')?.textContent)",
                    timeout=300_000,
                )
            browser.close()
    finally:
        stop(proc)
    times_sorted = sorted(times)
    return {
        "what": "first answer after a move (256 shots), keypress to odds in the browser",
        "moves_while_busy": busy,
        "moves": moves,
        "n": n,
        "median_s": statistics.median(times),
        "p95_s": times_sorted[max(0, round(0.95 * len(times)) - 1)],
        "max_s": max(times),
        "times_s": [round(t, 4) for t in times],
        "cores": os.cpu_count(),
        "machine": platform.processor() or platform.machine(),
        "date": datetime.date.today().isoformat(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("screens")
    s.add_argument("--out", type=Path, default=Path("docs/figures"))
    s.add_argument("--n", type=int, default=2000)
    la = sub.add_parser("latency")
    la.add_argument("--moves", type=int, default=40)
    la.add_argument("--n", type=int, default=2000)
    la.add_argument(
        "--busy", action="store_true", help="move again 0.2-0.6 s after each first answer"
    )
    args = ap.parse_args()
    if CHROMIUM is None:
        raise SystemExit("no chromium: apt-get install chromium")
    if args.what == "screens":
        screens(args.out, args.n)
    else:
        print(json.dumps(latency(args.moves, args.n, args.busy)))


if __name__ == "__main__":
    main()
