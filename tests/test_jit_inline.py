"""What the lab changes in LLVM's inlining (docs/performance.md "LLVM's inliner", stop 62):
``sim._jit.INLINE_THRESHOLD`` makes LLVM inline a callee that its default leaves as a call, and
``sim._jit.inline_reference_counts`` inlines Numba's reference counting into the kernels.

Each side runs in a fresh interpreter, since both settings are process-wide: one that never
imports ``sim`` (LLVM's and Numba's defaults) and one that imports ``sim._jit`` first. Both
compile the same plain ``numba.njit`` functions (no cache) and read their machine code.
"""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
if sys.argv[1] == "lab":
    import sim._jit  # noqa: F401  (sets the threshold)
import numba

steps = "".join(f"    x = (x * {2 * i + 3} + {i}) ^ (x >> {i % 7 + 1})\\n" for i in range(150))
space = {}
exec("def big(x):\\n" + steps + "    return x\\n", space)
big = numba.njit(space["big"])


@numba.njit
def caller(x):
    return big(x) + 1


assert caller(5) == big(5) + 1
asm = caller.inspect_asm(caller.signatures[0])
# the caller's own native function: from its label to the end of the first function
body = asm.split("_ZN8__main__6caller", 3)[3].split(".Lfunc_end0")[0]
print("call" if "call" in body else "inlined")
"""


def _probe(source: str, side: str) -> str:
    """The last line ``source`` prints in a fresh interpreter, run as ``side`` ("plain": Numba's
    and LLVM's defaults; "lab": after importing ``sim._jit``)."""
    done = subprocess.run([sys.executable, "-c", source, side], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_the_lab_inlines_a_callee_that_llvm_leaves_as_a_call_by_default():
    assert _probe(PROBE, "plain") == "call"  # LLVM's default threshold: the callee is too large
    assert _probe(PROBE, "lab") == "inlined"  # sim._jit.INLINE_THRESHOLD


REFCOUNT_PROBE = """
import sys
if sys.argv[1] == "lab":
    import sim._jit
    assert sim._jit.REFCOUNTS_INLINED
import numba
import numpy as np


@numba.njit
def doubled_sum(a, n):
    head = a[:n]  # a view: a reference taken and dropped
    out = np.empty(n)  # an allocation: freed at its last use
    for i in range(n):
        out[i] = head[i] * 2.0
    return out.sum()


assert doubled_sum(np.arange(10.0), 5) == 20.0
asm = doubled_sum.inspect_asm(doubled_sum.signatures[0])
print(sum(1 for line in asm.splitlines() if "NRT_incref" in line or "NRT_decref" in line))
"""


def test_the_lab_inlines_numbas_reference_counts_into_a_kernel():
    """``sim._jit.inline_reference_counts``: the same kernel names Numba's out-of-line
    ``NRT_incref`` / ``NRT_decref`` under Numba's own codegen, and not once under the lab's
    (inlined: a null test and an atomic add in place), with the same result."""
    assert int(_probe(REFCOUNT_PROBE, "plain")) > 0
    assert int(_probe(REFCOUNT_PROBE, "lab")) == 0
