"""The compile cache is keyed to the package's source (sim/_jit.py): an edit anywhere in ``sim/``
means new kernels, so no run can use machine code compiled from other source (issue #27, item 1).

The scenario is the one that went wrong before: kernel ``outer`` in one file calls kernel
``inner`` from another file, which Numba compiles into ``outer``'s cached library. Numba alone
checks ``outer``'s cache against ``outer``'s file only, so after an edit of ``inner`` it kept
returning the old result.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

INNER = """from sim._jit import njit


@njit
def inner(x):
    return x + {offset}
"""

OUTER = """from sim._jit import njit
from sim._probe_inner import inner


@njit
def outer(x):
    return inner(x) * 10
"""


def _copy_package(tmp_path: Path) -> Path:
    """A copy of ``sim/`` (sources only) with the two probe kernels added."""
    shutil.copytree(ROOT / "sim", tmp_path / "sim",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (tmp_path / "sim" / "_probe_outer.py").write_text(OUTER)
    return tmp_path / "sim"


def _run_outer(tmp_path: Path, cache: Path) -> tuple[int, str]:
    """``outer(1)`` in a fresh interpreter on the copied package, and the cache folder it used."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "BWLAB_JIT_CACHE": str(cache)}
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    code = "import sim._probe_outer as m, sim._jit as j; print(m.outer(1)); print(j.JIT_CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), out[1]


def test_editing_an_inlined_kernel_recompiles_its_callers(tmp_path):
    package = _copy_package(tmp_path)
    cache = tmp_path / "cache"
    (package / "_probe_inner.py").write_text(INNER.format(offset=1))
    first, first_dir = _run_outer(tmp_path, cache)
    assert first == 20
    # Same source: the second interpreter loads the cached kernel (the cache works at all).
    again, again_dir = _run_outer(tmp_path, cache)
    assert (again, again_dir) == (20, first_dir)
    assert any(Path(first_dir).rglob("*.nbi")), "the kernel was not cached"
    # Edit the inlined kernel only: the caller's file is untouched, yet the result follows.
    (package / "_probe_inner.py").write_text(INNER.format(offset=2))
    edited, edited_dir = _run_outer(tmp_path, cache)
    assert edited == 30
    assert edited_dir != first_dir
    assert Path(edited_dir).parent == Path(first_dir).parent == cache


def test_a_clone_at_another_path_loads_the_kernels_of_the_same_source(tmp_path):
    """Numba filed cached kernels under a hash of the source file's absolute path, so a second
    clone (a worktree, a CI workspace) of the very same source compiled the whole engine again
    (8-9 minutes) though $BWLAB_JIT_CACHE pointed both at one folder (the audit of stop 55).
    Now they are filed by their path inside the repository (sim/_jit.py): the second copy's
    interpreter loads the first's kernel from the cache, and compiles nothing."""
    cache = tmp_path / "cache"
    code = ("import sim._probe_outer as m, sim._jit as j; print(m.outer(1)); "
            "print(j.JIT_CACHE_DIR); print(sum(m.outer.stats.cache_hits.values()))")
    seen = []
    for place in ("first", "second"):
        (tmp_path / place).mkdir()
        package = _copy_package(tmp_path / place)
        (package / "_probe_inner.py").write_text(INNER.format(offset=1))
        env = {**os.environ, "PYTHONPATH": str(tmp_path / place), "BWLAB_JIT_CACHE": str(cache)}
        env.pop("NUMBA_CACHE_DIR", None)
        env.pop("NUMBA_DISABLE_JIT", None)
        seen.append(subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path / place,
                                   check=True, capture_output=True, text=True).stdout.split())
    (value, folder, hits), (value2, folder2, hits2) = seen
    assert value == value2 == "20" and folder == folder2   # one source: one digest's folder
    assert hits == "0" and hits2 == "1", seen              # compiled once, then loaded
    # filed by the path inside the repository (sim/...), not Numba's sim_<hash of the path>
    assert sorted(p.name for p in Path(folder).iterdir() if p.is_dir()) == ["sim"]


def test_the_digest_covers_every_source_file(tmp_path):
    package = _copy_package(tmp_path)
    from sim._jit import source_digest

    before = source_digest(package)
    assert source_digest(package) == before
    deep = package / "engine" / "rules" / "attack.py"  # two folders deep
    deep.write_text(deep.read_text() + "\n# a comment is a change too\n")
    assert source_digest(package) != before


def _imports(path: Path) -> set[str]:
    """The modules a source file imports (absolute names; relative ones resolved within ``sim``)."""
    tree = ast.parse(path.read_text())
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
    return names


def test_the_layers_left_out_of_the_digest_hold_and_feed_no_kernel():
    """Why leaving ``analysis``, ``runner``, ``report`` and ``cli`` out of the digest is safe: none
    defines a kernel, and no file whose source is digested imports them (so no kernel can read
    them)."""
    from sim._jit import NO_KERNELS, kernel_sources

    root = ROOT / "sim"
    for layer in NO_KERNELS:
        for path in (root / layer).rglob("*.py"):
            assert "@njit" not in path.read_text(), f"{path} defines a kernel"
    above = tuple(f"sim.{layer}" for layer in NO_KERNELS)
    for path in kernel_sources(root):
        upward = {m for m in _imports(path) if m.startswith(above)}
        assert not upward, f"{path.relative_to(ROOT)} imports {sorted(upward)}"
