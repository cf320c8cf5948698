"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt) that the suite
checked only in part, pinned through the engine (line numbers are the book's)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.board.geometry import local_space
from sim.catalogue.tile_layout import FLOOR
from sim.combat.star import BASE, BLUE, GREEN
from sim.engine.rules.attack import _attack_star
from sim.engine.state import fields as L
from sim.engine.tiles.swap_in_play import _transform
from tests import test_engine_tiles as tiles
from tests import test_engine_water as water
from tests._engine_kit import CATALOGUE


def test_being_submerged_deals_no_damage():
    """l.348: "Being submerged deals no damage. What it costs is freedom"; l.346 "A submerged
    character is stuck in the water and remains there until they succeed on a water-roll". A
    failed water-roll submerges the character on its space with its health and shield as they
    were, and failing the escape again costs nothing either."""
    game, c = water.water_game()
    s, t = water.beside_water(game)
    water.put(game, c, s)
    ent = game.st.ent
    ent.shield[c] = 5
    health = int(ent.health[c])
    with water.rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water.water_action(game, t))
        assert ent.submerged[c] == 1 and ent.space[c] == s
        assert ent.health[c] == health and ent.shield[c] == 5
        escape = [int(a) for a in game.legal_actions() if a != L.END]
        assert escape  # the fresh streak (it costs the action) is the only way out
        game.apply(escape[0])  # fails again: still stuck, still unharmed
    assert ent.submerged[c] == 1 and ent.space[c] == s
    assert ent.health[c] == health and ent.shield[c] == 5
    assert not [ev for ev in game.named_events("damage") if ev["defender"] == c]


def _place(game, e, p, suit_name):
    """``e`` on the middle space of position ``p`` with suit ``suit_name``, unhurt and with no
    state: its star follows homefield alone."""
    ent = game.st.ent
    ent.space[e] = tiles.middle(p)
    ent.suit[e] = CATALOGUE.rules.suits.index(suit_name)
    ent.health[e] = ent.max_health[e]
    ent.buff[e] = ent.debuff[e] = 0


@pytest.mark.parametrize("attacker_in, defender_in, defender_suit, colour", [
    ("Manga Cafe", "uncovered", "Manga", GREEN),        # only the attacker holds it
    ("uncovered", "Manga Cafe", "Manga", BLUE),         # only the defender holds it
    ("uncovered", "Manga Cafe", "Internet", BASE),      # the target's tile is not the attacker's
    ("Manga Cafe", "Firewall", "Internet", BASE),       # both hold it, in two tiles: they cancel
    ("Firewall", "Manga Cafe", "Internet", BASE),       # neither holds it in its own tile
])
def test_each_side_draws_homefield_from_its_own_tile(attacker_in, defender_in, defender_suit,
                                                     colour):
    """l.150: "Each character draws homefield advantage from their own tile, not from the tile
    the attack is aimed at. When an attacker and a defender stand in two different tiles, both
    are checked against their own tile, and either, both, or neither may hold the advantage";
    l.152 "If only the attacker holds it, they attack with green. If only the defender holds it,
    the attacker is cursed to attack with blue. If both hold it, the two cancel out". The
    attacker's suit is Manga (the Manga Cafe's); each side stands in a real tile of the board,
    and the engine's attack star (``attack._attack_star``) is read."""
    game, c = tiles.game_on()
    d = tiles.enemy_of(game, c)
    at = {"uncovered": tiles.uncovered_at()}
    pos = lambda name: at[name] if name in at else tiles.where(name)  # noqa: E731
    assert pos(attacker_in) != pos(defender_in)
    _place(game, c, pos(attacker_in), "Manga")
    _place(game, d, pos(defender_in), defender_suit)
    assert _attack_star(game.st, game.S, c, d) == colour


@pytest.mark.parametrize("batch", [0, 1])
def test_a_5x5_folds_into_a_3x3_every_space(batch):
    """l.307-309: "A 5×5 becoming a 3×3 folds inward instead. The larger tile divides into nine
    regions laid out exactly like the smaller tile, and everything standing in a region moves to
    the single space that region corresponds to. The middle space goes to the middle space of
    the 3×3. Each 2×2 corner block goes to the one-space corner nearest it. The spaces running
    along the edges between those corners go to the edge spaces of the 3×3." All 25 spaces of
    Tokyo Rooftops (5×5), in two batches of characters, land where the book's regions say when it
    is transformed into the Firewall (3×3, every space floor); the regions are written out here,
    not taken from the engine."""
    region = (0, 0, 1, 2, 2)  # a 5×5 row or column -> the 3×3 row or column its region is
    game, c = tiles.game_on()
    st, ent = game.st, game.st.ent
    p, firewall = tiles.where("Tokyo Rooftops"), tiles.TILES.find("Firewall")
    _transform(st, game.S, tiles.where("Firewall"), tiles.TILES.uncovered, c)  # out of play
    chars = np.flatnonzero(ent.kind == L.K_CHARACTER)
    cells = [(i, j) for i in range(5) for j in range(5)][batch * 13:(batch + 1) * 13]
    movers = chars[:len(cells)]
    for e, (i, j) in zip(movers, cells):
        ent.space[e] = tiles.space("Tokyo Rooftops", i, j)
    _transform(st, game.S, p, firewall, c)
    for e, (i, j) in zip(movers, cells):
        want = local_space(divmod(p, 7), region[i], region[j], 3)
        assert st.kind[want] == FLOOR
        assert ent.space[e] == want, ((i, j), int(ent.space[e]), want)
