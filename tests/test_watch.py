"""Games you can watch (issue #23 item 4): the text board's axes, legend and portals; replay's
place names; one board renderer (axes, 8 pt names, team key, labelled pieces with health bars,
dead marked, the result on the last frame); GIF and HTML written atomically, one frame per step.

None of these play a game (no compiled engine needed): the board comes from ``generate_board``,
the frames from views built by hand, the replay text from the checked-in golden log.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from sim.board.generate import generate_board
from sim.board.geometry import SPAN
from sim.catalogue.loader import load_board_only
from sim.report.board_text import board_text
from sim.report.board_view import FONT, Piece, View, draw_view, save_png
from sim.report.game_view import short_names, view_from_board
from sim.report.places import BoardTracker, place_name
from sim.report.watch import Frame, draw_frames, write_gif, write_html
from tests._cli_kit import run

GOLDEN = Path(__file__).resolve().parent / "golden" / "example_seed1_greedy.jsonl"
RULES, BOARD_RULES, TILES = load_board_only()
# seed 2 lays out Warp Zone (a tile holding both pieces of one portal) at (2,4): the case the
# old text printed as "(2,4)<->(2,4)"
SEED = 2  # (seed 3 in tiles.toml order; the tiles are in name order now)


@pytest.fixture(scope="module")
def board():
    return generate_board(TILES, BOARD_RULES, SEED)


def test_text_board_has_axes_a_legend_and_no_self_portal(board):
    text = board_text(board, TILES, RULES.suits)
    lines = text.splitlines()
    assert all(f"col {c}" in lines[0] for c in range(7))
    assert [ln[:2] for ln in lines if re.match(r"r\d ", ln)] == [f"r{r}" for r in range(7)]
    assert "legend:" in lines
    for key in ("doorway", "water", "wall block", "portal piece", "spawn of that team",
                "face-down Apocalypse", "void"):
        assert key in text, key
    assert not re.search(r"\((\d),(\d)\)<->\(\1,\2\)", text)
    portals = [ln for ln in lines if ln.startswith("portal ")]
    assert len(portals) == len(board.portals) >= 1
    for ln in portals:
        a, b = ln.split(": ", 1)[1].split(" <-> ")
        assert a != b, ln  # each end names its own space
    pieces = np.argwhere(TILES.feature[TILES.names.index("Warp Zone")] == 2)  # layout.PORTAL
    assert any(ln.count("Warp Zone (2,4)") == 2 for ln in portals), portals
    assert len(pieces) == 2


def test_place_names_read_tile_position_and_space_in_tile(board):
    """A space id becomes tile (row, col) [row, col in the tile]; a 1×1 tile needs no second
    pair; a swap moves the name with the tile (the book: the tiles "trade positions")."""
    warp = TILES.names.index("Warp Zone")
    assert board.tile_at((2, 4)) == warp and TILES.size[warp] == 3
    # Warp Zone at (2,4) is centred in its 5×5 block: its top-left space is row 11, col 21
    assert place_name(11 * SPAN + 21, board.tiles, TILES) == "Warp Zone (2,4) [0,0]"
    assert place_name(13 * SPAN + 23, board.tiles, TILES) == "Warp Zone (2,4) [2,2]"
    assert place_name(32 * SPAN + 12, board.tiles, TILES) == "Uncovered Tile (6,2)"
    tracker = BoardTracker(board.tiles, TILES)
    tracker.apply({"event": "tile swap", "from": 2 * 7 + 4, "to": 6 * 7 + 2})
    assert tracker.place(32 * SPAN + 12) == "Warp Zone (6,2) [1,1]"
    tracker.apply({"event": "destruction", "position": 6 * 7 + 2})
    assert tracker.place(32 * SPAN + 12) == "void (6,2)"


def test_replay_names_places_not_space_ids(capsys):
    code, out, err = run(capsys, "replay", GOLDEN)
    assert code == 0, err
    assert not re.search(r"\bspace -?\d", out)
    assert not re.search(r"\b\d{2,4} -> \d{2,4}\b", out)
    # the first placement: space 1132 = row 32, col 12, in position (6,2), team 1's spawn
    assert "  Luffy (T1) is placed on Uncovered Tile (6,2)" in out.splitlines()
    assert re.search(r"moves [^>]+ \(\d,\d\)( \[\d,\d\])? -> [^>]+ \(\d,\d\)", out)
    assert "places read: tile (row, col)" in out.splitlines()[0]


def _state_view(board) -> View:
    """A known state: two team-1 characters alive on one space (one hurt), a team-2 character
    dead where it fell, a CPU; the last frame's headline."""
    pieces = [Piece("Luffy (T1)", "Luffy", 0, 32 * SPAN + 12, 200, 200),
              Piece("Mario (T1)", "Mario", 0, 32 * SPAN + 12, 50, 200),
              Piece("Ink Samurai (T2)", "Ink", 1, 22 * SPAN + 32, 0, 150, alive=False),
              Piece("Coyote (CPU)", "Coyote", -1, 2 * SPAN + 8, 80, 80, character=False)]
    teams = [f"Team {k + 1} T{k + 1} (greedy)" for k in range(4)]
    v = view_from_board(board, TILES, "seed 3 · final")
    v.pieces, v.teams, v.headline = pieces, teams, "Team 1 T1 wins — last team standing"
    return v


