"""Layers point one way (developers' guide; issue #24 item 4): analysis → catalogue → board →
combat → engine → ai → runner → report → cli, with the shared utilities (``sim/*.py``: ``_jit``,
``rng``, ``atomic``, ...) below them all. A module may import its own layer and the layers before
it, never one after: the engine knows no policy, the catalogue no engine, pure statistics nothing
of the game.

Every import is read from the source with ``ast`` (those inside functions too, where the CLI
and the runner import lazily), relative imports resolved, so nothing has to be imported to be
checked and a violation names its file, line and the import.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"
LAYERS = ("analysis", "catalogue", "board", "combat", "engine", "ai", "runner", "report", "cli")
RANK = {name: k + 1 for k, name in enumerate(LAYERS)}  # 0: the shared utilities at sim/*.py


def module_name(path: Path) -> str:
    """``sim/engine/rules/turn.py`` -> ``sim.engine.rules.turn``; a package's ``__init__`` -> the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str | None:
    """The layer a ``sim`` module belongs to ("" for the utilities at ``sim/*.py``), None for a
    module outside ``sim``."""
    parts = module.split(".")
    if parts[0] != "sim":
        return None
    if len(parts) == 1 or parts[1] not in RANK:
        return ""
    return parts[1]


def imported_modules(node: ast.AST, module: str, package: bool) -> list[str]:
    """The modules one import statement of ``module`` names, relative imports resolved; for
    ``from PKG import NAME`` also ``PKG.NAME`` (NAME may be a submodule: ``from sim import ai``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".") if package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [source] + [f"{source}.{alias.name}" for alias in node.names]


def upward_imports(source: str, module: str, package: bool = False,
                   filename: str = "<module>") -> list[str]:
    """One line per import of ``module`` (given as ``source`` text) that names a layer after its
    own: ``file:line: sim.engine.runner imports sim.ai.greedy (engine -> ai)``."""
    own = layer(module)
    problems = []
    nodes = sorted((n for n in ast.walk(ast.parse(source, filename))
                    if isinstance(n, (ast.Import, ast.ImportFrom))), key=lambda n: n.lineno)
    for node in nodes:
        seen = set()
        for target in imported_modules(node, module, package):
            theirs = layer(target)
            if theirs is None or target in seen:
                continue
            seen.add(target)
            if RANK.get(theirs, 0) > RANK.get(own, 0):
                problems.append(f"{filename}:{node.lineno}: {module} imports {target} "
                                f"({own or 'utilities'} -> {theirs})")
                break  # one line per statement
    return problems


def test_every_folder_of_sim_is_a_layer():
    """A new folder must be placed in the order (here and in the guide) before it can be
    checked."""
    folders = sorted(p.name for p in SIM.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert set(folders) <= set(LAYERS), f"unplaced packages: {sorted(set(folders) - set(LAYERS))}"


def test_no_module_imports_a_layer_above_its_own():
    problems = []
    for path in sorted(SIM.rglob("*.py")):
        problems += upward_imports(path.read_text(encoding="utf-8"), module_name(path),
                                   path.name == "__init__.py", str(path.relative_to(ROOT)))
    assert not problems, "imports that point up the layers:\n" + "\n".join(problems)


def test_the_check_reports_a_planted_upward_import():
    """The same function the real check uses finds an upward import at module level, inside a
    function, relative or as ``from sim import LAYER``, and names its line; downward and
    same-layer imports pass."""
    planted = ("import numpy as np\n"
               "from sim.catalogue.teams import TEAMS\n"     # down: fine
               "from . import layout as L\n"                # same layer: fine
               "\n"
               "def policy_of(game):\n"
               "    from sim.ai.play import step\n"          # up, inside a function
               "    return step\n"
               "from ..runner import progress\n"            # up, relative
               "from sim import report\n")                  # up, the package's submodule
    problems = upward_imports(planted, "sim.engine.planted", filename="sim/engine/planted.py")
    assert problems == [
        "sim/engine/planted.py:6: sim.engine.planted imports sim.ai.play (engine -> ai)",
        "sim/engine/planted.py:8: sim.engine.planted imports sim.runner (engine -> runner)",
        "sim/engine/planted.py:9: sim.engine.planted imports sim.report (engine -> report)",
    ]
    # the utilities may import no layer at all; analysis (pure statistics) nothing of the game
    assert upward_imports("from sim.analysis import ratings\n", "sim.rng")
    assert upward_imports("from sim.catalogue.cards import load_cards\n", "sim.analysis.paired")
    assert not upward_imports("from sim.rng import roll\n", "sim.analysis.paired")


IMPORT_EACH_FIRST = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "sim" or m.startswith("sim.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print("\\n".join(failed))
"""


def test_every_module_imports_when_it_is_the_first_one_imported():
    """Import order must not matter: each module of ``sim`` imported first into a fresh module
    table (one interpreter, the table emptied of ``sim`` between them). ``sim.analysis.ratings``
    once re-exported ``composition`` with an import at its end, so importing ``composition``
    first was a circular import and a test that did so failed when it ran alone."""
    import subprocess
    import sys

    names = sorted(module_name(p) for p in SIM.rglob("*.py"))
    run = subprocess.run([sys.executable, "-c", IMPORT_EACH_FIRST, *names], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "", run.stdout
