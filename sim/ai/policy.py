"""The ``Policy`` protocol: anything that picks a legal action for the game's current character.

Why two kinds: the built-in policies are Numba kernels (``random_policy``, ``greedy``,
``lookahead``) so the jitted loop (:mod:`sim.ai.play`) can call them without Python in
between; experiments can also write a policy in plain Python against
:class:`sim.engine.game.Game` and play it with :func:`play`, at Python speed. The wrappers below
make the kernels usable there too.
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from sim.engine.rules.legal import _legal

from .play import _choose, seen_by
from .spec import parse_policy


class Policy(Protocol):
    name: str

    def choose(self, game) -> int:
        """A legal action (``game.legal_actions()``) for ``game.current``."""
        ...


class KernelPolicy:
    """A built-in Numba policy (``fields.POLICY_IDS``), its budget and its greedy weights
    (``GREEDY_KEYS`` order, NaN: the rules'; None: all the rules') behind the protocol."""

    def __init__(self, policy_id: int, name: str, budget: int = 0, weights=None):
        self.policy_id = policy_id
        self.name = name
        self.budget = budget
        self.weights = weights

    def choose(self, game) -> int:
        mask = np.zeros(game.n_actions, np.bool_)
        count = _legal(game.st, game.S, mask)
        return int(_choose(game.st, seen_by(game.S, self.weights), mask, count,
                           np.int64(self.policy_id), np.int64(self.budget)))


def by_name(name: str, budget: int | None = None) -> Policy:
    """``random``, ``greedy``, ``greedy:weights=FILE``, ``lookahead``, ``lookahead:BUDGET`` or
    ``lookahead[:BUDGET]:weights=FILE`` (:mod:`sim.ai.spec`)."""
    spec = parse_policy(name, budget)
    return KernelPolicy(spec.id, spec.label, spec.budget, spec.weights)


def play(game, policies: Sequence[Policy], max_decisions: int = 1_000_000):
    """Play ``game`` to the end from Python, team t choosing with ``policies[t]``."""
    for _ in range(max_decisions):
        if game.terminal:
            break
        team = int(game.st.ent.team[game.current])
        game.apply(policies[team].choose(game))
    return game.result()
