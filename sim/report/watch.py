"""A game you can watch: one frame per team turn, written as an animated GIF or an HTML page.

Why frames from the engine's state and not from the log's sentences: a log names moves and hits,
but where every piece stands after a tile swap, a teleport or a drive, and each one's health, is
what the engine computes; re-deriving it from events would be a second engine. So ``play`` records
while it plays, and ``replay`` plays the logged game again from its header (seed, cards, players,
Apocalypse) and checks every event it produces against the log before it draws anything — a log
written by other cards or another engine is refused at the first event that differs.

A step is a team's turn: a frame is taken at the first decision after a turn has ended, so the
frames' events partition the game's events (each event in exactly one frame), and a last frame
shows the result and the standings.
"""

from __future__ import annotations

import base64
import html
import io
import json
from dataclasses import dataclass

from sim.engine.state import fields as L

from .board_view import Painter, View
from .game_view import view_from_game

FRAME_DPI = 80  # 8 pt text is 9 px tall; the GIF and the page show the same pictures
FRAME_MS, LAST_FRAME_MS = 800, 4000
EVENTS_SHOWN = 8  # the last sentences of a step, printed in the frame's panel


@dataclass
class Frame:
    view: View
    first: int   # the step's events are the game's events [first, last)
    last: int


class Recorder:
    """Takes a :class:`Frame` whenever a team's turn has ended; call :meth:`after_step` after
    every decision and :meth:`finish` at the end."""

    def __init__(self, game, labels: list[str], teams: list[str], title: str):
        self.game, self.labels, self.teams, self.title = game, labels, teams, title
        self.deaths: dict[int, int] = {}
        self.frames: list[Frame] = []
        self._seen = self._start = 0
        self._turn: int | None = None
        self._ended: list[int] = []

    def after_step(self) -> None:
        st = self.game.st
        n = int(st.game.nev)
        boundary = False
        for row in st.ev[self._seen:n]:
            kind = int(row[0])
            if kind == L.EV_DEATH:
                self.deaths[int(row[2])] = int(row[5])
            elif kind == L.EV_REVIVE:
                self.deaths.pop(int(row[3]), None)
            elif kind == L.EV_TURN:
                if self._turn is not None:
                    self._ended.append(self._turn)
                    boundary = True
                self._turn = int(row[2])
        self._seen = n
        if boundary:
            rot = int(st.game.rotation)
            done = " and ".join(f"Team {t + 1}" for t in self._ended)
            self._take(f"{self.title} · rotation {rot} · after {done}'s turn")
            self._ended = []

    def finish(self, headline: str) -> None:
        self.after_step()
        self._take(f"{self.title} · final", headline)

    def view(self, title: str, headline: str = "") -> View:
        return view_from_game(self.game, self.labels, self.teams, self.deaths, title, headline)

    def _take(self, title: str, headline: str = "") -> None:
        self.frames.append(Frame(self.view(title, headline), self._start, self._seen))
        self._start = self._seen


def team_title(k: int, name: str) -> str:
    """"Team 2 Ink & Iron"; a team called "Team 2" is not named twice."""
    name = str(name)
    return f"Team {k + 1}" if name.strip().lower() in ("", f"team {k + 1}") else \
        f"Team {k + 1} {name}"


def result_headline(result, team_names) -> str:
    """"Team 2 Ink & Iron wins — last team standing, rotation 37" (or a draw)."""
    who = (f"{team_title(result.winner, team_names[result.winner])} wins" if result.winner >= 0
           else "A draw")
    return f"{who} — {result.reason}, rotation {result.rotation}"


def draw_frames(frames, texts, catalogue, suits) -> list:
    """Each frame as a Pillow image, the step's last sentences in its panel; counted on the
    command's progress line (silent under --quiet or outside a command). Drawn once for both
    the GIF and the page (drawing is most of their cost), in 128 colours: a third of a frame's
    bytes, no visible loss on flat colours, so a long game's frames fit in memory."""
    from PIL import Image

    from sim.runner.progress import advance, stage

    painter = Painter(catalogue, suits, FRAME_DPI)
    images = []
    with stage("drawing frames", len(frames), unit="frames"):
        for fr in frames:
            fr.view.events = texts[fr.first:fr.last][-EVENTS_SHOWN:]
            images.append(painter.image(fr.view).convert("P", palette=Image.Palette.ADAPTIVE,
                                                         colors=128))
            advance(1)
    return images