def _texts(fig, gid):
    return [t for ax in fig.axes for t in ax.texts if t.get_gid() == gid]


def test_a_frame_drawn_for_a_known_state(board, tmp_path):
    fig = draw_view(_state_view(board), TILES, RULES.suits)
    board_ax = fig.axes[0]
    assert [t.get_text() for t in board_ax.get_xticklabels()] == [str(k) for k in range(7)]
    assert [t.get_text() for t in board_ax.get_yticklabels()] == [str(k) for k in range(7)]
    assert board_ax.get_xlabel() == "column" and board_ax.get_ylabel() == "row"
    names = _texts(fig, "tile-name")
    assert len(names) == 48 and all(t.get_fontsize() >= 8 for t in names)  # one position is
    assert FONT >= 8                                                       # the Apocalypse
    assert sorted(t.get_text() for t in _texts(fig, "piece-name")) == ["Coyote", "Luffy", "Mario"]
    key = [t.get_text() for t in _texts(fig, "team-key-entry")]
    assert key == ["Team 1 T1 (greedy) — 2 of 2 alive", "Team 2 T2 (greedy) — 0 of 1 alive",
                   "Team 3 T3 (greedy)", "Team 4 T4 (greedy)"]
    bars = sorted(p.get_width() for p in board_ax.patches if p.get_gid() == "health-bar")
    assert bars == pytest.approx([0.25, 1.0, 1.0])  # Mario 50/200, Luffy 200/200, Coyote 80/80
    assert [t.get_text() for t in _texts(fig, "dead-entry")] == ["† Ink Samurai — dead"]
    assert len([ln for ln in board_ax.lines if ln.get_gid() == "dead"]) == 1
    assert _texts(fig, "headline")[0].get_text().startswith("Team 1 T1 wins")
    png = tmp_path / "frame.png"
    save_png(fig, png)
    from PIL import Image
    with Image.open(png) as im:
        assert im.size == (1300, 1000)
        rgb = np.asarray(im.convert("RGB")).reshape(-1, 3)
    # team 1's red (#d62728) is drawn: its spawn, its pieces, its key
    assert (np.abs(rgb.astype(int) - (0xd6, 0x27, 0x28)).sum(1) < 10).sum() > 500
    # not a dark frame: most pixels are light
    assert (rgb.mean(1) > 128).mean() > 0.6


def test_short_names_are_short_and_unique_within_a_team():
    labels = ["Toon Twins (T4)", "Toon Twins (T4)", "Thunder Fist Kid (T1)",
              "Shadow Scribe minion (T2)", "Toon Twins (T3)"]
    out = short_names(labels)
    assert out == ["Toon1", "Toon2", "Thunder", "Shadow", "Toon"]
    assert all(len(s) <= 8 for s in out)


def _frames(board, n):
    frames = []
    for k in range(n):
        v = _state_view(board)
        v.title, v.headline = f"step {k + 1}", ("done" if k == n - 1 else "")
        frames.append(Frame(v, 2 * k, 2 * k + 2))
    return frames, [f"event {i}" for i in range(2 * n)]


