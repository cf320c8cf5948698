"""Load a whole card folder (rules, board rules, ability index, characters, tiles, items) once,
reporting every problem."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .abilities import AbilityIndex, load_abilities
from .board_rules import BoardRules, load_board_rules
from .cards import CardCatalogue, load_cards
from .diagnostics import InputError, Problem, Problems
from .items import ItemCatalogue, load_items
from .entities import EntityCatalogue, check_summon_counts, load_entities
from .rules import Rules, load_rules
from .tile_functions import check_assist_names, check_item_names
from .tiles import TileCatalogue, load_tiles
from .tomldoc import TomlDoc
from .variants import without_terrain_draft

RULES_FILE = "rules.toml"
ABILITIES_FILE = "abilities.toml"
CHARACTERS_FILE = "characters.csv"
TILES_FILE = "tiles.toml"


@dataclass(frozen=True)
class Catalogue:
    rules: Rules
    abilities: AbilityIndex
    cards: CardCatalogue
    root: Path
    tiles: TileCatalogue | None = None
    board_rules: BoardRules | None = None
    items: ItemCatalogue | None = None  # cards/item_types.toml + cards/items.csv
    entities: EntityCatalogue | None = None  # vehicles, assists, [entities] rulings


def default_cards_dir() -> Path:
    """``$BWLAB_CARDS``, else ``./cards`` when present, else the ``cards/`` shipped beside ``sim/``
    — said on stderr, once per process, since a run on cards the user did not mean is a silent
    wrong answer (issue #22); with none of them, InputError naming ``--cards`` and the variable."""
    env = os.environ.get("BWLAB_CARDS")
    if env:
        problem = card_folder_problem(Path(env))
        if problem:  # else one "not found" line per data file, none naming the variable
            raise InputError([Problem(env, None, "$BWLAB_CARDS", problem)])
        return Path(env)
    here = Path.cwd() / "cards"
    if (here / RULES_FILE).exists():
        return here
    shipped = Path(__file__).resolve().parents[2] / "cards"
    if not (shipped / RULES_FILE).exists():
        raise InputError([Problem(str(here), None, "cards", "no card folder here (and none "
                                  "installed): give --cards DIR or set $BWLAB_CARDS")])
    if not _ANNOUNCED:
        _ANNOUNCED.append(shipped)
        print(f"bwlab: no ./cards here; using {shipped} (give --cards DIR or set $BWLAB_CARDS "
              f"to choose)", file=sys.stderr)
    return shipped


_ANNOUNCED: list[Path] = []


def card_folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a card folder, or None (its files are checked by their
    loaders, each on its own line). A path the system refuses outright (a name too long) is a
    problem here, not an OSError."""
    if not str(path).strip():
        return "an empty path: name a folder"
    try:
        os.stat(path)  # not Path.exists(), which reads a loop of links as "absent"
    except FileNotFoundError:
        return "no such folder"
    except OSError as exc:
        return f"cannot be used: {exc.strerror or exc}"
    try:
        if not path.is_dir():
            return "is a file, not a folder"
        os.listdir(path)
    except OSError as exc:
        return f"cannot be used: {exc.strerror or exc}"
    return None


def load_rules_only(root: Path | None = None) -> Rules:
    root = Path(root) if root else default_cards_dir()
    problems = Problems()
    rules = load_rules(root / RULES_FILE, problems)
    problems.raise_if_any()
    return rules


def load_catalogue(root: Path | None = None, problems: Problems | None = None) -> Catalogue:
    """Parse and validate every file under ``root``; raises InputError listing every problem."""
    root = Path(root) if root else default_cards_dir()
    own = problems if problems is not None else Problems()
    rules = load_rules(root / RULES_FILE, own)
    abilities = load_abilities(root / ABILITIES_FILE, own,
                               rules.n_tiers if rules is not None else None)
    cards = None
    if rules is not None and abilities is not None:
        cards = load_cards(root / CHARACTERS_FILE, rules, abilities, own)
    board_rules, tiles = None, None
    if rules is not None:
        board_rules, tiles = load_board(root, rules, own)
    items = load_items(root, own)
    entities = load_entities(root, rules, abilities, tiles, own) if rules is not None else None
    if tiles is not None and items is not None:  # a tile function's named item (file:line)
        check_item_names(tiles, items.names, own)
    if tiles is not None and entities is not None:  # ... and its named assist character
        check_assist_names(tiles, entities.assist_names, own)
    if cards is not None and entities is not None:  # a summon beyond [entities] max_minions
        check_summon_counts(cards, entities, own)
    own.raise_if_any()
    return Catalogue(rules=rules, abilities=abilities, cards=cards, root=root, tiles=tiles,
                     board_rules=board_rules, items=items, entities=entities)


def load_board(root: Path, rules: Rules, problems: Problems
               ) -> tuple[BoardRules | None, TileCatalogue | None]:
    """The ``[board]`` and ``[variants]`` sections of rules.toml (read again, so rules.py stays
    as it is) and tiles.toml, read as the book reads them unless ``[variants] terrain_draft``
    is on (sim/catalogue/variants.py)."""
    doc = TomlDoc.load(Path(root) / RULES_FILE, problems)
    board_rules = load_board_rules(doc) if doc is not None else None
    tiles = load_tiles(Path(root) / TILES_FILE, rules, problems)
    if tiles is not None and board_rules is not None and not board_rules.terrain_draft:
        tiles = without_terrain_draft(tiles)
    return board_rules, tiles


def load_board_only(root: Path | None = None) -> tuple[Rules, BoardRules, TileCatalogue]:
    """Rules, board rules and tiles without the character cards (for ``bwlab board``)."""
    root = Path(root) if root else default_cards_dir()
    problems = Problems()
    rules = load_rules(root / RULES_FILE, problems)
    board_rules, tiles = (None, None)
    if rules is not None:
        board_rules, tiles = load_board(root, rules, problems)
    problems.raise_if_any()
    return rules, board_rules, tiles
