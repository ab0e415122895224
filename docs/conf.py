"""The documentation site (Sphinx, the PyData theme, MyST pages and notebooks).

``python3 tasks.py docs`` builds it into ``build/site/`` with warnings as errors; the
decisions behind it (where it builds, how notebooks run, what the gallery holds) are in
docs/decisions.md, "The documentation site".
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "site" / "_ext"))
sys.path.insert(0, str(ROOT))

from carromlab._version import __version__  # noqa: E402

project = "carromlab"
author = "carromlab"
copyright = "carromlab's authors"
release = __version__
version = __version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx_design",
    "carromlab_site",
]

root_doc = "index"
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = [
    "_build",
    "images",
    "img",
    "site/_ext",
    "notebooks/*.py",
    "notebooks/.ipynb_checkpoints",
    "**.ipynb_checkpoints",
]

# --- MyST ---------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "attrs_inline"]
myst_heading_anchors = 3

# --- notebooks: executed at build, kept in a cache keyed by each notebook's code ----------
# "cache": a notebook runs only when its code cells changed since the cache was filled
# (jupyter-cache); a clean clone, as in CI, runs every one. A cell's error fails the build.
# With CARROMLAB_QUICK=1 (CI) the notebooks run at their tiny test sizes, in a cache of their
# own, and every page says so (docs/decisions.md, "The documentation site").
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
nb_execution_mode = os.environ.get("CARROMLAB_NB_EXECUTION", "cache")
nb_execution_cache_path = str(ROOT / "build" / ("nb-cache-quick" if QUICK else "nb-cache"))
nb_execution_timeout = 1800
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

# --- API ----------------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autosummary_generate = False
napoleon_google_docstring = False
napoleon_numpy_docstring = True

# --- checks: every link between pages and every reference to the API must resolve --------
# A reference to a curated name (``carromlab.estimate``, ``carromlab.Position.validate``) that
# does not resolve is an error. The docstrings also name the package's inner modules and the
# standard library's and other packages' types, which the site does not document (and no
# inventory is fetched: the build runs offline): those stay plain text.
import carromlab  # noqa: E402

_CURATED = "|".join(n for n in carromlab.__all__ if not n.startswith("_"))
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", rf"(?!carromlab\.(?:{_CURATED})(?:\.|$)).*")]
suppress_warnings = ["myst.header"]  # a page's heading levels are its own

# --- HTML ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"carromlab {__version__}"
html_static_path: list[str] = []
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
    "secondary_sidebar_items": ["page-toc"],
}
if QUICK:
    html_theme_options["announcement"] = (
        "Built with CARROMLAB_QUICK=1: the notebooks ran at their tiny test sizes, so their "
        "numbers are rough (python3 tasks.py docs builds them at full size)."
    )
html_sidebars = {"index": [], "site/gallery": []}
html_show_sourcelink = False
html_copy_source = False
