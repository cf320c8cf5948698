"""The same seed draws the same cards whatever the order of the rows of cards/characters.csv.

A designer who sorts the card sheet (by rarity, by suit) changes no card: the teams a pool
experiment draws (`bwlab run`, `rarity`, `power-levels`), the ladder's deals, `play`'s random
teams, `draft --random`'s pool and the budget validation's sets must name the same cards for the
same seed. Why they do: the catalogue puts the cards in name order when it loads them
(sim.catalogue.cards), so every draw by card index sees the same cards. The engine's own draws
(a summon's card, an item, the board's tiles, the Apocalypse, the vehicles):
tests/test_table_order.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue
from sim.catalogue import teams as team_draws
from sim.runner.experiment import load_experiment
from sim.runner.schedule import schedule

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ("random", "greedy")
POOL = """name = "drawn"
games = 64
root_seed = 424242
batch_size = 16
boards = 4
policies = ["greedy"]
seating = "duplicate"

[pool]
cards = {cards}
"""


def _reordered_cards(tmp_path: Path, key) -> Path:
    """A copy of cards/ whose characters.csv rows (header first) are reordered by ``key``."""
    folder = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", folder)
    lines = (folder / "characters.csv").read_text().splitlines(keepends=True)
    (folder / "characters.csv").write_text(lines[0] + "".join(sorted(lines[1:], key=key)))
    return folder


@pytest.fixture(scope="module")
def shipped():
    return load_catalogue(ROOT / "cards")


@pytest.fixture(params=["reversed", "by_rarity"])
def reordered(request, tmp_path):
    lines = (ROOT / "cards" / "characters.csv").read_text().splitlines(keepends=True)[1:]
    rank = {line: i for i, line in enumerate(lines)}
    key = ((lambda line: -rank[line]) if request.param == "reversed"
           else (lambda line: (line.split(",")[2], line)))
    catalogue = load_catalogue(_reordered_cards(tmp_path, key))
    return catalogue


def _names(catalogue, cards: np.ndarray) -> np.ndarray:
    return np.asarray(catalogue.cards.names, dtype=object)[cards]


def _pool_teams(catalogue, tmp_path: Path, cards: str) -> np.ndarray:
    path = tmp_path / f"drawn_{abs(hash(cards))}.toml"
    path.write_text(POOL.format(cards=cards))
    exp = load_experiment(path, catalogue.cards, POLICIES)
    return _names(catalogue, schedule(exp, 0, exp.games).team_cards)


def test_the_rows_really_moved_and_the_cards_did_not(shipped, reordered):
    assert shipped.cards.lines != reordered.cards.lines  # each card keeps its own row's line
    assert shipped.cards.names == reordered.cards.names  # in name order, whatever the rows'
    assert list(shipped.cards.names) == sorted(shipped.cards.names, key=lambda n: (n.casefold(), n))
    for field in ("suit", "rarity", "ability", "ability_params", "effects", "attacks", "tier",
                  "max_health"):
        assert (getattr(shipped.cards, field) == getattr(reordered.cards, field)).all(), field


@pytest.mark.parametrize("cards", ['"all"', None])
def test_pool_experiment_draws_the_same_cards(shipped, reordered, tmp_path, cards):
    if cards is None:  # a listed pool: the list's own order is shuffled too
        listed = list(shipped.cards.names[::2])
        cards = "[" + ", ".join(f'"{n}"' for n in listed) + "]"
        again = "[" + ", ".join(f'"{n}"' for n in reversed(listed)) + "]"
    else:
        again = cards
    before = _pool_teams(shipped, tmp_path, cards)
    after = _pool_teams(reordered, tmp_path, again)
    assert (before == after).all()


def test_random_teams_draw_the_same_cards(shipped, reordered):
    for seed in range(5):
        a = team_draws.random_teams(len(shipped.cards), np.random.default_rng(seed))
        b = team_draws.random_teams(len(reordered.cards), np.random.default_rng(seed))
        assert (_names(shipped, a) == _names(reordered, b)).all()
        assert len(set(a.ravel())) == 20


def test_ladder_deals_draw_the_same_cards(shipped, reordered):
    from sim.runner.ladder import deal_teams

    for deal in range(4):
        a = deal_teams(3, deal, len(shipped.cards))
        b = deal_teams(3, deal, len(reordered.cards))
        assert (_names(shipped, a) == _names(reordered, b)).all()


def test_budget_validation_sets_draw_the_same_cards(shipped, reordered):
    from sim.runner.budget import draw_sets

    def sets(catalogue):
        names = list(catalogue.cards.names)
        level = np.asarray([1 + (sum(map(ord, n)) % 4) for n in names], np.int64)  # by name
        spec = SimpleNamespace(seed=9, budget_built=0.5, order=(0, 1, 2, 3))
        teams, built = draw_sets(len(names), level, spec, 6, 10)
        return _names(catalogue, teams), built

    (a, built_a), (b, built_b) = sets(shipped), sets(reordered)
    assert (built_a == built_b).all() and built_a.any() and not built_a.all()
    assert (a == b).all()
