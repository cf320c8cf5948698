"""Regenerate the golden game logs: ``python -m tests.regen_golden`` (the golden test itself never
rewrites them). Do it only after a deliberate rules change, and read the diff."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.ai.play import play_game
from sim.catalogue.teams import random_teams
from sim.engine.state import fields as L
from sim.engine.log.record import game_jsonl, new_game
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS

GOLDEN = Path(__file__).resolve().parent / "golden"
# name -> (seed, policies, example teams?)
CASES = {
    "example_seed1_greedy": (1, ("greedy",) * 4, True),
    "random_seed2_mixed": (2, ("greedy", "random", "random", "random"), False),
    # an Apocalypse that destroys coordinates (The Collapse): seeds 1 and 2 draw The Great Flood
    "example_seed3_greedy": (3, ("greedy",) * 4, True),
}


def trace(name: str) -> str:
    seed, policies, example = CASES[name]
    if example:
        names, cards = EXAMPLE_TEAMS.names, EXAMPLE_TEAMS.cards
    else:
        names = tuple(f"Team {t + 1}" for t in range(4))
        cards = random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))
    game = new_game(CATALOGUE, cards, seed)
    play_game(game, [L.POLICY_IDS[p] for p in policies])
    return game_jsonl(game, CATALOGUE, names, cards, policies, seed)


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name in CASES:
        path = GOLDEN / f"{name}.jsonl"
        path.write_text(trace(name), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
