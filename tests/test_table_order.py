"""The row order of a data file changes no result: the catalogue puts every table the engine or
a runner draws from or iterates in name order when it loads it (docs/architecture.md, "Tables in
name order").

The engine draws by index: a summon's "random 6th character card" (characters.csv), a random item
reward (items.csv), the board's tiles and a transform's tile (tiles.toml ``[[tiles]]``), the
game's Apocalypse (``[[apocalypses]]``), and it creates the vehicles one by one
(``[[vehicles]]``). Here each of those files is reversed in a copy of cards/ (and all of them at
once) and the same fixed-seed games with the same teams (named, so resolved against each
catalogue) must give the same logs byte for byte, and the same seed the same board; every row
must keep the file's own line for the messages that name it.
"""

from __future__ import annotations

import json
import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from sim.ai.play import play_game
from sim.board.generate import generate_board
from sim.catalogue.apocalypses import load_apocalypses
from sim.catalogue.diagnostics import InputError
from sim.catalogue.loader import load_catalogue
from sim.catalogue.teams import load_teams
from sim.engine.log.record import game_jsonl, new_game
from sim.engine.state import fields as L
from tests._engine_kit import fresh_cards

ROOT = Path(__file__).resolve().parents[1]
TEAMS_FILE = ROOT / "experiments" / "teams" / "example.toml"
# (file, the [[table]] reversed; None: a CSV's rows)
TABLES = {"characters": ("characters.csv", None), "items": ("items.csv", None),
          "tiles": ("tiles.toml", "tiles"), "apocalypses": ("apocalypses.toml", "apocalypses"),
          "vehicles": ("vehicles.toml", "vehicles")}
SEEDS = (1, 2, 5)
POLICIES = ("greedy", "greedy", "random", "greedy")


def reverse_csv(text: str) -> str:
    """The rows of a CSV (one record a line) in reverse order, the header first."""
    lines = text.splitlines(keepends=True)
    body = [line if line.endswith("\n") else line + "\n" for line in lines[1:] if line.strip()]
    return lines[0] + "".join(reversed(body))


def reverse_toml(text: str, table: str) -> str:
    """The ``[[table]]`` entries of a TOML file in reverse order: an entry runs from its header to
    the next one (its sub-tables ``[table.x]`` and trailing comments with it); what comes before
    the first stays first. The entries must be the file's last tables."""
    head = re.compile(rf"^\[\[{table}\]\]\s*$", re.M)
    starts = [m.start() for m in head.finditer(text)]
    assert len(starts) >= 2, (table, "needs two entries to reverse")
    entries = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
    entries = [e if e.endswith("\n") else e + "\n" for e in entries]
    assert not re.search(r"^\[(?!\[?" + table + r"[.\]])", "".join(entries), re.M), \
        f"a table other than [[{table}]] follows its entries"
    return text[: starts[0]] + "".join(reversed(entries))


@lru_cache(maxsize=None)
def folder(which: str) -> Path:
    """A copy of cards/ with the table(s) ``which`` reversed ("all": every one of them)."""
    out = fresh_cards()  # a copy of its own: it is written (tests/_engine_kit.py)
    for name in (TABLES if which == "all" else (which,)):
        file, table = TABLES[name]
        text = (out / file).read_text(encoding="utf-8")
        assert text == (ROOT / "cards" / file).read_text(encoding="utf-8"), "not a fresh copy"
        (out / file).write_text(reverse_csv(text) if table is None else reverse_toml(text, table),
                                encoding="utf-8")
    return out


@lru_cache(maxsize=None)
def catalogue(which: str):
    return load_catalogue(ROOT / "cards" if which == "shipped" else folder(which))


@lru_cache(maxsize=None)
def logs(which: str) -> tuple[str, ...]:
    """The fixed-seed games' logs on the catalogue ``which`` (the example teams, by name)."""
    cat = catalogue(which)
    teams = load_teams(TEAMS_FILE, cat.cards)
    out = []
    for seed in SEEDS:
        game = new_game(cat, teams.cards, seed)
        play_game(game, [L.POLICY_IDS[p] for p in POLICIES])
        out.append(game_jsonl(game, cat, teams.names, teams.cards, POLICIES, seed))
    return tuple(out)


def _names_in(path: Path, which: str) -> list[str]:
    """The entries' names in the file's own order."""
    file, table = TABLES[which]
    text = (path / file).read_text(encoding="utf-8")
    if table is None:
        return [line.split(",")[0] for line in text.splitlines()[1:] if line.strip()]
    return re.findall(rf'^\[\[{table}\]\]\s*\n(?:#.*\n|\s*\n)*name\s*=\s*"([^"]+)"', text, re.M)


