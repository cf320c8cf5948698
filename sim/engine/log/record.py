"""One logged game from names to JSON lines: what ``bwlab play --log`` writes and the golden
traces in ``tests/golden`` pin."""

from __future__ import annotations

import numpy as np

from sim.board.generate import generate_board

from sim.engine.log.events import decode, to_jsonl
from sim.engine.game import Game
from sim.engine.state.new_game import card_arrays
from sim.engine.state.static_tables import build_setup, load_game_data


def new_game(catalogue, team_cards, seed: int, *, apocalypse: int = -1, log: bool = True,
             ev_cap: int = 200_000) -> Game:
    """The game of ``seed``: board ``generate_board(seed)``, dice from child 0 of
    ``SeedSequence(seed)``."""
    game_rules, apocalypses = load_game_data(catalogue.root)
    board = generate_board(catalogue.tiles, catalogue.board_rules, seed)
    setup = build_setup(catalogue, board, game_rules, apocalypses)
    return Game(setup, card_arrays(catalogue.cards), team_cards, seed, apocalypse=apocalypse,
                log=log, ev_cap=ev_cap)


def game_jsonl(game: Game, catalogue, team_names, team_cards, policies, seed: int) -> str:
    """The header line (who plays, with what) and every event with its rule."""
    labels = game.labels(catalogue.cards.names, game.setup.cpu_names, catalogue.entities)
    apocs = game.setup.apocalypses.names
    header = {"event": "game", "seed": seed, "teams": list(map(str, team_names)),
              "cards": [[catalogue.cards.names[c] for c in row] for row in np.asarray(team_cards)],
              "policies": list(policies), "apocalypse": apocs[int(game.st.game.apoc)],
              "labels": labels, "text": "a game of Board Wars",
              "rule": "Each game of Board Wars is played with 4 teams, each composed of 5 "
                      "Character Cards"}
    items = catalogue.items.names if catalogue.items is not None else ()
    return to_jsonl([header] + decode(game.event_rows(), labels, apocs, items,
                                      catalogue.tiles))