def test_gif_has_one_frame_per_step_and_is_written_atomically(board, tmp_path, monkeypatch):
    from PIL import Image

    frames, texts = _frames(board, 3)
    gif = tmp_path / "game.gif"
    images = draw_frames(frames, texts, TILES, RULES.suits)
    assert write_gif(gif, images) == 3
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames == 3
    before = gif.read_bytes()

    def broken(self, fp, *a, **k):
        Path(fp).write_bytes(b"GIF89a half")
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", broken)
    with pytest.raises(OSError):
        write_gif(gif, images)
    assert gif.read_bytes() == before  # the old file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.gif"]  # no temporary left


def test_html_replay_is_self_contained_with_one_step_per_frame(board, tmp_path):
    frames, texts = _frames(board, 2)
    page = tmp_path / "game.html"
    images = draw_frames(frames, texts, TILES, RULES.suits)
    assert write_html(page, frames, texts, images, "a test") == 2
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    data = json.loads(re.search(r"const STEPS = (.*);\n", text).group(1).replace("<\\/", "</"))
    assert [s["title"] for s in data] == ["step 1", "step 2"]
    assert [s["events"] for s in data] == [["event 0", "event 1"], ["event 2", "event 3"]]
    assert all(s["img"].startswith("data:image/png;base64,") for s in data)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html"]


def test_board_png_uses_the_renderer(capsys, tmp_path):
    png = tmp_path / "board.png"
    code, out, err = run(capsys, "board", "--seed", SEED, "--png", png)
    assert code == 0, err
    assert "legend:" in out and f"drawn: {png}" in out
    from PIL import Image
    with Image.open(png) as im:
        assert im.size == (1300, 1000)


def test_replay_gif_refuses_a_header_naming_unknown_cards(capsys, tmp_path):
    """Bad input: one line naming the file, line and field, exit 2, nothing written."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    head["cards"][0][0] = "Nobody Special"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(head) + "\n" + "".join(lines[1:]), encoding="utf-8")
    gif = tmp_path / "bad.gif"
    code, out, err = run(capsys, "replay", bad, "--gif", gif, "--quiet")
    assert code == 2 and not gif.exists()
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: {bad}:1: cards: unknown card(s) Nobody Special in ")
    assert line.endswith("(replay with the cards the game was played with: --cards)")


def test_a_crowded_space_lists_four_lines_and_counts_the_rest(board):
    """Five characters placed on one spawn space (the book: "your entire team must be placed
    into your Spawn") read as three names and "+2 more"; the panel still lists all five."""
    v = view_from_board(board, TILES)
    v.teams = ["Team 1"]
    v.pieces = [Piece(f"Card{k} (T1)", f"Card{k}", 0, 32 * SPAN + 12, 10, 10) for k in range(5)]
    fig = draw_view(v, TILES, RULES.suits)
    assert [t.get_text() for t in _texts(fig, "piece-name")] == ["Card0", "Card1", "Card2"]
    assert [t.get_text() for t in _texts(fig, "more")] == ["+2 more"]
    assert _texts(fig, "team-key-entry")[0].get_text() == "Team 1 — 5 of 5 alive"


def test_the_revealed_apocalypse_is_a_1x1_tile_by_name_and_on_the_board(board):
    """"When revealed it is treated as a 1x1 Tile": before the reveal its position reads
    face-down (hatched), after it "the Apocalypse tile" (a tile named Apocalypse)."""
    from sim.board.geometry import APOCALYPSE
    (R, C), = np.argwhere(board.tiles == APOCALYPSE)
    centre = (R * 5 + 2) * SPAN + C * 5 + 2
    tracker = BoardTracker(board.tiles, TILES)
    assert tracker.place(centre) == f"the face-down Apocalypse ({R},{C})"
    tracker.apply({"event": "reveal", "reason": 1, "apocalypse": 0})
    assert tracker.place(centre) == f"the Apocalypse tile ({R},{C})"
    v = view_from_board(board, TILES)
    assert "Apocalypse" not in [t.get_text() for t in _texts(draw_view(v, TILES, RULES.suits),
                                                              "tile-name")]
    v.revealed = True
    assert "Apocalypse" in [t.get_text() for t in _texts(draw_view(v, TILES, RULES.suits),
                                                          "tile-name")]
