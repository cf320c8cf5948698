"""The one home of the project's Numba options.

Every kernel is decorated with :func:`njit` from here so that caching and the error model are
chosen once: ``cache=True`` makes a second CLI call start fast, ``error_model="numpy"`` lets
divisions behave like NumPy (no Python exception checks in hot loops). ``nopython`` is implied
by ``numba.njit``; object mode is never used.

Why a dispatcher of our own: Numba compiles a kernel called from another kernel for the exact
types of the call, so ``_harm(st, S, e, dmg, -1, cause)`` and ``_harm(st, S, e, dmg, a, cause)``
became two specialisations (``Literal[int](-1)`` and ``int64``). Each specialisation is a library
that every caller links in and re-optimises whole, so compile time grew with every constant
argument in the engine. :class:`_PlainArgs` compiles callees for the plain (non-literal) types
instead: one specialisation per kernel, the same machine code for every call. It also compiles
every kernel for the game's StructRefs *borrowed* (``sim/engine/state/view.py``: no reference
count taken per call), whether another kernel calls it or Python does.

Why the module sets two things in LLVM (docs/performance.md "LLVM's inliner"): Numba leaves
LLVM's inliner at its default threshold, so the engine's small kernels stayed calls
(:data:`INLINE_THRESHOLD`), and it marks its reference counting ``noinline``, so every count was
a call (:func:`inline_reference_counts`). Both change which code is a call, never what a kernel
computes: the same games, 1.15x faster, at about 1.7x the compile time.

Why the cache lives in a folder named by a digest of the package's source
(:func:`use_source_keyed_cache`): Numba checks a cached kernel against its own file only, so a
kernel inlined into callers in other files left them stale after an edit. A changed file under
``sim/`` (outside the layers that hold and feed no kernel) now means a new, empty cache: no run (a developer's ``make test`` included) can load
machine code compiled from other source. ``$BWLAB_JIT_CACHE`` moves the cache's root.

Why the cache's files are filed by their path inside the repository
(:class:`_RepositoryLocator`): Numba files them under a hash of the source file's absolute
path, so a second clone, a worktree (``benchmarks/ab.py``) or a CI workspace at another path
compiled the whole engine again (8-9 minutes) though ``$BWLAB_JIT_CACHE`` pointed at a folder
holding machine code of the very same source (the audit of stop 55). The folder is already
named by the digest of every kernel source and Numba checks each file's content hash, so the
absolute path adds nothing but misses.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba
from numba.core import caching, types
from numba.core.registry import CPUDispatcher

JIT_OPTIONS = {"cache": True, "error_model": "numpy", "nogil": True}

# LLVM's inliner threshold while kernels compile (docs/performance.md, "LLVM's inliner", stop 62).
# Numba leaves LLVM's default for -O3 (about 250: a callee of more than some fifty instructions
# stays a call), so most of the engine's small kernels stayed calls, each passing its every array
# as seven words on the stack. At 20,000 the turn's kernels are inlined into their callers: the
# same games, 1.09x the greedy games a second (paired rounds); compiling takes longer (figures
# in docs/performance.md). A higher threshold gained little more and took twice the compile time.
# With it, Numba's reference counting is inlined too (:func:`inline_reference_counts`).
INLINE_THRESHOLD = 20_000

# How many source digests' caches are kept beside the current one (the most recently used).
_KEPT_CACHES = 4


# Pure statistics and the layers above the game (experiments, reports, the command line) hold no
# kernel and no kernel layer imports them (tests/test_jit_cache.py checks both), so editing them
# cannot change machine code and does not cost the minutes of a full recompile.
NO_KERNELS = ("analysis", "runner", "report", "cli")


def kernel_sources(root: Path) -> list[Path]:
    """Every ``.py`` file under ``root`` that a kernel's machine code can depend on, sorted."""
    return sorted(p for p in root.rglob("*.py")
                  if p.relative_to(root).parts[0] not in NO_KERNELS)


