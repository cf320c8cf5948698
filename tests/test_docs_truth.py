"""The docs tell the truth: code behaviour that README.md or docs/*.md promise.

Found by the docs audit of 2026-12-06 (each was a strict xfail first, failing on the code at
its assertion): README "Limits" promises one line and exit 2 for a bad ``--scheduler``, and a
port where something other than a Dask scheduler answers was a traceback.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from sim.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def _not_a_scheduler():
    """A loopback TCP server that answers every connection the way a web server on the wrong
    port would (an HTTP error), then hangs up: something listens, but it is no Dask scheduler.
    Returns (port, stop)."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    done = threading.Event()

    def serve():
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def stop():
        done.set()
        thread.join(2)
        server.close()

    return server.getsockname()[1], stop


def test_a_scheduler_address_where_no_dask_scheduler_answers_is_one_line_exit_2(
        capsys, tmp_path):
    pytest.importorskip("distributed")
    port, stop = _not_a_scheduler()
    try:
        code = main(["run", str(ROOT / "experiments" / "smoke.toml"), "--backend", "dask",
                     "--scheduler", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path / "o"),
                     "--cards", str(ROOT / "cards"), "--no-progress"])
    finally:
        stop()
    out, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2
    assert len(lines) == 1 and lines[0].startswith(f"error: tcp://127.0.0.1:{port}")
    assert "Traceback" not in out + err
    assert not (tmp_path / "o").exists()
