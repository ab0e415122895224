"""The explorer's answers (carromlab/explore), without a browser: the widget in the caller's
thread (``background=False``) and its model."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import carromlab as cl
from carromlab.errors import CarromlabError
from carromlab.explore.frontend import bundle, modules
from carromlab.explore.model import (
    ShotControls,
    ShotModel,
    board_picture,
    explorable_variants,
    model_class,
    model_for,
)
from carromlab.explore.widget import first_position, skill_names


@pytest.fixture(scope="module")
def icf():
    return cl.Explorer("icf-midgame", n=600, background=False)


def test_a_moved_control_gives_new_odds_and_the_old_generation_is_dropped(icf):
    gen, before = icf.generation, icf.odds
    assert before["final"] and before["n"] == 600
    labels = [r["label"] for r in before["rows"]]
    assert "expected points" in labels and "foul" in labels
    icf.angle = 142.0
    assert icf.generation == gen + 1 and icf.odds["generation"] == icf.generation
    assert icf.odds["rows"] != before["rows"]
    assert len(icf.paths) == 20 and len(icf.strip["value"]) == 61
    assert icf.story["text"].startswith("first hits") and "striker" in icf.story["path"]
    # a stage of a stale generation is dropped: nothing it computes is shown
    icf._stages(icf._model, ShotControls(0.0, 10.0, 1.0), "club", icf.generation - 1)
    assert icf.odds["generation"] == icf.generation


def test_the_quick_answer_is_the_full_answers_first_shots():
    """The quick answer's shots are shots 0 .. 255 of the full answer's (one key per shot)."""
    m = ShotModel(cl.standard_position("icf-midgame"), n=512)
    c = ShotControls(0.03, 142.0, 2.0)
    quick = m._cells([(c.placement, c.angle, c.speed)], 256)
    again = m._cells([(c.placement, c.angle, c.speed)], 256)
    assert quick["points"].iloc[0] == again["points"].iloc[0]


def test_paths_are_the_executions_the_odds_count():
    """The recorded executions capture what the runner's same shots capture."""
    from carromlab.analysis.estimate import prepare
    from carromlab.shots import Shot

    m = ShotModel(cl.standard_position("icf-midgame"), n=600)
    c = ShotControls(0.03, 142.0, 2.0)
    sk, va, _ = prepare(m.position, 20, "club", None)
    x, y = m.origin(c)
    cell = Shot(x=x, y=y, angle=math.radians(c.angle), speed=c.speed)
    chunk = next(iter(m.runner.run(cell, 600, va.noise(sk), m.seed)))
    ex = m.executions(c, 20)
    for k, e in enumerate(ex):
        want = [pid for j, pid in enumerate(m.runner.ids) if chunk.outcome["capture"][k, j] >= 0]
        assert sorted(e["captured"]) == sorted(want)
        assert "striker" in e["pieces"]  # the striker always moves
        xs, _ys = e["pieces"]["striker"]
        assert xs[0] == pytest.approx(chunk.shots["x"][k], abs=1e-4)


def test_the_striker_track_is_its_legal_line_and_a_lying_striker_stays():
    icf = ShotModel(cl.standard_position("icf-midgame"), n=10)
    track = np.array(icf.track())
    assert len(track) > 50 and np.allclose(track[:, 2], track[0, 2])  # one baseline's y
    assert icf.va.legal_origin(icf.position, track[:, 1], track[:, 2]).all()
    lying = ShotModel(cl.standard_position("carrooka-midgame"), n=10)
    assert len(lying.track()) == 1


def test_the_board_picture_maps_metres_to_pixels():
    pic = board_picture(cl.standard_position("icf-midgame"), px=200)
    xmin, xmax, ymin, ymax = pic["extent"]
    assert pic["image"].startswith("data:image/png;base64,")
    assert xmin < -0.3 and xmax > 0.3 and xmax - xmin == pytest.approx(ymax - ymin)


def test_kooba_is_aimed_at_a_point():
    k = cl.Explorer("kooba-opening", n=400, background=False)
    assert k.kind == "throw" and len(k.paths) == 20 and "landing" in k.paths[0]
    near = {r["quantity"]: r["estimate"] for r in k.odds["rows"]}
    k.aim = [0.3, 0.3]
    far = {r["quantity"]: r["estimate"] for r in k.odds["rows"]}
    assert near["p_eye"] > far["p_eye"]


def test_bad_input_is_one_clear_line():
    with pytest.raises(CarromlabError, match="neither a position file"):
        cl.Explorer("no-such-position", background=False)
    with pytest.raises(CarromlabError, match="skill"):
        cl.Explorer("icf-midgame", skill="wizard", background=False)


def test_explore_refuses_a_bad_name_before_starting(tmp_path):
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, "-m", "carromlab", "explore", "--position", "nowhere", "--no-browser"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode != 0
    assert "nowhere" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_the_strip_is_the_same_in_parts_and_stops_when_stale():
    m = ShotModel(cl.standard_position("icf-midgame"), n=100)
    c = ShotControls(0.03, 142.0, 2.0)
    parts = m.strip(c, n=16)
    whole = m._cells([(c.placement, a, c.speed) for a in m.grid[1]], 16)
    assert parts["value"] == pytest.approx(whole["points"].tolist())
    asked = []
    assert m.strip(c, n=16, stale=lambda: asked.append(1) or len(asked) > 1) is None
    assert len(asked) == 2  # the first part computed, the second abandoned


# -- no game named in the explorer; each game's part comes from its registration ------------


EXPLORE = Path(cl.__file__).parent / "explore"


