"""The ``Policy`` protocol: anything that picks a legal action for the game's current character.

Why two kinds: the built-in policies are Numba kernels (``random_policy``, ``greedy``) so the jitted
loop (:mod:`sim.engine.runner`) can call them without Python in between; experiments can also
write a policy in plain Python against :class:`sim.engine.game.Game` and play it with
:func:`play`, at Python speed. The wrappers below make the kernels usable there too.
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from sim.engine import layout as L
from sim.engine.legal import _legal
from sim.engine.runner import _choose


class Policy(Protocol):
    name: str

    def choose(self, game) -> int:
        """A legal action (``game.legal_actions()``) for ``game.current``."""
        ...


class KernelPolicy:
    """A built-in Numba policy (``layout.RANDOM`` or ``layout.GREEDY``) behind the protocol."""

    def __init__(self, policy_id: int, name: str):
        self.policy_id = policy_id
        self.name = name

    def choose(self, game) -> int:
        mask = np.zeros(game.n_actions, np.bool_)
        count = _legal(game.st, game.S, mask)
        return int(_choose(game.st, game.S, mask, count, np.int64(self.policy_id)))


def by_name(name: str) -> Policy:
    if name not in L.POLICY_IDS:
        raise ValueError(f"unknown policy {name!r}; choose from {', '.join(L.POLICY_IDS)}")
    return KernelPolicy(L.POLICY_IDS[name], name)


def play(game, policies: Sequence[Policy], max_decisions: int = 1_000_000):
    """Play ``game`` to the end from Python, team t choosing with ``policies[t]``."""
    for _ in range(max_decisions):
        if game.terminal:
            break
        team = int(game.st.ent[game.current, L.TEAM])
        game.apply(policies[team].choose(game))
    return game.result()
