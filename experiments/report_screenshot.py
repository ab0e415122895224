"""A study's report page as a browser shows it: headless Chromium opens
``DIR/report/report.html`` (``carromlab study report DIR``) and saves screenshots of its top
(the verdicts) and, with ``--full``, of the whole page.

Needs Debian's ``chromium`` (apt-get install chromium) and the "explore" extra (Playwright).

    python experiments/report_screenshot.py data/studies/specs/icf-queen-4-no-due \\
        --out docs/images/studies/icf-queen-4-no-due.png --full
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def screenshot(page_path: Path, out: Path, full: bool, width: int = 1100, height: int = 900):
    """Screenshots of ``page_path`` into ``out`` (and ``<out>-full.png`` with ``full``)."""
    from playwright.sync_api import sync_playwright

    out.parent.mkdir(parents=True, exist_ok=True)
    saved = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(page_path.resolve().as_uri())
        page.wait_for_load_state("load")
        # every embedded figure decoded before the picture is taken
        page.wait_for_function("[...document.images].every(i => i.complete)")
        page.screenshot(path=str(out))
        saved.append(out)
        if full:
            whole = out.with_name(out.stem + "-full.png")
            page.screenshot(path=str(whole), full_page=True)
            saved.append(whole)
        browser.close()
    return saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a study's folder (carromlab study run --out)")
    ap.add_argument("--out", type=Path, required=True, help="the screenshot (PNG)")
    ap.add_argument("--full", action="store_true", help="also the whole page")
    args = ap.parse_args()
    page = args.folder / "report" / "report.html"
    if not page.exists():
        raise SystemExit(f"{page}: no report; run carromlab study report {args.folder}")
    if CHROMIUM is None:
        raise SystemExit("no chromium: apt-get install chromium")
    for path in screenshot(page, args.out, args.full):
        print(path)


if __name__ == "__main__":
    main()