def _names(cat, which: str) -> tuple[str, ...]:
    if which == "characters":
        return cat.cards.names
    if which == "items":
        return cat.items.names
    if which == "tiles":
        return cat.tiles.names
    if which == "apocalypses":
        return load_apocalypses(cat.root).names
    return cat.entities.vehicle_names


@pytest.mark.parametrize("which", sorted(TABLES))
def test_the_file_really_moved_and_the_table_did_not(which):
    shipped, moved = _names_in(ROOT / "cards", which), _names_in(folder(which), which)
    assert len(shipped) >= 2 and moved == shipped[::-1]
    names = _names(catalogue("shipped"), which)
    assert names == _names(catalogue(which), which)
    assert sorted(names) == sorted(shipped)
    assert list(names) == sorted(names, key=lambda n: (n.casefold(), n))


def _line_of(path: Path, file: str, needle: str) -> int:
    lines = (path / file).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if needle(line))


def test_every_row_keeps_its_own_line_in_the_file():
    """A message about a row names the file's line of that row, whatever the file's order."""
    for which in ("shipped", "all"):
        cat = catalogue(which)
        root = cat.root
        for c, name in enumerate(cat.cards.names):
            assert cat.cards.lines[c] == _line_of(root, "characters.csv",
                                                  lambda line: line.split(",")[0] == name)
        for k, name in enumerate(cat.items.names):
            assert cat.items.lines[k] == _line_of(root, "items.csv",
                                                  lambda line: line.split(",")[0] == name)
        for t, name in enumerate(cat.tiles.names):
            # a tile's line is its [[tiles]] header: the name follows it
            assert f'name = "{name}"' in (root / "tiles.toml").read_text().splitlines()[
                cat.tiles.lines[t]], (which, name)
            for kind, key in enumerate(("reward", "interactable")):
                line = cat.tiles.fx_lines[2 * t + kind]
                if line:
                    assert (root / "tiles.toml").read_text().splitlines()[line - 1].strip() \
                        == f"[tiles.{key}]"
                    assert line > cat.tiles.lines[t]
        apocalypses = load_apocalypses(root)
        text = (root / "apocalypses.toml").read_text().splitlines()
        for a, name in enumerate(apocalypses.names):
            assert f'name = "{name}"' in text[apocalypses.lines[a]]


