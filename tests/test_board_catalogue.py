"""Tile catalogue, board rules, board generation, water-rolls and the ``bwlab board`` command."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests._board_kit import BOARD_RULES, RULES, TILES
from sim.board.generate import generate_board, render_text
from sim.board.geometry import APOCALYPSE, layers_grid
from sim.board.graph import ROLL_FIRE_WALL, ROLL_WATER_WALL
from sim.board.water import cross_wall, p_streak_at_least, streak_length, water_roll
from sim.catalogue.diagnostics import InputError
from sim.catalogue.loader import load_catalogue
from sim.cli.main import main

CARDS = Path(__file__).resolve().parents[1] / "cards"


def test_catalogue_covers_every_suit_and_size():
    """"There are 12 different Suits that a card or a tile could possess"; sizes 1×1, 3×3, 5×5."""
    league = [k for k in range(len(TILES)) if k != TILES.uncovered]
    assert len(league) >= 24
    assert set(TILES.suit[league].tolist()) == set(range(len(RULES.suits)))
    assert set(TILES.size.tolist()) == {1, 3, 5}
    assert TILES.suit[TILES.uncovered] == -1 and TILES.doorways[TILES.uncovered].all()


def test_validate_reports_tiles(capsys):
    """Every [[tiles]] entry of tiles.toml is in the catalogue, and validate counts them."""
    import tomllib

    from sim.cli.main import main

    entries = tomllib.loads((CARDS / "tiles.toml").read_text(encoding="utf-8"))["tiles"]
    tiles = load_catalogue(CARDS).tiles
    assert len(tiles) == len(entries) and set(tiles.names) == {t["name"] for t in entries}
    assert main(["validate", str(CARDS)]) == 0
    assert f"{len(entries)} tiles" in capsys.readouterr().out


def _broken(tmp_path, old, new, file="tiles.toml"):
    d = tmp_path / "cards"
    shutil.copytree(CARDS, d)
    text = (d / file).read_text(encoding="utf-8")
    assert old in text
    (d / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_catalogue(d)
    return [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("old,new,field,words", [
    ('suit = "Anime"', 'suit = "Anmie"', "tiles.suit", "did you mean Anime"),
    ("size = 3", "size = 4", "tiles.size", "choose from 1, 3, 5"),
    ("layers = [1, 2]", "layers = [1, 9]", "tiles.layers", "unknown layer 9"),
    ('doorways = ["E", "W"]', 'doorways = ["E", "X"]', "tiles.doorways", "unknown side"),
    ('"  |  ",', '"  |   ",', "tiles.layout", "expected 5 characters"),
    ("ticks = 3", "ticks = 0", "tiles.reward.ticks", "out of range"),
    ("tier = 3", "tier = 7", "tiles.cpu.tier", "out of range"),
    ("uncovered = true\nsize", "uncovered = false\nsize", "tiles", "exactly one tile with uncovered"),
    # book, Uncovered Tile: "It does have doorways — they are simply invisible" (every side)
    ('uncovered = true\nsize = 1\nlayers = [1, 2, 3, 4]\ndoorways = ["N", "E", "S", "W"]',
     'uncovered = true\nsize = 1\nlayers = [1, 2, 3, 4]\ndoorways = ["N", "E", "S"]',
     "tiles.doorways", "connects on every side"),
])
def test_tile_problems_name_file_line_and_field(tmp_path, old, new, field, words):
    problems = _broken(tmp_path, old, new)
    hit = [p for p in problems if f": {field}: " in p and words in p]
    assert hit, problems
    assert hit[0].split(":")[0].endswith("tiles.toml") and hit[0].split(":")[1].isdigit()


@pytest.mark.parametrize("old,new,field", [
    ('doorway = "middle"', 'doorway = "centre"', "board.doorway"),
    ("water_success_min = 4", "water_success_min = 9", "board.water_success_min"),
    ("[[6, 2], [6, 3], [6, 4]]", "[[5, 2], [6, 3], [6, 4]]", "board.team_spawns"),
])
def test_board_rule_problems(tmp_path, old, new, field):
    problems = _broken(tmp_path, old, new, file="rules.toml")
    assert any(f": {field}: " in p and "rules.toml:" in p for p in problems), problems


# --- Board generation -------------------------------------------------------------------------

def test_the_board_has_four_concentric_spawn_layers():
    """"The board is segmented into 4 Spawn Layers": the centre tile is layer 1 and each ring
    around it the next, so the 7×7 grid holds 1, 8, 16 and 24 positions of layers 1 to 4."""
    layers = layers_grid()
    assert layers.shape == (7, 7)
    assert np.bincount(layers.ravel()).tolist() == [0, 1, 8, 16, 24]
    assert layers[3, 3] == 1 and layers[2, 4] == 2 and layers[0, 0] == layers[6, 3] == 4


@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_generated_board_is_legal(seed):
    """Tiles only in their layers ("Every tile in the game has assigned layers"), one face-down
    Apocalypse in layer 2, spawns are Uncovered Tiles, each league tile at most once."""
    b = generate_board(TILES, BOARD_RULES, seed)
    layers = layers_grid()
    assert b.tiles.shape == (7, 7)  # "the league-approved 7×7 (49) square grid"
    assert (b.tiles >= 0).sum() == 48  # every position a tile, but the Apocalypse's
    assert (b.tiles == APOCALYPSE).sum() == 1
    assert layers[b.tiles == APOCALYPSE][0] == 2
    for r in range(7):
        for c in range(7):
            t = b.tiles[r, c]
            if t >= 0:
                assert TILES.layers[t, layers[r, c] - 1]
    for team in b.spawns:
        for r, c in team:
            assert b.tiles[r, c] == TILES.uncovered
    league = b.tiles[(b.tiles >= 0) & (b.tiles != TILES.uncovered)]
    assert len(set(league.tolist())) == league.size


def test_same_seed_same_board():
    a, b = generate_board(TILES, BOARD_RULES, 42), generate_board(TILES, BOARD_RULES, 42)
    assert np.array_equal(a.tiles, b.tiles) and np.array_equal(a.portals, b.portals)
    assert render_text(a, TILES, RULES.suits) == render_text(b, TILES, RULES.suits)
    assert not np.array_equal(a.tiles, generate_board(TILES, BOARD_RULES, 43).tiles)


def test_cli_board_prints_and_draws(tmp_path, capsys):
    png = tmp_path / "board.png"
    assert main(["board", "--seed", "5", "--png", str(png), "--cards", str(CARDS)]) == 0
    out = capsys.readouterr().out
    assert "Apocalypse (face-down)" in out and "spawn of team 4" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name != "board.png"]  # no temp file left


def test_cli_board_bad_input_exits_2(tmp_path, capsys):
    assert main(["board"]) == 2
    assert main(["board", "--seed", "x"]) == 2
    assert main(["board", "--seed", "1", "--cards", str(tmp_path / "none")]) == 2


def test_cli_validate_mentions_tiles(capsys):
    assert main(["validate", str(CARDS)]) == 0
    assert "tiles" in capsys.readouterr().out


# --- Water-rolls ------------------------------------------------------------------------------

def test_water_roll_succeeds_on_4_to_6_of_a_d6():
    """"A water-roll is a D-6 roll where 1 to 3 is a fail and 4 to 6 is a success".

    Power against a success range off by one (5-6 or 3-6: p = 1/3 or 2/3): 20,000 rolls
    land within 0.02 of 1/2 with probability P(|Binom(20000, 1/3) / 20000 - 1/2| < 0.02) <
    1e-300, so power 1.0; a fair roll misses the window with probability 2 * Phi(-0.02 /
    0.0035) = 1e-8."""
    assert BOARD_RULES.water_success_p == 0.5
    rng = np.random.default_rng(np.random.SeedSequence(1))
    n = 20000
    hits = sum(water_roll(rng, BOARD_RULES) for _ in range(n))
    assert abs(hits / n - 0.5) < 0.02


def test_streak_ends_at_first_failure():
    """"The first failed roll ends that streak": streak length is geometric, P(>=k) = 1/2^k.

    Power against a streak that goes on after a failure (P(>=1) = 3/4, a second chance) or a
    success range off by one (1/3): 20,000 streaks put P(>=1) 0.17-0.25 from 1/2, 47-71 standard
    errors (0.0035), power 1.0."""
    rng = np.random.default_rng(np.random.SeedSequence(2))
    lengths = np.array([streak_length(rng, BOARD_RULES) for _ in range(20000)])
    for k in (1, 2, 3):
        assert abs((lengths >= k).mean() - p_streak_at_least(k, BOARD_RULES)) < 0.02


def test_failed_wall_rolls_never_submerge():
    """Water wall: "Failing that roll simply means you do not cross. It does not submerge you";
    fire wall: "If that water-roll fails, the character takes 50 damage. It does not submerge them"."""
    rng = np.random.default_rng(np.random.SeedSequence(3))
    water = [cross_wall(rng, BOARD_RULES, ROLL_WATER_WALL) for _ in range(200)]
    fire = [cross_wall(rng, BOARD_RULES, ROLL_FIRE_WALL) for _ in range(200)]
    assert not any(o.submerged for o in water + fire)
    assert all(o.damage == 0 for o in water)
    assert BOARD_RULES.fire_wall_damage == 50
    assert {o.damage for o in fire if not o.crossed} == {50}
    assert all(o.damage == 0 for o in fire if o.crossed)


def test_failed_water_roll_while_traversing_water_submerges():
    """"A character who fails a water-roll while traversing water is Submerged"; crossing water
    that needs k successes succeeds with probability (1/2)^k (binomial test, fixed seed), and
    "Freely Cross Water" makes every roll an automatic success.

    Power (4,000 crossings, two-sided exact binomial test at 1e-3 against 1/4): against a
    success range off by one (p^2 = 1/9 or 4/9) and against one roll instead of two (1/2):
    the test passes only for 911..1091 crossings (scipy's binomtest), which 444, 1,778 and 2,000
    expected crossings miss with probability < 1e-15: power 1.0 each."""
    from scipy import stats

    from sim.board.water import cross_water

    rng = np.random.default_rng(np.random.SeedSequence(4))
    n = 4000
    outcomes = [cross_water(rng, BOARD_RULES, 2) for _ in range(n)]
    assert all(o.crossed != o.submerged for o in outcomes)
    crossed = sum(o.crossed for o in outcomes)
    assert stats.binomtest(crossed, n, BOARD_RULES.water_success_p ** 2).pvalue > 1e-3
    assert all(o.rolls == 2 for o in outcomes if o.crossed)
    free = cross_water(rng, BOARD_RULES, 5, free_water=True)
    assert free.crossed and not free.submerged

