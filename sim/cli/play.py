"""``bwlab play``: one full AI-vs-AI game, its result, and optionally its log and pictures."""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from sim.catalogue.diagnostics import InputError, Problem

from ._engine import ready_to_play
from ._paths import IN_FILE, OUT_FILE, OUT_FOLDER, cards_option, distinct_paths
from ._policy import budget_option
from ._say import note


def _policies(text: str, budget: int | None):
    from sim.ai.spec import names as spec_names
    from sim.runner.file_kinds import parse_policies

    names = [p.strip() for p in text.split(",")]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise click.BadParameter(f"one policy or four comma-separated, from {spec_names()}",
                                 param_hint="--policy")
    try:
        return parse_policies(names, budget)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--policy/--budget") from None


@click.command()
@click.option("--teams", "teams_file", type=IN_FILE,
              default=None, help="Team file (TOML: 4 [[teams]] of 5 cards); default: random teams.")
@click.option("--seed", type=int, required=True,
              help="Seed of the board and the dice of this one game (teams in file order, "
                   "team 1 in seat 1). Not a root seed: the games of `fairness`, `run` or "
                   "`drift` at --seed S (root_seed S) are played on boards derived from S, "
                   "not generated from S itself, so `play --seed S` is none of their games.")
@click.option("--policy", default="greedy", show_default=True,
              help="random, greedy[:weights=FILE], lookahead[:BUDGET][:weights=FILE], "
                   "lookahead-rotation[:BUDGET][:weights=FILE] (docs/ai.md), or four "
                   "comma-separated (one per team).")
@budget_option
@click.option("--log", "log", type=OUT_FILE, default=None,
              help="Write every event as JSON lines here.")
@click.option("--png-every", nargs=2, type=(int, OUT_FOLDER),
              default=None, help="N DIR: draw the board every N rotations into DIR "
                                 "(rotation_NNN.png), and the result as final.png.")
@click.option("--gif", "gif", type=OUT_FILE, default=None,
              help="Write an animated GIF of the game, one frame per turn and the result.")
@click.option("--html", "html_out", type=OUT_FILE, default=None,
              help="Write a self-contained HTML page stepping through the game's turns.")
@click.option("--apocalypse", default=None, help="Name of the Apocalypse in play (default: drawn).")
@cards_option()
def play(teams_file, seed, policy, budget, log, png_every, gif, html_out, apocalypse,
         cards):
    """Play one game of Board Wars between four AI teams and print the result.

    Same seed, same game, same log."""
    from sim.ai.play import play_game
    from sim.engine.log.record import new_game
    from sim.runner.progress import advance, stage

    if seed < 0:
        raise click.BadParameter("must be >= 0", param_hint="--seed")
    distinct_paths({"--log": log, "--gif": gif, "--html": html_out}, {"--teams": teams_file})
    _not_a_frame({"--log": log, "--gif": gif, "--html": html_out}, png_every)
    specs = _policies(policy, budget)
    names = [s.label for s in specs]
    catalogue, apocalypses, team_names, team_cards, apoc = _setup(cards, teams_file, seed,
                                                                  apocalypse)
    if png_every is not None and png_every[0] < 1:
        raise click.BadParameter("N must be >= 1", param_hint="--png-every")
    # whatever bears a frame's name, not only the files: a folder or a pipe as final.png was
    # refused only after the game, its first frames written
    frames = [] if png_every is None else [
        ("--png-every", f) for pattern in ("rotation_*.png", "final.png")
        for f in sorted(png_every[1].glob(pattern))]
    ready_to_play([("--log", log), ("--gif", gif), ("--html", html_out)] + frames,
                  catalogue.root)  # none is an input
    watch = png_every is not None or gif is not None or html_out is not None
    game = new_game(catalogue, team_cards, seed, apocalypse=apoc, log=log is not None or watch)
    ids = [s.id for s in specs]
    budgets = [s.budget for s in specs]
    weights = [s.weights for s in specs]  # greedy:weights=FILE (None: the rules')
    if not watch:
        # one game, one engine call: counted (0/1, then 1), not timed (sim.runner.progress)
        with stage(f"playing the game ({', '.join(sorted(set(names)))})", 1, unit="game",
                   timed=False):
            result = play_game(game, ids, budgets, weights)
            advance(1)
    else:
        from sim.report.watch import team_title

        teams = [f"{team_title(k, team_names[k])} ({names[k]})" for k in range(4)]
        rec, result, pictures = _play_watched(game, catalogue, teams, team_names, ids,
                                              list(zip(budgets, weights)), seed, png_every)
    _echo_result(catalogue, apocalypses, team_names, team_cards, names, result)
    if log is not None:
        _write_log(game, catalogue, team_names, team_cards, names, seed, log)
    if watch:
        _write_watched(game, catalogue, rec, pictures, png_every, gif, html_out, seed)


