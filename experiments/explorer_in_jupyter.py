"""Open notebooks/08_explorer in JupyterLab and in Notebook 7 (headless Chromium, Debian's
``chromium``), run all cells from the Run menu, and check that the explorer widget renders,
that the arrow keys move its angle and that its odds change. Prints one result per front end.

    pip install "jupyterlab>=4" "notebook>=7"   # not in the test environment
    python experiments/explorer_in_jupyter.py

Screenshots go to /tmp/explorer-jupyter/. (Checked 2026-12-03: JupyterLab 4.6.6 and
Notebook 7.6.5 both "ok"; see docs/decisions.md, "The explorer".)"""

import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = Path("/tmp/explorer-jupyter")
OUT.mkdir(exist_ok=True)


def serve(app, port):
    cmd = [
        sys.executable,
        "-m",
        app,
        "--no-browser",
        f"--port={port}",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.root_dir={ROOT}",
        "--allow-root",
    ]
    p = subprocess.Popen(
        cmd, stdout=open(f"/tmp/explorer-jupyter/{app}.log", "w"), stderr=subprocess.STDOUT
    )
    time.sleep(8)
    return p


results = {}
with sync_playwright() as pw:
    b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for app, port, path in [
        ("jupyterlab", 8970, "/lab/tree/notebooks/08_explorer.ipynb"),
        ("notebook", 8971, "/notebooks/notebooks/08_explorer.ipynb"),
    ]:
        srv = serve(app, port)
        try:
            pg = b.new_page(viewport={"width": 1300, "height": 1000})
            pg.goto(f"http://127.0.0.1:{port}{path}", timeout=120000)
            pg.wait_for_selector(".jp-Notebook", timeout=120000)
            time.sleep(5)
            # Run > Run All Cells through the command palette shortcut-free route: the menu
            pg.get_by_role("menuitem", name="Run").first.click()
            pg.get_by_text("Run All Cells", exact=True).first.click()
            pg.wait_for_function(
                "document.querySelector('table.cl-odds')?.dataset.final === 'true'", timeout=300000
            )
            t = pg.locator("table.cl-odds").first.inner_text()
            angle = pg.get_by_label("angle", exact=True).first
            before = t
            angle.focus()
            [pg.keyboard.press("ArrowLeft") for _ in range(10)]
            pg.wait_for_function(
                "(b)=>{const t=document.querySelector('table.cl-odds'); return t.dataset.final==='true' && t.innerText!==b}",
                arg=before,
                timeout=300000,
            )
            pg.screenshot(path=f"/tmp/explorer-jupyter/{app}.png")
            results[app] = "ok: widget rendered, angle moved, odds changed"
        except Exception as e:
            pg.screenshot(path=f"/tmp/explorer-jupyter/{app}-fail.png")
            results[app] = f"failed: {type(e).__name__}: {str(e)[:300]}"
        finally:
            srv.terminate()
            srv.wait(20)
    b.close()
print(results)
