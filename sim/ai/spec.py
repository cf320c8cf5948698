"""Policy specs: ``random``, ``greedy``, ``greedy:weights=FILE``, ``lookahead``,
``lookahead:BUDGET`` or ``lookahead[:BUDGET]:weights=FILE`` — how a player is named in experiment
files, on the command line and in results.

Why one spelling: every command that plays games takes ``--policy`` and ``--budget``, experiment
files list ``policies``, and result rows record who sat where; a spec string carries both the
policy and its budget, so a stored result names exactly the player that produced it. Plain
Python (no Numba import): the CLI checks a spec before anything is compiled or played.

``greedy:weights=FILE`` is greedy with the weights of a weights file
(:mod:`sim.catalogue.greedy_weights`) instead of the rules': a tuned greedy sits beside the
rules' greedy in one game. The file is read and checked when the spec is parsed (InputError, one
line per problem); the label keeps the path as given. ``lookahead[:BUDGET]:weights=FILE`` is the
look-ahead over that greedy: its candidates and every team's play-outs are scored with the file's
weights (the team's parameter row, as for greedy), and its label names the budget in full
(``lookahead:32:weights=FILE``). ``lookahead-rotation`` takes the same budget and weights: the
look-ahead whose play-outs run whole rotations at every budget (``sim.ai.lookahead._horizon``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.engine.state.fields import GREEDY, LOOKAHEAD, LOOKAHEAD_ROTATION, POLICY_IDS

# the look-ahead's simulations per decision when none is given (sim.ai.lookahead)
DEFAULT_BUDGET = 32
MAX_BUDGET = 1_000_000
BUDGETED = frozenset({LOOKAHEAD, LOOKAHEAD_ROTATION})  # the policies that take a budget
# the policies that take a weights file
WEIGHTED = frozenset({GREEDY, LOOKAHEAD, LOOKAHEAD_ROTATION})
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
        text = f"{self.name}:{self.budget}" if self.budget else self.name
        return f"{text}:{WEIGHTS}{self.weights_file}" if self.weights_file else text


def names() -> str:
    """The accepted spellings, for error messages and help."""
    return ", ".join(n + ("[:BUDGET]" if POLICY_IDS[n] in BUDGETED else "")
                     + ("[:weights=FILE]" if POLICY_IDS[n] in WEIGHTED else "") for n in POLICY_IDS)


def parse_policy(text: str, budget: int | None = None) -> PolicySpec:
    """``name``, ``name:budget``, ``name:weights=FILE`` or ``name:budget:weights=FILE``;
    ``budget`` (``--budget``) applies when the text gives none.

    ValueError with a one-line message for an unknown name, a malformed or out-of-range budget,
    a budget or weights file given to a policy that takes none; InputError for a bad file."""
    raw = str(text).strip()
    name, sep, rest = raw.partition(":")
    name = name.strip().lower()
    if name not in POLICY_IDS:
        raise ValueError(f"unknown policy {raw!r}; choose from {names()}")
    pid = POLICY_IDS[name]
    given, path = rest, None
    if rest.strip().lower().startswith(WEIGHTS):
        given, path = "", rest.strip()[len(WEIGHTS):].strip()
    elif ":" in rest:
        given, _, tail = rest.partition(":")
        if not tail.strip().lower().startswith(WEIGHTS):
            raise ValueError(f"{raw!r}: after the budget only ':weights=FILE' may follow")
        path = tail.strip()[len(WEIGHTS):].strip()
    if given.strip():
        try:
            value = int(given.strip())
        except ValueError:
            raise ValueError(f"{raw!r}: the budget after ':' must be a whole number") from None
        if pid not in BUDGETED:
            raise ValueError(f"{raw!r}: {name} takes no budget")
    elif sep and path is None:
        raise ValueError(f"{raw!r}: the budget after ':' must be a whole number")
    else:
        value = budget
    if pid in BUDGETED:
        value = DEFAULT_BUDGET if value is None else value
        if not 1 <= value <= MAX_BUDGET:
            raise ValueError(f"{raw!r}: budget {value} out of range [1, {MAX_BUDGET}]")
    spec = PolicySpec(name, pid, int(value) if pid in BUDGETED else 0)
    if path is not None:
        _check_order(raw, spec, given.strip(), path)
    return spec if path is None else _weighted(raw, spec, path)


def _check_order(raw: str, spec: PolicySpec, given: str, path: str) -> None:
    """ValueError for a spec with something after its weights file. Why: all that follows
    ``weights=`` is the path, so ``lookahead:weights=F:2`` (the budget last) looked for a file
    ``F:2``, and "F:2: file: not found" read as line 2 of F (stop 77's audit). Said only where
    no such file is there and the path's end looks like a budget or the rest is a file, so a
    file whose name does end in ``:2`` is read."""
    head, sep, tail = (part.strip() for part in path.rpartition(":"))
    if not sep or not head or spec.id not in WEIGHTED or _names_something(path) \
            or not (tail.isdigit() or _names_something(head)):
        return
    if spec.id in BUDGETED and tail.isdigit() and not given:
        right = f"the budget goes before weights=: {spec.name}:{tail}:weights={head}"
    elif spec.id not in BUDGETED and tail.isdigit():
        right = f"{spec.name} takes no budget: {spec.name}:weights={head}"
    else:
        right = f"nothing follows the weights file: {spec.name}{':' + given if given else ''}" \
                f":weights={head}"
    raise ValueError(f"{raw!r}: misordered player spec, ':{tail}' after the weights file reads "
                     f"as part of its name (no such file); {right}")


def _names_something(path: str) -> bool:
    """Whether ``path`` names anything here (a name too long, or with a NUL, names nothing)."""
    from pathlib import Path

    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def _weighted(raw: str, spec: PolicySpec, path: str) -> PolicySpec:
    """``spec`` with ``weights=PATH``: the file's weights (InputError listing its problems)."""
    from dataclasses import replace

    from sim.catalogue.diagnostics import InputError
    from sim.catalogue.greedy_weights import load_greedy_weights

    if spec.id not in WEIGHTED:
        raise ValueError(f"{raw!r}: {spec.name} takes no weights file")
    if not path:
        raise ValueError(f"{raw!r}: name a weights file after 'weights='")
    try:
        weights = load_greedy_weights(path)
    except InputError as exc:  # a missing or unreadable file: say which player named it
        raise InputError([replace(q, message=f"{q.message} (the weights file of player {raw!r})")
                          if q.field == "file" else q for q in exc.problems]) from None
    return PolicySpec(spec.name, spec.id, spec.budget, path, tuple(float(w) for w in weights))


def parse_policies(texts, budget: int | None = None) -> tuple[PolicySpec, ...]:
    """Specs of several players; ``budget`` must be used by at least one of them when given."""
    specs = tuple(parse_policy(t, budget) for t in texts)
    if budget is not None and not any(s.id in BUDGETED for s in specs):
        takers = ", ".join(n for n, i in POLICY_IDS.items() if i in BUDGETED)
        raise ValueError(f"--budget applies to {takers} only, not to "
                         f"{', '.join(sorted({s.name for s in specs}))}")
    return specs
