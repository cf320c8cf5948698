"""Policy specs: ``random``, ``greedy``, ``greedy:weights=FILE``, ``lookahead`` or
``lookahead:BUDGET`` — how a player is named in experiment files, on the command line and in
results.

Why one spelling: every command that plays games takes ``--policy`` and ``--budget``, experiment
files list ``policies``, and result rows record who sat where; a spec string carries both the
policy and its budget, so a stored result names exactly the player that produced it. Plain
Python (no Numba import): the CLI checks a spec before anything is compiled or played.

``greedy:weights=FILE`` is greedy with the weights of a weights file
(:mod:`sim.catalogue.greedy_weights`) instead of the rules': a tuned greedy sits beside the
rules' greedy in one game. The file is read and checked when the spec is parsed (InputError, one
line per problem); the label keeps the path as given.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.engine.state.fields import GREEDY, LOOKAHEAD, POLICY_IDS

# the look-ahead's simulations per decision when none is given (sim.ai.lookahead)
DEFAULT_BUDGET = 32
MAX_BUDGET = 1_000_000
BUDGETED = frozenset({LOOKAHEAD})  # the policies that take a budget
WEIGHTED = frozenset({GREEDY})  # the policies that take a weights file
WEIGHTS = "weights="


@dataclass(frozen=True)
class PolicySpec:
    name: str
    id: int       # fields.POLICY_IDS
    budget: int   # simulations per decision; 0 for a policy without a budget
    weights_file: str = ""  # greedy:weights=FILE: the file as named ("" the rules' weights)
    # its weights in GREEDY_KEYS order, NaN where the rules' weight applies (None: the rules')
    weights: tuple | None = field(default=None, compare=False)

    @property
    def label(self) -> str:
        if self.weights_file:
            return f"{self.name}:{WEIGHTS}{self.weights_file}"
        return f"{self.name}:{self.budget}" if self.budget else self.name


def names() -> str:
    """The accepted spellings, for error messages and help."""
    return ", ".join(n + ("[:BUDGET]" if POLICY_IDS[n] in BUDGETED else "")
                     + ("[:weights=FILE]" if POLICY_IDS[n] in WEIGHTED else "") for n in POLICY_IDS)


def parse_policy(text: str, budget: int | None = None) -> PolicySpec:
    """``name`` or ``name:budget``; ``budget`` (``--budget``) applies when the text gives none.

    ValueError with a one-line message for an unknown name, a malformed or out-of-range budget,
    or a budget given to a policy that has none."""
    raw = str(text).strip()
    name, sep, given = raw.partition(":")
    name = name.strip().lower()
    if name not in POLICY_IDS:
        raise ValueError(f"unknown policy {raw!r}; choose from {names()}")
    pid = POLICY_IDS[name]
    if sep and given.strip().lower().startswith(WEIGHTS):
        return _weighted(raw, name, pid, given.strip()[len(WEIGHTS):].strip())
    if sep:
        try:
            value = int(given.strip())
        except ValueError:
            raise ValueError(f"{raw!r}: the budget after ':' must be a whole number") from None
    else:
        value = budget
    if pid not in BUDGETED:
        if sep:
            raise ValueError(f"{raw!r}: {name} takes no budget")
        return PolicySpec(name, pid, 0)
    value = DEFAULT_BUDGET if value is None else value
    if not 1 <= value <= MAX_BUDGET:
        raise ValueError(f"{raw!r}: budget {value} out of range [1, {MAX_BUDGET}]")
    return PolicySpec(name, pid, int(value))


def _weighted(raw: str, name: str, pid: int, path: str) -> PolicySpec:
    """``name:weights=PATH``: the file's weights (InputError listing its problems)."""
    from sim.catalogue.greedy_weights import load_greedy_weights

    if pid not in WEIGHTED:
        raise ValueError(f"{raw!r}: {name} takes no weights file")
    if not path:
        raise ValueError(f"{raw!r}: name a weights file after 'weights='")
    weights = load_greedy_weights(path)
    return PolicySpec(name, pid, 0, path, tuple(float(w) for w in weights))


def parse_policies(texts, budget: int | None = None) -> tuple[PolicySpec, ...]:
    """Specs of several players; ``budget`` must be used by at least one of them when given."""
    specs = tuple(parse_policy(t, budget) for t in texts)
    if budget is not None and not any(s.id in BUDGETED for s in specs):
        takers = ", ".join(n for n, i in POLICY_IDS.items() if i in BUDGETED)
        raise ValueError(f"--budget applies to {takers} only, not to "
                         f"{', '.join(sorted({s.name for s in specs}))}")
    return specs
