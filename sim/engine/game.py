"""The Python face of one game: the engine interface policies, the CLI and tests use.

``Game`` = state + legal actions + apply + terminal + result, over the same kernels the jitted
loop runs, so a game stepped from Python and the same game played by ``runner._play`` write the
same log.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.rng import seed_states

from . import layout as L
from .actions import n_actions
from .entity_labels import entity_label
from .events import decode
from .legal import _legal
from .runner import _choose, _play, player_fps
from .setup import Cards, init_game
from .state import with_fp
from .turn import _advance, _apply


@dataclass(frozen=True)
class Result:
    winner: int        # 0-based team, -1 for a draw
    reason: str        # layout.REASON_NAMES
    rotation: int      # the Rotation Counter at the end
    deaths: int        # characters dead
    apocalypse: int    # index into the Apocalypse Index
    decisions: int


class Game:
    """One game. ``rng`` is a uint64[4] state (``sim.rng.seed_states``) or an int seed."""

    def __init__(self, setup, cards: Cards, team_cards, rng, *, log: bool = True,
                 ev_cap: int = 50_000, apocalypse: int = -1):
        state = seed_states(rng, 1)[0] if isinstance(rng, (int, np.integer)) else rng
        self.setup = setup
        self.st = init_game(setup, cards, team_cards, state, log=log, ev_cap=ev_cap,
                            apocalypse=apocalypse)
        self.S = setup.static
        # the action blocks: sim/engine/actions.py
        self._mask = np.zeros(n_actions(self.st.kind.shape[0], self.st.ent.shape[0]), np.bool_)
        _advance(self.st, self.S)

    # -- the engine interface ---------------------------------------------------------------
    @property
    def current(self) -> int:
        """The entity whose decision it is (-1 when the game is over)."""
        return int(self.st.g[L.CUR])

    @property
    def terminal(self) -> bool:
        return bool(self.st.g[L.OVER])

    def legal_mask(self) -> np.ndarray:
        _legal(self.st, self.S, self._mask)
        return self._mask

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.legal_mask())

    def apply(self, action: int) -> None:
        if self.terminal:
            raise ValueError("the game is over")
        if not (0 <= action < self._mask.size) or not self.legal_mask()[action]:
            raise ValueError(f"action {action} is not legal now")
        _apply(self.st, self.S, np.int64(action))

    def step(self, policy: int, budget: int = 0, weights=None) -> None:
        """One decision by a built-in policy (layout.POLICY_IDS; ``budget`` 0: its default;
        ``weights``: greedy weights of its own, in ``GREEDY_KEYS`` order, None: the rules')."""
        count = _legal(self.st, self.S, self._mask)
        seen = self.S if weights is None else with_fp(self.S, player_fps(self.S.fp,
                                                                         [weights] * 4)[0])
        _apply(self.st, self.S, _choose(self.st, seen, self._mask, count, np.int64(policy),
                                        np.int64(budget)))

    def play(self, policies, budgets=None, weights=None) -> "Result":
        """Play to the end in the jitted loop; ``policies`` = 4 policy ids, one per team,
        ``budgets`` their budgets (default 0: each policy's own) and ``weights`` their greedy
        weights (4 entries, each None for the rules' or ``GREEDY_KEYS``-ordered values)."""
        budgets = np.zeros(4, np.int64) if budgets is None else np.asarray(budgets, np.int64)
        _play(self.st, self.S, np.asarray(policies, np.int64), budgets, np.full(4, -1, np.int64),
              player_fps(self.S.fp, weights))
        return self.result()

    def result(self) -> Result:
        g = self.st.g
        return Result(int(g[L.WINNER]), L.REASON_NAMES[int(g[L.REASON])], int(g[L.ROTATION]),
                      int(g[L.DEATHS]), int(g[L.APOC]), int(g[L.DECISIONS]))

    # -- reading ----------------------------------------------------------------------------
    @property
    def n_actions(self) -> int:
        return self._mask.size

    def event_rows(self) -> np.ndarray:
        return self.st.ev[: int(self.st.g[L.NEV])].copy()

    def labels(self, card_names, cpu_names, entities=None) -> list[str]:
        """A readable name per entity: "Luffy (T1)", "Coyote (CPU)", and for the special
        entities (sim/engine/entities.py) "Quill Duelist minion (T2)", "Mystery Machine
        (vehicle)" — vehicle and assist names from ``entities`` (the catalogue's
        ``EntityCatalogue``; by default numbered)."""
        out, k = [], 0
        for e in range(self.st.ent.shape[0]):
            if self.st.ent[e, L.IS_CPU]:
                out.append(f"{cpu_names[k]} (CPU)")
                k += 1
            else:
                out.append(entity_label(self.st.ent[e], card_names, entities))
        return out

    def events(self, card_names, cpu_names, entities=None) -> list[dict]:
        return decode(self.event_rows(), self.labels(card_names, cpu_names, entities),
                      self.setup.apocalypses.names)
