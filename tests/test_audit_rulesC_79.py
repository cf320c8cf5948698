"""Stop 79 rules audit (helper C): rule sentences of the rulebook's lines 176-441
(../shared/seeds/000_527084f8378d7355.txt: entities, death and revives, tiles, items, the end of
the game) the engine departed from, each checked in play now that it is fixed. (The audit's
second finding, the Apocalypse's count of deaths, is a recorded house ruling: docs/rulings.md
"Deaths and revives".)"""

from __future__ import annotations


from pathlib import Path

from sim.combat.star import GREEN
from sim.engine.log.events import decode
from sim.engine.rules.attack import _attack_star
from sim.engine.state import fields as L
from sim.engine.rules.turn import _begin_turn
from tests._engine_kit import events
from tests._tiles_kit import end_turn_of, enemy_of, floor_of, game_on, where

ROOT = Path(__file__).resolve().parents[1]


def test_a_buff_a_tile_gives_never_expires():
    """"All buffs a tile gives you are permanent. So is everything else a tile grants ... None of
    it expires" (l.281). Warp Zone's reward (Star Power-Up, a `buff`) earned by ending two turns
    there must still sit on the character turns later, and the log says so. (It expired as the
    earner's team's next turn began until stop 79.)"""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where("Warp Zone"))
    end_turn_of(game, c)
    end_turn_of(game, c)
    assert ent.buff[c] != 0  # the reward was given
    for _ in range(3):
        _begin_turn(game.st, game.S, int(ent.team[c]))
    assert ent.buff[c] != 0
    assert _attack_star(game.st, game.S, c, enemy_of(game, c)) == GREEN
    given = [e for e in decode(events(game, L.EV_STATE), [str(e) for e in range(ent.shape[0])],
                               ()) if e["entity"] == c]
    assert given and given[-1]["text"].endswith("(permanent)"), given


def test_a_tiles_buff_takes_no_duration(tmp_path, capsys):
    """A tile's buff is permanent, so a ``duration`` in its params is one line saying why (file,
    line, field), exit 2 in ``bwlab validate``."""
    import shutil

    from sim.cli.main import main

    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    tiles = cards / "tiles.toml"
    text = tiles.read_text(encoding="utf-8")
    old = "params = { stat = 3, amount = 0 }"
    assert old in text
    tiles.write_text(text.replace(old, "params = { stat = 3, amount = 0, duration = 1 }"),
                     encoding="utf-8")
    line = 1 + text[:text.index(old)].count("\n")
    code = main(["validate", str(cards)])
    errors = [e for e in capsys.readouterr().err.splitlines() if e.startswith("error:")]
    assert code == 2 and len(errors) == 1, errors
    assert f"tiles.toml:{line}: tiles.reward.params.duration" in errors[0], errors
    assert "permanent" in errors[0], errors
