"""Each notebook is a jupytext pair: the .ipynb (run by the tests through nbmake) holds the
same cells as the .py next to it (the file reviewed and edited)."""

from pathlib import Path

import jupytext
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.py"))


@pytest.mark.parametrize("py", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_pair_is_in_sync(py):
    ipynb = py.with_suffix(".ipynb")
    assert ipynb.exists(), f"{ipynb.name} is missing: jupytext --to ipynb {py.name}"
    a, b = jupytext.read(py), jupytext.read(ipynb)
    cells_a = [(c.cell_type, c.source.strip()) for c in a.cells]
    cells_b = [(c.cell_type, c.source.strip()) for c in b.cells]
    assert cells_a == cells_b, f"{py.name} and {ipynb.name} differ: jupytext --sync {py.name}"
