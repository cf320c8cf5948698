"""One vocabulary across the CLI (issue #23, item 5): ``--cards`` names the card folder on every
command that reads one (``--cards-dir`` survives as the old spelling), and every option has a
help line, so ``bwlab CMD --help`` explains everything a user can type."""

from __future__ import annotations

import importlib

import pytest

from sim.cli.main import COMMANDS

READS_NO_CARDS = {"cluster-certs"}  # validate takes the folder as PATH (replay reads its board);
# cluster-certs writes certificates and reads no cards


def _command(name):
    module, attr, _ = COMMANDS[name]
    return getattr(importlib.import_module(module), attr)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_has_help(name):
    missing = [p.opts[0] for p in _command(name).params
               if p.param_type_name == "option" and not p.hidden and not (p.help or "").strip()]
    assert not missing, f"bwlab {name}: no help for {', '.join(missing)}"


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - READS_NO_CARDS - {"validate"}))
def test_the_card_folder_is_cards_everywhere(name):
    opts = {o for p in _command(name).params for o in getattr(p, "opts", [])}
    assert "--cards" in opts, f"bwlab {name} has no --cards"


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - READS_NO_CARDS))
def test_the_card_folder_default_is_said_alike(name):
    """Every command reads $BWLAB_CARDS before ./cards (README, "Limits and output paths"); its
    help says so, validate's PATH as much as the others' --cards (it said ./cards only)."""
    cmd = _command(name)
    texts = [p.help or "" for p in cmd.params if "--cards" in getattr(p, "opts", [])]
    if name == "validate":
        texts = [cmd.help or ""]
    assert texts and all("$BWLAB_CARDS, else ./cards" in " ".join(t.split()) for t in texts), \
        f"bwlab {name}: the card folder's default is not '$BWLAB_CARDS, else ./cards'"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_policy_help_names_every_player(name):
    """A --policy takes every spec of sim.ai.spec (README, docs/ai.md); its help lists them all
    (play's left out lookahead-rotation)."""
    import re

    from sim.engine.state.fields import POLICY_IDS

    for p in _command(name).params:
        if "--policy" in getattr(p, "opts", []):
            missing = [k for k in POLICY_IDS
                       if not re.search(rf"(?<![\w-]){k}(?![\w-])", p.help or "")]
            assert not missing, f"bwlab {name} --policy: its help names no {', '.join(missing)}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_help_shows_rst_markup(name):
    """--help prints the docstring as written: reST's ``double backticks`` reach the terminal
    (replay's did)."""
    cmd = _command(name)
    texts = [cmd.help or ""] + [p.help or "" for p in cmd.params if hasattr(p, "help")]
    assert not [t for t in texts if "``" in t or ":func:" in t], f"bwlab {name} --help"