def test_a_message_names_the_moved_row_line(tmp_path):
    """A tile function naming an unknown item: the message names its ``item`` key's line in the
    reordered file (the tile functions' item names are resolved after the tiles are sorted; the
    table's header line until the content audit of stop 79)."""
    cards = tmp_path / "cards"
    shutil.copytree(folder("all"), cards)
    text = (cards / "tiles.toml").read_text(encoding="utf-8")
    assert 'effect = "item"' in text
    broken = text.replace('effect = "item"', 'effect = "item"\nitem = "No Such Item"', 1)
    (cards / "tiles.toml").write_text(broken, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_catalogue(cards)
    [problem] = [p for p in err.value.problems if "No Such Item" in p.message]
    lines = broken.splitlines()
    assert lines[problem.line - 1].strip() == 'item = "No Such Item"'
    assert problem.field in ("tiles.reward.item", "tiles.interactable.item"), problem


@pytest.mark.parametrize("seed", range(6))
def test_a_seed_lays_out_the_same_board(seed):
    def board(which):
        cat = catalogue(which)
        b = generate_board(cat.tiles, cat.board_rules, seed)
        return [[cat.tiles.names[t] if t >= 0 else int(t) for t in row] for row in b.tiles], \
            b.portals.tolist()
    assert board("shipped") == board("tiles") == board("all")


def test_the_games_draw_what_the_tables_are_checked_for():
    """The fixed games below exercise every draw: summons, random items, transforms or a varied
    board, an Apocalypse, vehicles."""
    text = "".join(logs("shipped"))
    assert "summoned" in text and "(vehicle)" in text
    assert '"item gained"' in text and '"apocalypse begins"' in text
    apocs = {line.split('"apocalypse": "')[1].split('"')[0] for line in logs("shipped")}
    assert len(apocs) >= 2, apocs


@pytest.mark.parametrize("which", sorted(TABLES) + ["all"])
def test_a_reordered_file_plays_the_same_games(which):
    for seed, want, got in zip(SEEDS, logs("shipped"), logs(which)):
        if want != got:
            a, b = want.splitlines(), got.splitlines()
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            x, y = (json.loads(e[first]) if first < len(e) else {} for e in (a, b))
            keys = [k for k in dict.fromkeys([*x, *y]) if x.get(k) != y.get(k)]
            shown = "\n".join(f"  {k}: {str(x.get(k))[:200]!s}\n  {'':{len(k)}}  "
                              f"{str(y.get(k))[:200]!s}" for k in keys[:3])
            pytest.fail(f"seed {seed}, {which} reversed: the logs differ from event {first} "
                        f"({x.get('event', '(end)')}), shipped then reversed:\n{shown}")


def test_a_team_files_member_order_plays_the_same_games(tmp_path):
    """A team is a set of cards: the members of each team of experiments/teams/example.toml
    listed in reverse play the same games (sim.catalogue.teams puts them in name order). Found
    by the stop-56 audit: characters are placed and ties broken member by member, so the
    reversed file played other games for every seed (all 64 of a smoke run). The teams' own
    order stays the seats' and still matters."""
    text = TEAMS_FILE.read_text(encoding="utf-8")
    lists = re.findall(r"^cards\s*=\s*\[(.*)\]\s*$", text, re.M)
    assert len(lists) == 4
    for members in lists:
        names = [m.strip() for m in members.split(",")]
        text = text.replace(members, ", ".join(names[::-1]))
    reversed_file = tmp_path / "teams.toml"
    reversed_file.write_text(text, encoding="utf-8")
    cat = catalogue("shipped")
    a, b = load_teams(TEAMS_FILE, cat.cards), load_teams(reversed_file, cat.cards)
    assert (a.cards == b.cards).all() and a.names == b.names
    assert all(list(row) == sorted(row) for row in a.cards)
    for seed, want in zip(SEEDS, logs("shipped")):
        game = new_game(cat, b.cards, seed)
        play_game(game, [L.POLICY_IDS[p] for p in POLICIES])
        assert game_jsonl(game, cat, b.names, b.cards, POLICIES, seed) == want, seed


def test_a_game_log_names_tiles_from_its_own_catalogue():
    """The log's sentences name a tile by the game's own catalogue: they took the shipped
    catalogue's names (sim/engine/log/tile_events.py, until stop 56), so a game played with
    another card folder named the shipped tile of the same index. Here every tile is renamed
    ("X" -> "X (custom)"; name order unchanged) and each tile event's sentence must name its
    tile's new name."""
    out = fresh_cards()
    names = _names_in(out, "tiles")
    for path in out.glob("*.toml"):  # the tiles and every table naming one (vehicles...)
        text = path.read_text(encoding="utf-8")
        for name in names:
            text = text.replace(f'"{name}"', f'"{name} (custom)"')
        path.write_text(text, encoding="utf-8")
    cat = load_catalogue(out)
    assert all(n.endswith(" (custom)") for n in cat.tiles.names)
    teams = load_teams(TEAMS_FILE, cat.cards)
    seen = 0
    for seed in SEEDS:
        game = new_game(cat, teams.cards, seed)
        play_game(game, [L.POLICY_IDS[p] for p in POLICIES])
        for ev in map(json.loads, game_jsonl(game, cat, teams.names, teams.cards, POLICIES,
                                             seed).splitlines()):
            if "tile" in ev and ev["event"] in ("ticks", "tile reward", "interactable"):
                assert cat.tiles.names[ev["tile"]] in ev["text"], ev
                seen += 1
    assert seen > 0


ACE = ('[[assists]]\nname = "Ace Helper"\nhealth = 40\nspeed = 3\nrange = 1\ndefense = 2\n'
       'attacks = 2\ntier = 1\n')


def test_an_assist_is_named_and_the_assists_file_order_moves_nothing(tmp_path):
    """cards/assists.toml with a second assist after Sidekick, and the same two entries
    reversed: one table in name order, and the Jurassic Paddock's reward (``assist =
    "Sidekick"``) grants Sidekick in both. When a tile gave the assist's number in its file,
    adding "Ace Helper" before Sidekick silently gave every such tile another assist."""
    import numpy as np

    from sim.engine.tiles.fx_table import tile_table

    cats = []
    for k, order in enumerate((lambda t: t, lambda t: reverse_toml(t, "assists"))):
        cards = tmp_path / f"cards{k}"
        shutil.copytree(ROOT / "cards", cards)
        text = (cards / "assists.toml").read_text(encoding="utf-8")
        (cards / "assists.toml").write_text(order(text.rstrip("\n") + "\n\n" + ACE),
                                            encoding="utf-8")
        cats.append(load_catalogue(cards))
    texts = [(tmp_path / f"cards{k}" / "assists.toml").read_text() for k in (0, 1)]
    assert texts[0].index('name = "Sidekick"') < texts[0].index('name = "Ace Helper"')
    assert texts[1].index('name = "Ace Helper"') < texts[1].index('name = "Sidekick"')
    a, b = (c.entities for c in cats)
    assert a.assist_names == b.assist_names == ("Ace Helper", "Sidekick")
    assert np.array_equal(a.assists, b.assists)
    paddock = cats[0].tiles.find("Jurassic Paddock")
    rows = [tile_table(c)[2 * paddock] for c in cats]
    assert np.array_equal(rows[0], rows[1])
    assert rows[0][L.FX_OP] == L.OP_TILE_ASSIST and rows[0][L.FX_AMOUNT] == 1  # Sidekick
