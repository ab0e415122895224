"""The explorer: touch a position and see the odds (a Jupyter widget, and a local page
served by ``carromlab explore``). :mod:`~carromlab.explore.model` computes, apart from any
widget; :mod:`~carromlab.explore.widget` is the anywidget front end's Python side."""

from __future__ import annotations


def __getattr__(name: str):
    if name == "Explorer":
        try:
            from carromlab.explore.widget import Explorer
        except ImportError as e:  # anywidget is the "explore" extra
            from carromlab.errors import CarromlabError

            raise CarromlabError(
                f"the explorer needs anywidget ({e.name} is missing): "
                "pip install 'carromlab[explore]'"
            ) from None
        return Explorer
    raise AttributeError(name)
