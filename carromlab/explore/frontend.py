"""The explorer's page as the one ES module anywidget loads.

The page is written as small ES modules in ``static/``, one concern each: ``dom.js`` (making
elements, sending a value), ``board.js`` (the picture and its layers, the pointer),
``controls.js`` (choices, sliders, the best-shot button), ``odds.js`` (the odds table),
``story.js`` (what the shot does), ``strip.js`` (a quantity over one control), and the short
``explorer.js`` that lays them out and wires the model's changes to them.

anywidget hands the browser one module's text (``_esm``), imported from a blob URL, where a
relative ``import "./board.js"`` has nothing to resolve against; neither a notebook nor
Voila's page (``carromlab explore``) serves ``static/`` beside it. So :func:`bundle` joins the
modules into one text when the widget's module is imported (plain Python, no build step, no
JavaScript tool): the modules ``explorer.js`` imports, dependencies first, each become a
function scope that returns its exported names (``const $board = (() => { ...; return {
createBoard, ... }; })();``), each import becomes a destructuring of a module before it, and
``explorer.js``'s ``export default`` is the bundle's one export.

The modules keep to a small form, which the bundler checks (one line naming the file and the
fault otherwise): named imports only, ``import { a, b } from "./name.js";`` (over one line or
several; hoisted, as ES imports are); exports only as ``export function name`` / ``export const
name`` (or ``let`` / ``class``); ``export default`` in ``explorer.js`` only; every imported
name exported by its module; no import cycle. The files stay ordinary ES modules that a
browser can load from any file server as they are. (anywidget's reload of an edited file,
``ANYWIDGET_HMR``, does not reach the bundle: restart the kernel after editing a module.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from carromlab.errors import CarromlabError

#: The module anywidget loads: it lays the page out and imports the others.
MAIN = "explorer.js"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w-]+\.js)";[ \t]*\n?', re.M)
_ANY_IMPORT = re.compile(r"^\s*import\b", re.M)
_EXPORT = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) +([A-Za-z_$][\w$]*)")
_DEFAULT = re.compile(r"^export default\b")
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


@dataclass(frozen=True)
class Module:
    """One of the page's modules, parsed: its file name, its imports (``(file, [(name,
    local name)])``), its code with the import lines taken out, its exported names and
    whether it has an ``export default``."""

    file: str
    imports: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    code: str
    exports: tuple[str, ...]
    default: bool

    @property
    def var(self) -> str:
        """The bundle's name for the module's exports."""
        return "$" + re.sub(r"\W", "_", self.file.removesuffix(".js"))


def _fault(file: str, what: str) -> CarromlabError:
    return CarromlabError(f"the explorer's page: static/{file}: {what}")


def parse(file: str, text: str) -> Module:
    """``text``, the module ``file``, in the form the bundler takes (see the module's
    docstring); one line naming the file and the fault where it is not in that form."""
    imports = []
    for m in _IMPORT.finditer(text):
        names = []
        for part in m.group(1).split(","):
            words = part.split()
            if not words:
                continue
            if len(words) == 3 and words[1] == "as":
                name, local = words[0], words[2]
            elif len(words) == 1:
                name = local = words[0]
            else:
                raise _fault(file, f"cannot read the import {part.strip()!r}")
            if not (_NAME.match(name) and _NAME.match(local)):
                raise _fault(file, f"cannot read the import {part.strip()!r}")
            names.append((name, local))
        imports.append((m.group(2), tuple(names)))
    code = _IMPORT.sub("", text)
    stray = _ANY_IMPORT.search(code)
    if stray:
        rest = code[stray.start() :].splitlines()[0].strip()
        raise _fault(file, f"only named imports from ./*.js: {rest!r}")
    exports, default, lines = [], False, []
    for line in code.splitlines():
        if line.startswith("export"):
            m = _EXPORT.match(line)
            if m:
                exports.append(m.group(1))
                line = line[len("export ") :]
            elif _DEFAULT.match(line):
                default = True
            else:
                raise _fault(file, f"an export the bundler does not take: {line.strip()!r}")
        lines.append(line)
    return Module(file, tuple(imports), "\n".join(lines).strip("\n"), tuple(exports), default)


def modules(folder: Path, main: str = MAIN) -> list[Module]:
    """``main`` and every module it imports, read from ``folder``, each after the modules it
    imports (``main`` last); an import cycle, a missing file or an imported name its module
    does not export is refused in one line."""
    done: dict[str, Module] = {}
    visiting: list[str] = []

    def visit(file: str) -> None:
        if file in done:
            return
        if file in visiting:
            raise _fault(file, "an import cycle: " + " -> ".join([*visiting, file]))
        path = Path(folder) / file
        if not path.is_file():
            raise _fault(file, "no such module (imported by " + (visiting or ["?"])[-1] + ")")
        visiting.append(file)
        module = parse(file, path.read_text(encoding="utf-8"))
        for dep, _names in module.imports:
            visit(dep)
        visiting.pop()
        done[file] = module

    visit(main)
    for module in done.values():
        for dep, names in module.imports:
            missing = [n for n, _ in names if n not in done[dep].exports]
            if missing:
                raise _fault(
                    module.file, f"imports {', '.join(missing)} that {dep} does not export"
                )
        if module.default != (module.file == main):
            what = "has no export default" if module.file == main else "has an export default"
            raise _fault(module.file, f"{what} (only {main}, the page's module, has one)")
    return list(done.values())


def bundle(folder: Path, main: str = MAIN) -> str:
    """The page's modules in ``folder`` as one ES module's text (see the module's docstring)."""
    found = modules(folder, main)
    by_file = {m.file: m for m in found}
    out = [
        f"// carromlab explorer: static/*.js bundled by carromlab/explore/frontend.py ({main} last)"
    ]

    def imports(module: Module) -> list[str]:
        return [
            "const { "
            + ", ".join(n if n == local else f"{n}: {local}" for n, local in names)
            + f" }} = {by_file[dep].var};"
            for dep, names in module.imports
        ]

    for module in found[:-1]:
        out += [f"// ---- {module.file}", f"const {module.var} = (() => {{"]
        out += imports(module)
        out += [module.code, f"return {{ {', '.join(module.exports)} }};", "})();", ""]
    last = found[-1]
    out += [f"// ---- {last.file}", *imports(last), last.code, ""]
    return "\n".join(out)
