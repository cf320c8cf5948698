"""``replay --gif``: the logged game played again from its header, checked event by event, one
frame per turn and a last one with the result (issue #23 item 4). Uses the compiled engine on the
checked-in golden log (its own test keeps it current)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sim.report.rerun import read_log, rerun
from tests._cli_kit import run
from tests._engine_kit import CATALOGUE

GOLDEN = Path(__file__).resolve().parent / "golden" / "example_seed3_greedy.jsonl"  # The Collapse


@pytest.fixture(scope="module")
def replayed():
    events = read_log(GOLDEN)
    rec, result = rerun(GOLDEN, events, CATALOGUE)
    return [ev for _, ev in events], rec, result


def test_one_frame_per_turn_and_the_frames_partition_the_events(replayed):
    events, rec, _ = replayed
    body = events[1:]
    turns = [ev["event"] == "turn" for ev in body]
    frames = rec.frames
    assert len(frames) == sum(turns) > 10
    assert frames[0].first == 0 and frames[-1].last == len(body)
    assert all(a.last == b.first for a, b in zip(frames, frames[1:]))
    # a frame is taken once the next turn has begun: the first holds two turn starts, the
    # last (the result) none, every other one
    per_frame = [sum(turns[f.first:f.last]) for f in frames]
    assert per_frame == [2] + [1] * (len(frames) - 2) + [0]


def test_the_last_frame_shows_the_result_and_who_died(replayed):
    events, rec, result = replayed
    end = next(ev for ev in events if ev["event"] == "game over")
    assert result.winner == end["winner"]
    view = rec.frames[-1].view
    assert view.headline.startswith(f"Team {end['winner'] + 1} ") and "wins" in view.headline
    labels = events[0]["labels"]
    dead = Counter()
    for ev in events:
        if ev["event"] == "death":
            dead[labels[ev["entity"]]] += 1
        elif ev["event"] == "revive":
            dead[labels[ev["entity"]]] -= 1
    drawn_dead = Counter(p.label for p in view.pieces if p.character and not p.alive)
    assert drawn_dead == Counter({k: v for k, v in dead.items()
                                  if v > 0 and k in {p.label for p in view.pieces if p.character}})
    assert all(p.space >= 0 for p in view.pieces if not p.alive)  # a cross where each fell


def test_a_log_that_is_not_this_game_is_refused_with_its_line(capsys, tmp_path):
    lines = GOLDEN.read_text(encoding="utf-8").splitlines(keepends=True)
    k = next(i for i, ln in enumerate(lines) if i > 40 and '"event": "move"' in ln)
    lines[k] = lines[k].replace('"cost": ', '"cost": 1', 1)  # 5 -> 15 speed
    bad = tmp_path / "edited.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    gif = tmp_path / "edited.gif"
    code, out, err = run(capsys, "replay", bad, "--gif", gif, "--quiet")
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: {bad}:{k + 1}: event: the game played again from the header "
                          "differs from the log here: the move event's cost is 1")
    assert "(an edited log, or logged with other cards or another engine)" in err
    assert not gif.exists()


def test_replay_gif_and_html_end_to_end(capsys, tmp_path, monkeypatch):
    """The command's wiring: a GIF and a page with one frame per turn, their paths on stderr.
    Frames are stubbed (a plain image numbered by its title): drawing 58 real ones takes ~20 s
    of CPU, and test_watch.py checks the drawing."""
    from PIL import Image

    import sim.report.watch as watch

    drawn = []

    class Stub:
        def __init__(self, *a):
            self.n = 0

        def image(self, view):
            self.n += 1
            drawn.append(view.title)
            return Image.new("RGB", (40, 30), (self.n % 256, self.n // 256, 7))

    monkeypatch.setattr(watch, "Painter", Stub)
    gif, page = tmp_path / "game.gif", tmp_path / "game.html"
    code, out, err = run(capsys, "replay", GOLDEN, "--gif", gif, "--html", page, "--quiet")
    assert code == 0, err
    turns = GOLDEN.read_text(encoding="utf-8").count('"event": "turn"')
    with Image.open(gif) as im:
        assert im.n_frames == turns
    assert page.read_text(encoding="utf-8").count('"img": "data:image/png;base64,') == turns
    assert f"gif: {gif} ({turns} frames" in err and f"html: {page} ({turns} steps" in err
    assert len(drawn) == turns  # each frame drawn once for both outputs (it was drawn twice)
    assert "space" not in out.replace("the space inside", "")  # places named, stdout narrated


def test_every_frame_draws_the_coordinates_destroyed_so_far_as_void(replayed):
    """"Anything in a tile that is destroyed is removed from the game": a destroyed coordinate is a
    void (drawn hatched grey, docs/watching.md), from the frame of its destruction to the last;
    until stop 48 the pictures kept drawing the tile that had stood there."""
    from sim.board.geometry import VOID
    events, rec, _ = replayed
    body = events[1:]
    destroyed: set[int] = set()
    checked = 0
    for frame in rec.frames:
        destroyed |= {ev["position"] for ev in body[frame.first:frame.last]
                      if ev["event"] == "destruction"}
        drawn = {int(p) for p in np.flatnonzero(frame.view.tiles.ravel() == VOID)}
        assert drawn == destroyed
        checked += bool(destroyed)
    assert checked >= 2 and len(destroyed) > 10  # the golden game's Apocalypse destroys many
