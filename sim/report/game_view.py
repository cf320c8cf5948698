"""Views (:class:`sim.report.board_view.View`) of a laid-out board and of a game in play.

Why from the state arrays: a picture of a game must show what the engine holds — the tile at
each position after swaps (``tiles.tile``), the linked portal spaces (``twin``), the
coordinates announced or void (``pos_state``), each entity's space and health (``ent``) — not a
second reading of the rules. Where a character died is not kept in ``ent`` (its space is cleared),
so it is read from the log's death events when the game logs.
"""

from __future__ import annotations

import numpy as np

from sim.board.geometry import VOID, Board, portal_spaces
from sim.catalogue.board_rules import GRID
from sim.engine.state import fields as L

from .board_view import VEHICLE_COLOUR, Piece, View

KIND_MARK = {L.K_MINION: "·m", L.K_CLONE: "·c", L.K_SUMMONED: "·s", L.K_ASSIST: "·a"}


def view_from_board(board: Board, catalogue, title: str = "") -> View:
    """A laid-out board before play: tiles, portals, spawns; the team key names the spawns."""
    return View(tiles=board.tiles, spawns=board.spawns, portals=portal_spaces(board, catalogue),
                teams=[f"Team {k + 1} spawn" for k in range(len(board.spawns))], title=title)


def short_names(labels: list[str], kinds=None) -> list[str]:
    """A name of at most 8 characters per entity label, unique within its team: the card's
    first word ("Luffy", "Thunder"), numbered when two share it ("Toon1", "Toon2"), with a mark
    for minions, clones, summoned cards and assists."""
    base = []
    for k, label in enumerate(labels):
        name = label.rsplit(" (", 1)[0]
        for word in (" minion", " clone"):
            name = name.removesuffix(word)
        first = name.split()[0] if name.split() else "?"
        mark = KIND_MARK.get(int(kinds[k]), "") if kinds is not None else ""
        base.append((first[:8 - len(mark)], mark, label.rsplit(" (", 1)[-1]))
    out = []
    for k, (word, mark, group) in enumerate(base):
        same = [i for i, b in enumerate(base) if b == (word, mark, group)]
        n = f"{same.index(k) + 1}" if len(same) > 1 else ""
        out.append(word[:8 - len(mark) - len(n)] + n + mark)
    return out


def view_from_game(game, labels: list[str], teams: list[str], deaths: dict[int, int],
                   title: str = "", headline: str = "", events=()) -> View:
    """The game as it stands: ``labels`` from ``Game.labels``; ``deaths`` maps each dead entity
    to the space it died on (a cross is drawn there)."""
    st = game.st
    tiles = st.tiles.tile.reshape(GRID, GRID).copy()
    # a destroyed coordinate keeps its tile in ``tiles.tile`` (the catalogue row it was); the
    # picture shows what the board holds there now: "a void"
    tiles[(st.pos_state == L.VOIDED).reshape(GRID, GRID)] = VOID
    announced = (st.pos_state == L.ANNOUNCED).reshape(GRID, GRID)
    twin = st.twin
    portals = [(int(s), int(twin[s])) for s in np.flatnonzero(twin >= 0) if s < twin[s]]
    ent = st.ent
    shorts = short_names(labels, ent.kind)
    pieces = []
    for e in range(ent.shape[0]):
        kind, alive = int(ent.kind[e]), bool(ent.alive[e])
        character = kind == L.K_CHARACTER or (kind == L.K_SUMMONED and not ent.dormant[e])
        if alive and not ent.dormant[e] and ent.space[e] >= 0:
            space = int(ent.space[e])
        elif not alive and e in deaths:
            space = deaths[e]
        elif character and not alive:
            space = -1
        else:
            continue
        team = -1 if ent.is_cpu[e] else int(ent.team[e])
        colour = VEHICLE_COLOUR if kind == L.K_VEHICLE and team < 0 else ""
        pieces.append(Piece(labels[e], shorts[e], team, space, int(ent.health[e]),
                            int(ent.max_health[e]), alive, character, colour))
    return View(tiles=tiles, spawns=game.setup.board.spawns, portals=portals, announced=announced,
                pieces=pieces, teams=teams, title=title, headline=headline, events=list(events),
                revealed=bool(st.game.revealed))

