"""The lab's LLVM inliner threshold (``sim._jit.INLINE_THRESHOLD``, docs/performance.md "LLVM's
inliner"): importing the lab makes LLVM inline a callee that its default leaves as a call.

Each side runs in a fresh interpreter, since the option is process-wide: one that never imports
``sim`` (LLVM's default) and one that imports ``sim._jit`` first. Both compile the same pair of
plain ``numba.njit`` functions (no cache), a caller and a straight-line callee of 150 steps,
and look for a call instruction in the caller's machine code.
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


def _probe(side: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, side], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_the_lab_inlines_a_callee_that_llvm_leaves_as_a_call_by_default():
    assert _probe("plain") == "call"  # LLVM's default threshold: the callee is too large
    assert _probe("lab") == "inlined"  # sim._jit.INLINE_THRESHOLD
