"""Shared helpers of the games-journal tests (tests/test_journal_*.py; sim/runner/journal.py):
the repository root, the ``Interrupt`` failure and ``_interrupting_loop`` (the game loop patched
to fail part-way)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Interrupt(RuntimeError):
    """A failure part-way (the journal keeps the games of any command that does not end)."""


def _interrupting_loop(monkeypatch, after_games: int, error=Interrupt):
    """The engine loop, raising Ctrl-C once ``after_games`` games were played; returns the list
    of games each engine call played."""
    from sim.ai import play as loop

    real, played = getattr(loop.play_many, "real", loop.play_many), []

    def play_many(*args, **kwargs):
        if sum(played) >= after_games:
            raise error
        out = real(*args, **kwargs)
        played.append(len(args[2]))
        return out

    play_many.real = real
    monkeypatch.setattr(loop, "play_many", play_many)
    return played