def source_digest(root: Path = Path(__file__).resolve().parent) -> str:
    """A digest of every kernel-layer ``.py`` file under ``sim/`` (relative path and bytes).

    Why: Numba checks a cached kernel against its own file only, so editing a kernel that another
    file inlines left the caller's stale machine code in use. Keying the whole cache to all of the
    source that kernels can see (constants and helpers included) means no run can load a kernel
    compiled from other code.
    """
    digest = hashlib.blake2b(digest_size=8)
    for path in kernel_sources(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _cache_root() -> Path:
    """``$BWLAB_JIT_CACHE``, else ``.jit-cache`` beside the package when writable, else ~/.cache."""
    chosen = os.environ.get("BWLAB_JIT_CACHE")
    if chosen:
        return Path(chosen)
    beside = Path(__file__).resolve().parent.parent
    if os.access(beside, os.W_OK):
        return beside / ".jit-cache"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bwlab" / "jit"


def _prune(root: Path, current: Path) -> None:
    """Drop all but the most recently used caches of other sources (best effort)."""
    try:
        others = sorted((p for p in root.iterdir() if p.is_dir() and p != current),
                        key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for stale in others[_KEPT_CACHES:]:
        shutil.rmtree(stale, ignore_errors=True)


_REPOSITORY = Path(__file__).resolve().parent.parent


class _RepositoryLocator(caching.UserProvidedCacheLocator):
    """Numba's locator for ``NUMBA_CACHE_DIR`` (the digest's folder), with each source file's
    entries filed under its folder inside the repository (``sim/engine/rules``) rather than a
    hash of its absolute path (module doc). Files outside the repository are left to Numba."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        inside = Path(py_file).resolve().relative_to(_REPOSITORY)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, *inside.parent.parts)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_REPOSITORY):
            return None
        return super().from_function(py_func, py_file)


def _locator_classes() -> list | None:
    """Numba's list of cache locators, tried in order (a private attribute: None without it)."""
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    return classes if isinstance(classes, list) else None


def _use_repository_locator() -> None:
    """Put :class:`_RepositoryLocator` first among Numba's cache locators (on a Numba without
    the list, the default per-path filing stands and only costs compiles)."""
    classes = _locator_classes()
    if classes is not None and _RepositoryLocator not in classes:
        classes.insert(0, _RepositoryLocator)


def use_source_keyed_cache() -> Path:
    """Point Numba's cache at ``<root>/<source digest>`` (before any kernel is decorated).

    Set in the environment too, so that Numba's re-reading of ``NUMBA_*`` variables before a
    compilation keeps it, and worker processes compute the same place from the same files.
    """
    root = _cache_root()
    path = root / source_digest()
    try:
        path.mkdir(parents=True, exist_ok=True)
        os.utime(path)
    except OSError:
        return path  # unwritable: Numba warns and compiles in memory
    _prune(root, path)
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    numba.config.CACHE_DIR = str(path)
    _use_repository_locator()
    return path


def raise_inline_threshold(threshold: int = INLINE_THRESHOLD) -> None:
    """Set LLVM's ``-inline-threshold`` for every compilation after this call, in this process.

    Why a process-wide LLVM option: Numba's pass builder leaves the inliner at LLVM's default for
    the optimisation level and offers no setting of its own (``llvm_bindings.create_pass_builder``
    has it commented out); an explicit ``-inline-threshold`` overrides that default wherever LLVM
    inlines. It changes which calls are inlined, never what a kernel computes. Kernels loaded from
    the cache are not recompiled by it: the cache folder is named by a digest of this file too.
    """
    import llvmlite.binding as llvm

    llvm.set_option("bwlab", f"-inline-threshold={int(threshold)}")


def _inline_refcount_library(codegen):
    """A finalised library defining ``NRT_incref`` and ``NRT_decref`` as Numba's runtime does
    (``nrtdynmod``: a null test, then an atomic add or subtract, the destructor at zero), less
    their ``noinline``, built once per codegen."""
    from numba.core.runtime import nrtdynmod

    lib = getattr(codegen, "_bwlab_refcounts", None)
    if lib is None:
        lib = _create_library(codegen, _REFCOUNT_LIBRARY)
        module = lib.create_ir_module(_REFCOUNT_LIBRARY)
        add = nrtdynmod._define_atomic_inc_dec(module, "add", ordering="monotonic")
        sub = nrtdynmod._define_atomic_inc_dec(module, "sub", ordering="monotonic")
        add.linkage = sub.linkage = "internal"  # private to each library that links them
        nrtdynmod._define_nrt_incref(module, add)
        nrtdynmod._define_nrt_decref(module, sub)
        for name in ("NRT_incref", "NRT_decref"):
            module.get_global(name).attributes.discard("noinline")
        lib.add_ir_module(module)
        lib.finalize()
        codegen._bwlab_refcounts = lib
    return lib


_REFCOUNT_LIBRARY = "bwlab_inline_refcounts"
_create_library = None  # Numba's own CPUCodegen.create_library, once patched


def _create_library_linking_refcounts(codegen, name, **kwargs):
    """Numba's ``create_library``, with :func:`_inline_refcount_library` linked in."""
    lib = _create_library(codegen, name, **kwargs)
    if name not in ("nrt", _REFCOUNT_LIBRARY):
        lib.add_linking_library(_inline_refcount_library(codegen))
    return lib


def inline_reference_counts() -> bool:
    """Let LLVM inline Numba's reference counting into the kernels; whether it is in effect.

    Why: Numba defines ``NRT_incref`` / ``NRT_decref`` once, in a library of their own marked
    ``noinline``, so every reference count in a kernel is a call, even on a borrowed array
    whose null test is all there is to do (3.5 % of a greedy game's samples were those two
    functions, docs/performance.md "LLVM's inliner"). Every library Numba creates now links a
    copy of both without ``noinline``. The reference-count pruner still sees the calls: it runs
    in Numba's first, non-inlining pass; only the full pass after it inlines them. What a
    kernel computes and when memory is freed are unchanged. On a Numba without these internals
    the calls stay as they were (False).
    """
    global _create_library
    from numba.core import codegen
    from numba.core.runtime import nrtdynmod

    if _create_library is not None:
        return True
    needed = (getattr(codegen.CPUCodegen, "create_library", None),
              getattr(nrtdynmod, "_define_atomic_inc_dec", None),
              getattr(nrtdynmod, "_define_nrt_incref", None),
              getattr(nrtdynmod, "_define_nrt_decref", None))
    if any(part is None for part in needed):
        return False
    _create_library = codegen.CPUCodegen.create_library
    codegen.CPUCodegen.create_library = _create_library_linking_refcounts
    return True


raise_inline_threshold()
REFCOUNTS_INLINED = inline_reference_counts()
JIT_CACHE_DIR = use_source_keyed_cache()
# Whether clones of this source sharing the cache folder share its kernels (sim/runner/warm.py
# names its "compiled" mark by it)
SHARED_BY_CLONES = _RepositoryLocator in (_locator_classes() or [])


def _call_type(t):
    """The type a kernel is compiled for when called with ``t``: no literals, and a game
    StructRef borrowed (``call_type``: sim/engine/state/view.py, no reference count per call)."""
    t = types.unliteral(t)
    call_type = getattr(t, "call_type", None)
    return call_type() if call_type is not None else t


class _PlainArgs(CPUDispatcher):
    """A CPU dispatcher compiling every kernel for :func:`_call_type` argument types, whether
    another kernel calls it or Python does."""

    def get_call_template(self, args, kws):
        args = tuple(_call_type(a) for a in args)
        kws = {k: _call_type(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def compile(self, sig):
        if not isinstance(sig, tuple):
            return super().compile(sig)
        plain = tuple(_call_type(a) for a in sig)
        entry = super().compile(plain)
        if plain != sig and all(isinstance(a, types.Type) for a in sig):
            self._answer_directly(sig, entry)
        return entry

    def _answer_directly(self, sig, entry):
        """File the kernel compiled for the plain types under the types Python called it with
        (an owned StructRef: its own type, not the borrowed one).

        Why: Numba's C dispatcher looks a call's argument types up among the signatures it
        compiled, finds only the borrowed one, and so sent every call from Python down its slow
        path (typing every argument, taking the compiler lock, finding the kernel again): about
        0.3 ms a call, 30 s of one test stepping a dozen games (docs/performance.md). The entry
        point is the very one that path returns and calls with the same Python objects, so the
        call does what it did; each signature is filed once."""
        filed = self.__dict__.setdefault("_bwlab_filed", set())
        if sig not in filed:
            filed.add(sig)
            self._insert([a._code for a in sig], entry, False)


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; extra keyword arguments (``parallel``) are added."""
    options = {**JIT_OPTIONS, **kwargs}
    if args and callable(args[0]) and len(args) == 1:
        return _plain(numba.njit(**options)(args[0]))
    decorate = numba.njit(*args, **options)
    return lambda func: _plain(decorate(func))


def _plain(disp):
    """The dispatcher as :class:`_PlainArgs` (unchanged under ``NUMBA_DISABLE_JIT``: a function)."""
    if type(disp) is CPUDispatcher:
        disp.__class__ = _PlainArgs
    return disp
