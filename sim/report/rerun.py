"""Play a logged game again from its header and check it against the log, event by event.

Why: ``bwlab play`` promises "same seed, same game, same log", so the header (seed, cards,
players, Apocalypse) is enough to rebuild every state of the game, and the log itself is the
check that the rebuild is the game that was logged (same cards, same engine). ``replay --gif``
draws the rebuilt states (:mod:`sim.report.watch`).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sim.catalogue.diagnostics import InputError, Problem, has_control


def read_log(path: Path) -> list[tuple[int, dict]]:
    """Every event of a ``play --log`` file with its line number; one line per problem (exit 2)
    for a file that is not a game log."""
    from sim.catalogue.diagnostics import Problems, read_text

    problems = Problems()
    text = read_text(path, problems)
    problems.raise_if_any()
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
            ev["text"]  # noqa: B018 - every event carries its sentence
        except RecursionError:  # a hostile log: JSON nested thousands deep
            raise InputError([Problem(str(path), n, "line", "JSON nested too deeply to be a game "
                                      "event")]) from None
        except (ValueError, KeyError, TypeError):
            raise InputError([Problem(str(path), n, "line",
                                      "not a game event (JSON with \"text\")")]) from None
        if not isinstance(ev["text"], str) or has_control(ev["text"]):
            # narrated as it stands: an escape sequence would drive the reader's terminal
            raise InputError([Problem(str(path), n, "text", "not a game event's sentence (text "
                                      "with a control character or not text)")])
        out.append((n, ev))
    return out


def _names(count: int):
    """A check: a list of ``count`` strings."""
    return lambda v: isinstance(v, list) and len(v) == count and all(isinstance(x, str) for x in v)


# the game header's fields (sim.engine.log.record.new_game writes them): name, what it should
# be, its check
_HEADER_FIELDS = (
    ("seed", "a whole number >= 0", lambda v: type(v) is int and v >= 0),
    ("cards", "4 lists of 5 card names", lambda v: isinstance(v, list) and len(v) == 4
     and all(_names(5)(row) for row in v)),
    ("policies", "a list of 4 player specs", _names(4)),
    ("apocalypse", "an Apocalypse's name", lambda v: isinstance(v, str)),
    # printable: an escape in a name drew as a missing glyph, a warning per frame (team files
    # refuse one: sim.catalogue.teams)
    ("teams", "a list of 4 printable team names",
     lambda v: _names(4)(v) and not any(has_control(name) for name in v)),
)


def _header(path: Path, events, catalogue):
    """Seed, team cards, player specs and Apocalypse index from the header line."""
    from sim.runner.file_kinds import parse_policies
    from sim.engine.state.static_tables import load_game_data

    from .excerpt import excerpt

    line = events[0][0] if events else 1

    def bad(field, msg):
        return InputError([Problem(str(path), line, field, msg)])

    if not events or events[0][1].get("event") != "game":
        raise bad("event", "the first line is not a game header (written by `bwlab play --log`)")
    head = events[0][1]
    # each field read on its own, so a problem names the field and what it should be
    got = {}
    for name, expected, ok in _HEADER_FIELDS:
        if name not in head and name == "teams":  # optional: older logs have no team names
            got[name] = ["?"] * 4
        elif name not in head:
            raise bad(name, f"missing from the game header (expected {expected})")
        elif not ok(head[name]):
            raise bad(name, f"expected {expected}, got {excerpt(head[name], 60)}")
        else:
            got[name] = head[name]
    seed, policies, apoc_name = got["seed"], got["policies"], got["apocalypse"]
    cards = [list(row) for row in got["cards"]]
    head = {**head, "teams": got["teams"]}
    lowered = {n.lower(): i for i, n in enumerate(catalogue.cards.names)}
    unknown = [c for row in cards for c in row if c.lower() not in lowered]
    if unknown:
        raise bad("cards", f"unknown card(s) {', '.join(unknown)} in {catalogue.root} "
                           "(replay with the cards the game was played with: --cards)")
    try:
        specs = parse_policies(policies)
    except ValueError as exc:
        raise bad("policies", str(exc)) from None
    _, apocalypses = load_game_data(catalogue.root)
    try:
        apoc = apocalypses.find(apoc_name)
    except ValueError:
        raise bad("apocalypse", f"unknown Apocalypse {apoc_name!r}") from None
    team_cards = np.array([[lowered[c.lower()] for c in row] for row in cards], np.int64)
    return head, seed, team_cards, specs, apoc


def _same(row, ev) -> bool:
    from sim.engine.log.events import EVENTS

    name, args, _ = EVENTS[int(row[0])]
    return (ev.get("event") == name and ev.get("rotation") == int(row[1])
            and all(ev.get(a) == int(v) for a, v in zip(args, row[2:])))


def _difference(row, ev) -> str:
    """What differs between the event played again (``row``) and the logged one, in words:
    the first field that differs, logged and played again."""
    from sim.engine.log.events import EVENTS

    name, args, _ = EVENTS[int(row[0])]
    if ev.get("event") != name:
        return f"a {ev.get('event')!r} event is logged, played again a {name!r} event"
    pairs = [("rotation", int(row[1]))] + [(a, int(v)) for a, v in zip(args, row[2:])]
    for a, v in pairs:
        if ev.get(a) != v:
            return f"the {name} event's {a} is {ev.get(a)!r}, played again {v}"
    return f"{name}: differs"


class Mismatch(Exception):
    pass


def _causes(specs) -> str:
    """Why a game played again can differ: the cards, the engine, and a weights file the log
    names by path only (its weights are not logged: one changed since differs silently)."""
    files = sorted({s.weights_file for s in specs if s.weights_file})
    if not files:
        return "logged with other cards or another engine"
    named = ", ".join(files)
    return (f"logged with other cards, another engine, or other weights in the weights file "
            f"{named} (the log names the file, not its weights)")


def rerun(path: Path, events, catalogue):
    """The logged game played again, recorded (:class:`sim.report.watch.Recorder`); returns the
    recorder and the result. The Apocalypse is first drawn as ``play`` draws it, then, if the
    log differs, given as ``play --apocalypse`` gives it (drawing it takes a die roll, so the two
    are different games); a log neither matches is refused where it first differs from the
    closer of the two."""
    head, seed, team_cards, specs, apoc = _header(path, events, catalogue)
    misses = []
    for given in (-1, apoc):
        try:
            return _play_checked(path, events, catalogue, head, seed, team_cards, specs, given)
        except Mismatch as exc:
            misses.append(exc.args)
    line, message = max(misses)  # the attempt that followed the log furthest
    raise InputError([Problem(str(path), line, "event", message)])


def _play_checked(path, events, catalogue, head, seed, team_cards, specs, apoc):
    from sim.ai.play import step
    from sim.engine.log.record import new_game

    from .watch import Recorder, result_headline, team_title

    game = new_game(catalogue, team_cards, seed, apocalypse=apoc, log=True)
    labels = game.labels(catalogue.cards.names, game.setup.cpu_names, catalogue.entities)
    team_names = [str(t) for t in head.get("teams", ["?"] * 4)]
    teams = [f"{team_title(k, team_names[k])} ({s.label})" for k, s in enumerate(specs)]
    rec = Recorder(game, labels, teams, f"seed {seed}")
    body = events[1:]
    checked = counted = 0
    from sim.runner.progress import advance, stage

    with stage("replaying the game", len(body), unit="events"):
        while True:
            n = int(game.st.game.nev)
            for row in game.st.ev[checked:n]:
                if checked >= len(body):
                    raise Mismatch(events[-1][0], "the log ends here, before the game played "
                                                  "again from its header has ended (a cut log, "
                                                  f"or {_causes(specs)})")
                if not _same(row, body[checked][1]):
                    raise Mismatch(body[checked][0], "the game played again from the header "
                                   f"differs from the log here: {_difference(row, body[checked][1])}"
                                   f" (an edited log, or {_causes(specs)})")
                checked += 1
            advance(min(checked, len(body)) - counted)
            counted = min(checked, len(body))
            if game.terminal:
                break
            team = int(game.st.ent.team[game.current])
            step(game, specs[team].id, specs[team].budget, specs[team].weights)
            rec.after_step()
    if checked != len(body):
        raise Mismatch(body[checked][0], "the log goes on after the game played again from its "
                                         "header has ended")
    result = game.result()
    rec.finish(result_headline(result, team_names))
    return rec, result