def _game_words() -> list[str]:
    """Every registered game's name and variants, as written with "-" and with "_"."""
    from carromlab.registry import GAMES

    words = set()
    for game in GAMES.values():
        for w in (game.name, *game.variants):
            words |= {w.lower(), w.lower().replace("-", "_"), w.lower().replace("_", "-")}
    return sorted(words)


def test_the_explorer_names_no_game():
    files = [*EXPLORE.glob("*.py"), *(EXPLORE / "static").glob("*.js")]
    assert len(files) >= 10  # the Python side and the page's modules
    words = _game_words()
    assert "kooba" in words and "icf" in words
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        for w in words:
            found = re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", text)
            assert found is None, f"{path.name} names the game {w!r}"


def test_each_games_explorer_model_comes_from_its_registration():
    from carromlab.games.kooba.explore import ThrowExplorer
    from carromlab.registry import Game, get_game, register_game, unregister_game
    from carromlab.shots import THROW_SKILLS

    assert get_game("kooba").explorer() is ThrowExplorer
    assert model_class("kooba") is ThrowExplorer and model_class("icf") is ShotModel
    assert skill_names("kooba") == list(THROW_SKILLS)

    class Seen:  # a game's own model: built from the position, as the explorer builds it
        def __init__(self, position, **kw):
            self.position, self.kw = position, kw

        @staticmethod
        def skill_names(variant):
            return ["steady"]

    game = Game(
        name="probe", title="Probe", variants=("probe",), family="icf", explorer=lambda: Seen
    )
    register_game(game)
    try:
        assert "probe" in explorable_variants() and skill_names("probe") == ["steady"]
        probe = SimpleNamespace(variant="probe")  # what the explorer reads of a position
        m = model_for(probe, skill="steady", n=10, seed=1)
        assert isinstance(m, Seen) and m.kw == {"skill": "steady", "n": 10, "seed": 1}
        plain = Game(name="plain", title="Plain", variants=("plain",), family="icf")
        register_game(plain)
        try:  # neither shot analysis nor a model of its own: not opened, in one line
            assert "plain" not in explorable_variants()
            with pytest.raises(CarromlabError, match="does not open 'plain'"):
                model_class("plain")
        finally:
            unregister_game("plain")
    finally:
        unregister_game("probe")


def test_a_game_without_a_best_search_says_why():
    k = cl.Explorer("kooba-opening", n=50, background=False)
    try:
        assert k._model.best_note
        k.find_best()
        assert k.best == {"error": k._model.best_note}
        assert k.story == {} and len(k.strip["value"]) == len(k.strip["angle"])
    finally:
        k.close()


def test_the_first_position_is_the_first_games_default():
    assert first_position() == "icf-midgame"


# -- the page's modules, bundled into the one module anywidget loads -------------------------


def test_the_widget_loads_the_bundle_of_the_pages_modules():
    from carromlab.explore.widget import Explorer

    found = modules(EXPLORE / "static")
    names = [m.file for m in found]
    assert names[-1] == "explorer.js" and names[0] == "dom.js"
    assert {"board.js", "controls.js", "odds.js", "story.js", "strip.js"} <= set(names)
    text = bundle(EXPLORE / "static")
    assert str(Explorer._esm) == text
    assert text.count("export default") == 1 and 'from "./' not in text


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to load the bundle")
def test_the_bundle_is_one_module_with_a_render(tmp_path):
    path = tmp_path / "bundle.mjs"
    path.write_text(bundle(EXPLORE / "static"), encoding="utf-8")
    probe = (
        f"const m = await import({path.as_uri()!r});"
        "console.log(JSON.stringify([Object.keys(m), typeof m.default.render]));"
    )
    r = subprocess.run(
        ["node", "--input-type=module", "-e", probe], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [["default"], "function"]


def _page(tmp_path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


MAIN_JS = 'import { a } from "./a.js";\nexport default { render() { return a(); } };\n'


def test_the_bundler_keeps_names_and_order(tmp_path):
    folder = _page(
        tmp_path,
        {
            "explorer.js": MAIN_JS,
            "a.js": 'import { b as bee } from "./b.js";\nexport function a() { return bee + 1; }\n',
            "b.js": "export const b = 41;\n",
        },
    )
    assert [m.file for m in modules(folder)] == ["b.js", "a.js", "explorer.js"]
    text = bundle(folder)
    assert "const { b: bee } = $b;" in text and "return { a };" in text
    if shutil.which("node"):
        (tmp_path / "out.mjs").write_text(text, encoding="utf-8")
        probe = f"const m = await import({(tmp_path / 'out.mjs').as_uri()!r});"
        probe += "console.log(m.default.render());"
        r = subprocess.run(
            ["node", "--input-type=module", "-e", probe], capture_output=True, text=True
        )
        assert r.stdout.strip() == "42", r.stderr


@pytest.mark.parametrize(
    ("files", "fault"),
    [
        ({"a.js": "export const x = 1;\n"}, "does not export"),
        ({"a.js": 'import { z } from "./explorer.js";\nexport const a = 1;\n'}, "import cycle"),
        ({"a.js": "export default 1;\nexport const a = 2;\n"}, "has an export default"),
        ({"a.js": 'import * as m from "./b.js";\nexport const a = 1;\n'}, "only named imports"),
        ({"a.js": "export { a };\nconst a = 1;\n"}, "an export the bundler does not take"),
        ({"a.js": 'import { b } from "./b.js";\nexport const a = b;\n'}, "no such module"),
    ],
)
def test_the_bundler_refuses_what_it_cannot_join(tmp_path, files, fault):
    folder = _page(tmp_path, {"explorer.js": MAIN_JS, **files})
    with pytest.raises(CarromlabError, match=fault):
        bundle(folder)
