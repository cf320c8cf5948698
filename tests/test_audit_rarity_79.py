"""Audit of `bwlab rarity` from a designer's seat (stop 79, helper "rarity")."""
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sim.cli import rarity_text


def _answer(**kw):
    a = {"card": "Caped Comet", "rarity": "Diamond", "verdict": "undecided",
         "games_to_settle": 2919, "win_rate": 0.195, "win_low": 0.155, "win_high": 0.241,
         "games": 636, "plays_like": "Silver", "rating": -0.408, "rating_low": -0.636,
         "rating_high": -0.179, "band_low": -0.088, "band_high": 0.028,
         "power_band": (86, 115), "power": 51.7, "power_in_band": False,
         "power_curve": "cards/power_curve.toml"}
    a.update(kw)
    return a


def _echo(answers):
    @click.command()
    def cmd():
        rarity_text.echo_answers(answers, 2000)
    return CliRunner().invoke(cmd).output


def test_undecided_card_whose_interval_is_outside_its_band_says_why():
    # Seen: rarity --games 2000 --card "Caped Comet" (Diamond, max_health 56, base 6):
    # "not shown outside its band nor inside it (undecided) ... rating -0.408 [-0.636, -0.179]
    # vs band [-0.088, +0.028]": the interval lies wholly below the band, the verdict (Holm over
    # 72 cards) does not say why it still is undecided.
    out = _echo([_answer()])
    assert "undecided" in out
    low = out.lower()
    assert any(w in low for w in ("holm", "corrected", "cards in play", "multiple"))


def test_undecided_card_line_names_band_and_interval():
    out = _echo([_answer(rating=-0.05, rating_low=-0.3, rating_high=0.2)])
    assert "[-0.300, +0.200] vs band [-0.088, +0.028]" in out
    assert "OUTSIDE the Diamond band 86–115" in out


@pytest.mark.parametrize("args, needle", [
    (["--card", "Mairo"], "unknown card 'Mairo'"),
    (["--games", "0"], "--games"),
    (["--correction", "foo"], "--correction"),
    (["--remedy-card", "Mario"], "--remedy"),
    (["--seed", "-1"], "--seed"),
])
def test_bad_flags_one_line_exit_2(args, needle, tmp_path):
    p = subprocess.run([sys.executable, "-m", "sim.cli.main", "rarity", "-q", "--out",
                        str(tmp_path), *args], capture_output=True, text=True, timeout=30,
                       cwd=Path(__file__).resolve().parents[1])
    assert p.returncode == 2
    lines = (p.stdout + p.stderr).strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines
    assert "Traceback" not in p.stderr
