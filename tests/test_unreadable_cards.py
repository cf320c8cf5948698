"""A card-folder file that cannot be read (permission denied) is one line naming it, exit 2, no
traceback (the guide: bad input "gets one line per problem naming file, line and field").

The machine runs as root, where ``chmod 000`` still reads, so the refusal is made where the
lab reads: ``Path.read_bytes`` / ``read_text`` raise the ``PermissionError`` the system would
give for that one file (the audit of stop 67 left this case untested)."""

from __future__ import annotations

import errno
import pathlib
import shutil

import pytest

from sim.runner.drift_baseline import card_record
from tests._cli_kit import run

CARDS = pathlib.Path(__file__).resolve().parents[1] / "cards"


def _denied(monkeypatch, name):
    """Reading any file called ``name`` fails as an unreadable file does."""
    for method in ("read_bytes", "read_text"):
        real = getattr(pathlib.Path, method)

        def refusing(self, *args, _real=real, **kwargs):
            if self.name == name:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(pathlib.Path, method, refusing)


@pytest.fixture(scope="module")
def card_copy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cards") / "cards"
    shutil.copytree(CARDS, folder)
    return folder


@pytest.mark.parametrize("name", sorted(p.name for p in CARDS.iterdir()
                                        if p.suffix in (".csv", ".toml")))
def test_validate_names_a_card_file_it_cannot_read(capsys, monkeypatch, card_copy, name):
    _denied(monkeypatch, name)
    code, out, err = run(capsys, "validate", card_copy)
    lines = [line for line in err.splitlines() if name in line]
    assert code == 2, (out, err)
    assert lines and all("cannot be read: Permission denied" in line for line in lines), err
    assert len(lines) == 1, err


def test_a_stray_file_that_cannot_be_read_is_named_by_the_drift_digest(monkeypatch, tmp_path):
    """No loader reads a stray ``notes.csv``, but the drift baseline digests every designer
    file: one it cannot read raises the OSError naming it (the CLI prints it as one line)."""
    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    (folder / "notes.csv").write_text("a designer's notes\n")
    _denied(monkeypatch, "notes.csv")
    with pytest.raises(OSError) as caught:
        card_record(folder)
    assert caught.value.filename == str(folder / "notes.csv")
    assert caught.value.strerror == "Permission denied"
