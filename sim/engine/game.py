"""The Python face of one game: the engine interface policies, the CLI and tests use.

``Game`` = state + legal actions + apply + terminal + result, over the same kernels the jitted
loop runs, so a game stepped from Python and the same game played by ``sim.ai.play._play`` write
the same log. The built-in policies drive it from above (``sim.ai.play.step`` and ``play_game``):
the engine knows no policy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.rng import seed_states

from sim.engine.state import fields as L
from sim.engine.rules.actions import Action, action_to_string, block, decode as decode_action, encode, n_actions
from sim.engine.log.labels import entity_label
from sim.engine.log.events import EVENT_NAMES, decode, named
from sim.engine.rules.legal import _legal
from sim.engine.state.new_game import Cards, init_game
from sim.engine.rules.turn import _advance, _apply


@dataclass(frozen=True)
class Result:
    winner: int        # 0-based team, -1 for a draw
    reason: str        # fields.REASON_NAMES
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
        # the action blocks: sim/engine/rules/actions.py
        self._mask = np.zeros(n_actions(self.st.kind.shape[0], self.st.ent.shape[0]), np.bool_)
        _advance(self.st, self.S)

    # -- the engine interface ---------------------------------------------------------------
    @property
    def current(self) -> int:
        """The entity whose decision it is (-1 when the game is over)."""
        return int(self.st.game.cur)

    @property
    def terminal(self) -> bool:
        return bool(self.st.game.over)

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

    def result(self) -> Result:
        g = self.st.game
        return Result(int(g.winner), L.REASON_NAMES[int(g.reason)], int(g.rotation),
                      int(g.deaths), int(g.apoc), int(g.decisions))

    # -- reading ----------------------------------------------------------------------------
    @property
    def n_actions(self) -> int:
        return self._mask.size

    # -- actions by name (actions.py's codec, sized for this game) ----------------------------
    def _sizes(self) -> tuple[int, int]:
        return self.st.kind.shape[0], self.st.ent.shape[0]

    def action(self, kind: str, target: int = -1, slot: int = -1) -> int:
        """The action number of ``kind`` (``actions.KINDS``) on ``target``, held item ``slot``."""
        return encode(kind, *self._sizes(), int(target), int(slot))

    def decode(self, action: int) -> Action:
        return decode_action(int(action), *self._sizes())

    def block(self, kind: str) -> slice:
        """Every action of ``kind`` as a slice of :meth:`legal_mask`."""
        return block(kind, *self._sizes())

    def action_to_string(self, action: int, labels=None) -> str:
        return action_to_string(int(action), *self._sizes(), labels)

    def event_rows(self) -> np.ndarray:
        return self.st.ev[: int(self.st.game.nev)].copy()

    def named_events(self, *kinds: str, since: int = 0) -> list[dict]:
        """The log from event ``since`` on, each event by its fields' names
        (``events.named``: ``ev["defender"]``), only those of the ``kinds`` given ("attack")."""
        unknown = set(kinds) - EVENT_NAMES
        if unknown:
            raise ValueError(f"no event kind {sorted(unknown)}; the kinds: {sorted(EVENT_NAMES)}")
        out = named(self.event_rows()[since:])
        return [ev for ev in out if ev["event"] in kinds] if kinds else out

    def labels(self, card_names, cpu_names, entities=None) -> list[str]:
        """A readable name per entity: "Luffy (T1)", "Coyote (CPU)", and for the special
        entities (sim/engine/entities/special.py) "Quill Duelist minion (T2)", "Mystery Machine
        (vehicle)" — vehicle and assist names from ``entities`` (the catalogue's
        ``EntityCatalogue``; by default numbered)."""
        out, k = [], 0
        for e in range(self.st.ent.shape[0]):
            if self.st.ent.is_cpu[e]:
                out.append(f"{cpu_names[k]} (CPU)")
                k += 1
            else:
                out.append(entity_label(self.st.ent[e], card_names, entities))
        return out

    def events(self, card_names, cpu_names, entities=None) -> list[dict]:
        return decode(self.event_rows(), self.labels(card_names, cpu_names, entities),
                      self.setup.apocalypses.names)
