"""The event log's words (issue #24: "an 85-line ``if name == …`` chain in ``events._text``"):
each kind of event has one sentence, in one table (``events.SENTENCES``; items and tile functions
keep tables of their own). The golden logs (tests/golden/) check every sentence's exact words on
two whole games; this checks that no kind is left without one."""

from __future__ import annotations

from sim.engine.log.events import EVENTS, SENTENCES, _text
from sim.engine.log.tile_events import TILE_EVENT_NAMES


def test_every_kind_of_event_has_a_sentence():
    names = [name for name, _, _ in EVENTS.values()]
    missing = [n for n in names if n not in SENTENCES and n not in TILE_EVENT_NAMES
               and not (n.startswith("item") or n == "flat damage")]
    assert not missing, missing
    assert set(SENTENCES) <= set(names)  # no sentence for a kind the engine never logs


def test_every_sentence_reads_its_fields():
    """Every field set to 1 (entities then read as the label of row 1): each sentence is built
    from its event's own fields (a field it names but the event lacks would raise here)."""
    labels, apocs = ["Alpha (T1)", "Beta (T2)"], ("The Storm", "The Flood")
    for name, fields, _ in EVENTS.values():
        if name in SENTENCES:
            ev = {"event": name, "rotation": 3, **{f: 1 for f in fields}}
            text = _text(name, ev, labels, apocs)
            assert isinstance(text, str) and text and "{" not in text, (name, text)
            assert "Alpha (T1)" not in text, (name, text)  # row 1 is Beta
