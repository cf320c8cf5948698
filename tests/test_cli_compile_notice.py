"""The first run of a game-playing command on a cold compile cache says so and shows progress
(issue #23: "the first `bwlab play` on a new machine compiles for minutes without a word"), on
stderr only, after the command line has parsed (a typo or --help never waits for a compile)."""

from __future__ import annotations

from sim.cli import main as cli_main
from sim.runner import warm as warm_module
from tests._cli_kit import eager_progress


def test_a_cold_cache_is_compiled_with_progress_on_stderr(capsys, monkeypatch):
    calls = []

    def fake_warm(stream=None, on_part=None, **kw):
        on_part("turn", 1.0)
        calls.append(stream)
        return 1.0

    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", fake_warm)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    eager_progress(monkeypatch)  # the shared line counts the parts (it waits 2 s otherwise)
    assert cli_main.main(["play", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert len(calls) == 1
    assert "compiling the game engine" in err
    assert "play: compiling the engine (once for this source): 1/5 parts" in err
    assert "compiling" not in out and "1/5" not in out  # stdout keeps only the results


def test_no_compile_for_a_bad_flag_or_a_command_that_plays_no_game(capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", lambda stream=None, **kw: calls.append(1) or 0.0)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    assert cli_main.main(["play", "--no-such-flag"]) == 2
    assert cli_main.main(["validate"]) == 0
    capsys.readouterr()
    assert calls == []


def test_the_warm_mark_is_this_source_s_and_shared_by_its_clones():
    """The "already compiled" mark lives in the cache of this source's digest. Since stop 55
    the cache files kernels by their path inside the repository (sim/_jit.py), so every clone
    sharing the cache ($BWLAB_JIT_CACHE, a git worktree) loads them and shares one mark;
    without that filing (a Numba without the locator list) the mark is named for this
    checkout's folder, as Numba then files kernels by absolute path."""
    import hashlib
    from pathlib import Path

    import sim._jit as jit
    from sim.runner.warm import warm_mark

    here = Path(__file__).resolve().parents[1]
    assert jit.SHARED_BY_CLONES                       # Numba 0.59+: the locator is in use
    assert warm_mark() == Path(jit.JIT_CACHE_DIR) / "warm.done"
    try:
        jit.SHARED_BY_CLONES = False
        mark = warm_mark()
    finally:
        jit.SHARED_BY_CLONES = True
    assert mark.name == f"warm-{hashlib.sha1(str(here).encode()).hexdigest()[:12]}.done"


def test_an_unwritable_compile_cache_is_named_and_no_fast_start_is_promised(capsys, monkeypatch,
                                                                             tmp_path):
    """$BWLAB_JIT_CACHE at a file (or a read-only folder): Numba cannot keep the machine code,
    so every run compiles for minutes. The command says so, naming the cache and the variable,
    and no longer ends with "later runs start at once"."""
    import sim._jit as jit

    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setattr(jit, "JIT_CACHE_DIR", str(blocker / "digest"))
    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", lambda stream=None, on_part=None, **kw: 1.0)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    assert cli_main.main(["play", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert (f"bwlab: warning: the compiled-kernel cache {blocker / 'digest'} {blocker} is a "
            f"file, not a folder: the engine is compiled afresh on every run; point "
            f"$BWLAB_JIT_CACHE at a writable folder") in err
    assert "bwlab: engine compiled in 1 s\n" in err and "later runs start at once" not in err
