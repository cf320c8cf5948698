"""Audit of stop 80 (progress and stops): what a Ctrl-C prints."""

from sim.cli.main import main


def _ctrl_c(*_a, **_k):
    raise KeyboardInterrupt


def test_ctrl_c_is_one_line_naming_the_command(monkeypatch, capsys):
    """Ctrl-C printed a blank line (click's) and a bare "aborted" naming no command, where
    SIGTERM prints one line "board: terminated (SIGTERM)"; since stop 80 "board: aborted
    (Ctrl-C)"."""
    import sim.report.board_text as bt

    monkeypatch.setattr(bt, "board_text", _ctrl_c)
    assert main(["board", "--seed", "1"]) == 130
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert "" not in lines, err
    assert lines[-1].startswith("board: "), err
