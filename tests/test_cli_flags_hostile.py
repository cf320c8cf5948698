"""Hostile flags (issue #22, item 5: "... and each CLI flag"): every numeric option of every
command refuses what is not a number of its kind — text, an empty string, NaN, infinities, an
overflowing float, a hexadecimal or fractional value for a whole number — with exit 2 and one
line ``error: bwlab CMD: ...``, no traceback, before any work starts."""

from __future__ import annotations

import importlib

import click
import pytest

from sim.cli.main import COMMANDS, main

NOT_A_NUMBER = ["x", "", "nan", "inf", "-inf", "1e999", "0x10"]
NOT_A_WHOLE_NUMBER = NOT_A_NUMBER + ["1.5", "1e3"]


def _numeric_options():
    cases = []
    for name in sorted(COMMANDS):
        module, attr, _ = COMMANDS[name]
        for p in getattr(importlib.import_module(module), attr).params:
            if p.param_type_name != "option" or p.is_flag:
                continue
            if isinstance(p.type, (click.types.IntParamType, click.IntRange)):
                cases += [(name, p.opts[0], v) for v in NOT_A_WHOLE_NUMBER]
            elif isinstance(p.type, (click.types.FloatParamType, click.FloatRange)):
                cases += [(name, p.opts[0], v) for v in NOT_A_NUMBER]
    return cases


CASES = _numeric_options()


def test_the_table_covers_every_command_with_numbers():
    assert len({c for c, _, _ in CASES}) >= 12


@pytest.mark.parametrize("command,option,value", CASES)
def test_a_numeric_flag_refuses_what_is_not_its_kind_of_number(capsys, command, option, value):
    code = main([command, option, value])
    out, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and "Traceback" not in out + err, err
    assert len(lines) == 1 and lines[0].startswith(f"error: bwlab {command}: "), err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_an_unknown_flag_in_one_line(capsys, command):
    """Issue #27 item 5: bad input on every sub-command (demo and report had none): exit 2, one
    line naming the command and the flag, no traceback."""
    code = main([command, "--no-such-flag"])
    out, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and "Traceback" not in out + err
    assert len(lines) == 1 and lines[0].startswith(f"error: bwlab {command}: ")
    assert "--no-such-flag" in lines[0]


def _options_with_a_value():
    cases = []
    for name in sorted(COMMANDS):
        module, attr, _ = COMMANDS[name]
        params = getattr(importlib.import_module(module), attr).params
        opt = next((p for p in params if p.param_type_name == "option" and not p.is_flag
                    and not p.count and p.nargs == 1), None)
        if opt is not None:
            cases.append((name, opt.opts[0]))
    return cases


@pytest.mark.parametrize("command,option", _options_with_a_value())
def test_an_option_missing_its_value_names_the_command(capsys, command, option):
    """``bwlab combat Luffy Mario --attacker-health`` (the value forgotten) said "error: bwlab:
    Option '--attacker-health' requires an argument. (see bwlab --help)": the one line named no
    command and sent the user to the wrong help (click's parser gives that error no context;
    the audit of 2026-12-05). It names the command and its help, as every other bad flag."""
    code = main([command, option])
    out, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and "Traceback" not in out + err, err
    assert lines == [f"error: bwlab {command}: Option '{option}' requires an argument. "
                     f"(see bwlab {command} --help)"], err