def write_picture(path, view: View, tiles, suits, name: str) -> None:
    """One board picture as a PNG, as the progress stage ``name`` of two steps (laying the board
    out, with matplotlib's load when no picture came before it; writing the PNG). Why a stage:
    ``board --png`` spent 2.5-3.2 s and ``play``'s final.png 2.9 s (loaded host) here with none
    open (the progress audit of 2026-12-07). Untimed, as ``combat``'s "drawing the figure": the
    steps differ too much in length for a rate."""
    from sim.runner.progress import advance, stage

    from .board_view import draw_view, save_png

    with stage(name, 2, unit="steps", timed=False):
        figure = draw_view(view, tiles, suits)
        advance()
        save_png(figure, path)
        advance()


def write_gif(path, images) -> int:
    """An animated GIF of ``images`` (:func:`draw_frames`), one per step, the last held longer;
    written atomically. Returns the number of frames. A stage of the progress line (one
    encoder call, no count): ``play`` and ``replay`` spent 1-2 s here after their frames with
    no stage open (the progress audit of 2026-12-07)."""
    from sim.atomic import atomic_path
    from sim.runner.progress import stage

    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    with stage("writing the GIF"), atomic_path(path) as tmp:
        images[0].save(tmp, format="GIF", save_all=True, append_images=images[1:],
                       duration=durations, loop=0, disposal=1)
    return len(images)


def write_html(path, frames, texts, images, title: str) -> int:
    """A self-contained page (no network): the frames' ``images`` (:func:`draw_frames`) as
    inline PNGs, a slider, play / pause, the arrow keys, and each step's events beside its
    picture. Written atomically; its frames (each a PNG to encode, 1-2 s in all) are counted
    on the progress line, as :func:`write_gif`'s stage."""
    from sim.atomic import write_text
    from sim.runner.progress import advance, stage

    steps = []
    with stage("writing the HTML page", len(images), unit="frames"):
        for fr, im in zip(frames, images, strict=True):
            buf = io.BytesIO()
            im.save(buf, format="PNG")
            steps.append({"img": "data:image/png;base64,"
                                 + base64.b64encode(buf.getvalue()).decode(),
                          "title": fr.view.title, "events": texts[fr.first:fr.last]})
            advance(1)
        data = json.dumps(steps, ensure_ascii=False).replace("</", "<\\/")
        write_text(path, _PAGE.replace("{{TITLE}}", html.escape(title))
                   .replace("{{DATA}}", data))
    return len(steps)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0.5rem;color:#222}
#ctl{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;position:sticky;top:0;
background:#fff;padding:.3rem 0}
#step{flex:1;min-width:10rem}
#wrap{display:flex;gap:1rem;flex-wrap:wrap}
#frame{max-width:100%;height:auto;border:1px solid #ccc}
#events{font-size:.9rem;max-width:40rem;margin:0;padding-left:1.5rem}
</style></head><body>
<h1 style="font-size:1.2rem">{{TITLE}}</h1>
<div id="ctl"><button id="prev" title="previous step (←)">◀</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next step (→)">▶</button>
<input type="range" id="step" min="0" value="0" aria-label="step">
<span id="label"></span></div>
<div id="wrap"><img id="frame" alt="the board at this step"><ol id="events"></ol></div>
<script>
const STEPS = {{DATA}};
const slider = document.getElementById("step"), img = document.getElementById("frame");
const label = document.getElementById("label"), list = document.getElementById("events");
const playBtn = document.getElementById("play");
slider.max = STEPS.length - 1;
let timer = null;
function show(i) {
  i = Math.max(0, Math.min(STEPS.length - 1, i));
  slider.value = i;
  const s = STEPS[i];
  img.src = s.img;
  label.textContent = "step " + (i + 1) + " of " + STEPS.length + " — " + s.title;
  list.replaceChildren(...s.events.map(t => { const li = document.createElement("li");
    li.textContent = t; return li; }));
}
function toggle() {
  if (timer) { clearInterval(timer); timer = null; playBtn.textContent = "play"; return; }
  playBtn.textContent = "pause";
  timer = setInterval(() => { const i = +slider.value + 1;
    if (i >= STEPS.length) { toggle(); return; } show(i); }, 900);
}
slider.addEventListener("input", () => show(+slider.value));
document.getElementById("prev").onclick = () => show(+slider.value - 1);
document.getElementById("next").onclick = () => show(+slider.value + 1);
playBtn.onclick = toggle;
document.addEventListener("keydown", e => {
  if (e.key === "ArrowLeft") show(+slider.value - 1);
  else if (e.key === "ArrowRight") show(+slider.value + 1);
  else if (e.key === " ") { e.preventDefault(); toggle(); }
});
show(0);
</script></body></html>
"""