FRAME_NAMES = re.compile(r"(rotation_[0-9]{3,}|final)\.png")  # _record_steps, _write_watched


def _not_a_frame(outputs: dict, png_every) -> None:
    """No output (option -> path; None skipped) is a file --png-every may write: ``final.png``
    or any ``rotation_NNN.png`` in its folder, through links and ``..`` alike (the output a
    link to a frame's place, or a frame already there a link to the output: the writer writes
    through links). Why: ``--log DIR/final.png --png-every 100 DIR`` wrote the log, then the
    final frame over it, exit 0: the log was lost. Refused before the game, one line per
    output, nothing written."""
    if png_every is None:
        return
    folder = os.path.realpath(png_every[1])
    frames = {os.path.realpath(f) for f in Path(folder).glob("*.png")  # links among them too
              if FRAME_NAMES.fullmatch(f.name)} if os.path.isdir(folder) else set()

    def is_frame(path) -> bool:
        placed = os.path.join(os.path.realpath(os.path.dirname(os.path.abspath(path))),
                              os.path.basename(path))  # its folder resolved, not the file
        return os.path.realpath(path) in frames or any(
            os.path.dirname(p) == folder and FRAME_NAMES.fullmatch(os.path.basename(p))
            for p in (placed, os.path.realpath(path)))

    problems = [Problem(str(path), None, option, f"is also a frame of --png-every "
                                                 f"{png_every[1]} (final.png, rotation_NNN.png): "
                                                 f"name another file")
                for option, path in outputs.items() if path is not None and is_frame(path)]
    if problems:
        raise InputError(problems)


def _setup(cards, teams_file, seed, apocalypse):
    """The catalogue, the Apocalypse Index, the teams (from --teams, else drawn from the seed)
    and the Apocalypse asked for (-1: drawn); a wrong name is one located line."""
    import numpy as np

    from sim.catalogue.diagnostics import InputError, Problem
    from sim.catalogue.loader import default_cards_dir, load_catalogue
    from sim.catalogue.teams import random_teams
    from sim.runner.file_kinds import load_team_file
    from sim.engine.state.static_tables import load_game_data

    catalogue = load_catalogue(cards or default_cards_dir())
    _, apocalypses = load_game_data(catalogue.root)
    if teams_file is not None:
        teams = load_team_file(teams_file, catalogue.cards)
        team_names, team_cards = teams.names, teams.cards
    else:
        team_names = ("(random cards)",) * 4
        team_cards = random_teams(len(catalogue.cards), np.random.default_rng(seed))
    apoc = -1
    if apocalypse is not None:
        try:
            apoc = apocalypses.find(apocalypse)
        except ValueError:
            raise InputError([Problem(apocalypses.path, None, "--apocalypse",
                                      f"unknown Apocalypse {apocalypse!r}")]) from None
    return catalogue, apocalypses, team_names, team_cards, apoc


def _echo_result(catalogue, apocalypses, team_names, team_cards, names, result) -> None:
    """The teams, the Apocalypse and how the game ended."""
    for t in range(4):
        card_list = ", ".join(catalogue.cards.names[c] for c in team_cards[t])
        click.echo(f"Team {t + 1} {team_names[t]} ({names[t]}): {card_list}")
    click.echo(f"Apocalypse: {apocalypses.names[result.apocalypse]}")
    winner = (f"Team {result.winner + 1} {team_names[result.winner]}" if result.winner >= 0
              else "draw")
    click.echo(f"Result: {winner} — {result.reason}, rotation {result.rotation}, "
               f"{result.deaths} characters dead, {result.decisions} decisions")


