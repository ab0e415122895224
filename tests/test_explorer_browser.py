"""The explorer's page in a real browser: `carromlab explore` served by Voila, driven by
Playwright in headless Chromium (Debian's ``chromium``; `.ci/run` installs it when missing).

Change the angle with the keyboard and see the odds change, press "best shot" and see its line
drawn, save a screenshot; the page must show no Python error. Without Chromium the test is
skipped, unless ``CARROMLAB_REQUIRE_BROWSER`` is set (CI sets it: there it must run).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("CARROMLAB_REQUIRE_BROWSER"):
    pytest.fail("CARROMLAB_REQUIRE_BROWSER is set but no chromium is installed", pytrace=False)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium to drive")

#: What every control is called (the page's accessible names).
CONTROLS = ("position", "skill", "placement", "angle", "speed")


@pytest.fixture(scope="module")
def page_url():
    from carromlab.explore.serve import free_port

    port = free_port("127.0.0.1", 8890)
    cmd = [sys.executable, "-m", "carromlab", "explore", "--no-browser", f"--port={port}"]
    cmd += ["--n", "1000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url, seen, t0 = None, [], time.monotonic()
    while time.monotonic() - t0 < 240:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if "http://127.0.0.1" in line:
            url = line.split("http://", 1)[1].split()[0]
            break
    if url is None:
        proc.kill()
        pytest.fail("the explorer did not start: " + "".join(seen[-5:]))
    yield f"http://{url}"
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def _final(page, after_n: int = 0):
    page.wait_for_function(
        "document.querySelector('table.cl-odds')?.dataset.final === 'true'", timeout=240_000
    )


def test_the_page_answers_a_moved_angle_and_draws_the_best_shot(page_url, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(page_url, timeout=240_000)
            table = page.get_by_role("table", name="shot probabilities")
            table.wait_for(timeout=240_000)
            _final(page)
            for name in CONTROLS:
                assert page.get_by_label(name, exact=True).count() == 1, name
            assert page.get_by_role("button", name="best shot").count() == 1
            before = table.inner_text()
            assert "expected points" in before and "%" in before
            # the keyboard nudges the focused control: 20 steps of 0.5 deg
            angle = page.get_by_label("angle", exact=True)
            start = float(angle.input_value())
            angle.focus()
            for _ in range(20):
                page.keyboard.press("ArrowLeft")
            assert float(angle.input_value()) == pytest.approx(start - 10.0)
            page.wait_for_function(
                "(b) => { const t = document.querySelector('table.cl-odds');"
                " return t.dataset.final === 'true' && t.innerText !== b; }",
                arg=before,
                timeout=240_000,
            )
            assert table.inner_text() != before
            assert int(page.locator("[data-role=paths]").get_attribute("data-count")) == 20
            story = page.locator("[data-role=story]")
            page.wait_for_function(
                "document.querySelector('[data-role=story]').textContent.includes('likeliest')",
                timeout=240_000,
            )
            assert "first hits" in story.inner_text() or "hits no piece" in story.inner_text()
            page.get_by_role("button", name="best shot").click()
            line = page.locator("[data-role=best-shot]")
            line.wait_for(timeout=300_000)
            assert "points" in page.locator("[data-role=best-text]").inner_text()
            page.screenshot(path=str(tmp_path / "explorer.png"), full_page=True)
            assert (tmp_path / "explorer.png").stat().st_size > 10_000
            text = page.inner_text("body")
            assert "Traceback" not in text and "Error" not in text
            assert page.locator("[data-role=error]").inner_text().strip() == ""
        finally:
            browser.close()


def test_the_page_switches_to_a_throw_game_and_answers_a_moved_aim(page_url, tmp_path):
    """The position list opens a game whose throws are aimed at a point (KOOBA): the page
    swaps the shooter's controls for the aim point's, draws the landings, and answers."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(page_url, timeout=240_000)
            table = page.get_by_role("table", name="shot probabilities")
            table.wait_for(timeout=240_000)
            _final(page)
            page.get_by_label("position", exact=True).select_option("kooba-opening")
            page.wait_for_function(
                "document.querySelector('table.cl-odds tr[data-quantity=p_eye]')"
                " && document.querySelector('table.cl-odds').dataset.final === 'true'",
                timeout=240_000,
            )
            before = table.inner_text()
            assert "in the eye" in before and "a KOOBA" in before and "%" in before
            for name in ("aim x", "aim y"):
                assert page.get_by_label(name, exact=True).is_visible(), name
            for name in ("placement", "angle", "speed"):
                assert not page.get_by_label(name, exact=True).is_visible(), name
            assert not page.get_by_role("button", name="best shot").is_visible()
            assert page.locator("[data-role=aim-point]").is_visible()
            assert page.locator("[data-role=turn]").inner_text().strip() == ""
            # the keyboard nudges the aim point: 10 steps of 5 mm to the right
            aim_x = page.get_by_label("aim x", exact=True)
            aim_x.focus()
            for _ in range(10):
                page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "(b) => { const t = document.querySelector('table.cl-odds');"
                " return t.dataset.final === 'true' && t.innerText !== b; }",
                arg=before,
                timeout=240_000,
            )
            assert float(page.get_by_label("aim x value", exact=True).input_value()) == (
                pytest.approx(0.05)
            )
            page.wait_for_function(
                "document.querySelectorAll('[data-role=paths] circle.cl-landing').length === 20",
                timeout=240_000,
            )
            page.wait_for_function(
                "/throws$/.test(document.querySelector('.cl-status')?.textContent)",
                timeout=240_000,
            )
            assert "inner eye" in page.locator(".cl-strip-title").inner_text()
            page.screenshot(path=str(tmp_path / "explorer-throw.png"), full_page=True)
            assert (tmp_path / "explorer-throw.png").stat().st_size > 10_000
            text = page.inner_text("body")
            assert "Traceback" not in text and "Error" not in text
            assert page.locator("[data-role=error]").inner_text().strip() == ""
        finally:
            browser.close()