def _write_log(game, catalogue, team_names, team_cards, names, seed, log) -> None:
    """--log: every event as JSON lines, written atomically (a warning if any did not fit)."""
    from sim.atomic import write_text
    from sim.engine.log.record import game_jsonl

    if game.st.game.ev_lost:
        note(f"warning: {int(game.st.game.ev_lost)} events did not fit the log")
    text = game_jsonl(game, catalogue, team_names, team_cards, names, seed)
    write_text(log, text)
    events = text.count("\n") - 1
    click.echo(f"log: {log} ({events} events)")


def _play_watched(game, catalogue, teams, team_names, ids, budgets, seed, png_every):
    """Play step by step, recording a frame per turn (sim.report.watch) and drawing the board
    every N rotations into DIR for --png-every."""
    from sim.report.watch import Recorder, result_headline
    from sim.runner.progress import stage

    labels = game.labels(catalogue.cards.names, game.setup.cpu_names, catalogue.entities)
    rec = Recorder(game, labels, teams, f"seed {seed}")
    pictures = []
    suits = catalogue.rules.suits
    # in rotations, of at most the rotation cap, which ends every game that lasts (a game's
    # decisions are not known before it ends, and the line had no total, no time left)
    from sim.engine.state import fields as L

    with stage("playing (recording each turn)", int(game.S.ip[L.P_CAP]), unit="rotations",
               at_most=True):
        _record_steps(game, rec, catalogue, ids, budgets, seed, png_every, pictures, suits)
    result = game.result()
    rec.finish(result_headline(result, team_names))
    return rec, result, pictures


def _record_steps(game, rec, catalogue, ids, budgets, seed, png_every, pictures, suits):
    """Step the game to its end, a frame per step, a picture every N rotations (--png-every)."""
    from sim.ai.play import step
    from sim.report.board_view import draw_view, save_png
    from sim.runner.progress import advance

    drawn, counted = -1, 0
    while not game.terminal:
        rot = int(game.st.game.rotation)
        if png_every is not None and rot != drawn and (rot - 1) % png_every[0] == 0:
            path = png_every[1] / f"rotation_{rot:03d}.png"
            save_png(draw_view(rec.view(f"seed {seed} · rotation {rot}"), catalogue.tiles, suits),
                     path)
            pictures.append(path)
            drawn = rot
        team = int(game.st.ent.team[game.current])
        step(game, ids[team], *budgets[team])  # (budget, greedy weights)
        rec.after_step()
        # the rotations begun so far (the first is rotation 1): the result's rotation at the end
        reached = int(game.st.game.rotation)
        advance(reached - counted)
        counted = reached


def _write_watched(game, catalogue, rec, pictures, png_every, gif, html_out, seed):
    """The final picture, the GIF and the HTML page; says where each went."""
    from sim.engine.log.events import decode
    from sim.report.places import named_sentences
    from sim.report.watch import draw_frames, write_gif, write_html, write_picture

    suits = catalogue.rules.suits
    if png_every is not None:
        final = png_every[1] / "final.png"
        write_picture(final, rec.frames[-1].view, catalogue.tiles, suits,
                      "drawing the final picture")
        pictures.append(final)
        click.echo(f"pictures: {len(pictures)} in {png_every[1]} "
                   f"({pictures[0].name} … {final.name}; final.png shows the standings)")
    if gif is None and html_out is None:
        return
    items = catalogue.items.names if catalogue.items is not None else ()
    texts = named_sentences(decode(game.event_rows(), rec.labels, game.setup.apocalypses.names,
                                   items, catalogue.tiles), game.setup.board.tiles,
                            catalogue.tiles)
    images = draw_frames(rec.frames, texts, catalogue.tiles, suits)
    if gif is not None:
        n = write_gif(gif, images)
        click.echo(f"gif: {gif} ({n} frames, one per turn and the result)")
    if html_out is not None:
        n = write_html(html_out, rec.frames, texts, images, f"Board Wars, seed {seed}")
        click.echo(f"html: {html_out} ({n} steps, one per turn and the result)")
