"""``server.process.procs.start_listening``: the port from the ``{"listening": port}`` line, and a
clear ``StartError`` (exit status, stderr) when a command exits, prints something else or
prints nothing in time. Real child processes (small Python scripts)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from server.process.procs import StartError, start_listening

pytestmark = pytest.mark.timeout(60)


def _py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_returns_the_port_and_keeps_draining_stdout(tmp_path: Path) -> None:
    # after its line it writes far more than a pipe holds, then waits to be stopped: it
    # would block (and never create the file) if nobody read its stdout
    code = (
        "import json, sys, time, pathlib\n"
        "print(json.dumps({'listening': 4321}), flush=True)\n"
        "sys.stdout.write('x' * 1_000_000); sys.stdout.flush()\n"
        "pathlib.Path(sys.argv[1]).touch(); time.sleep(60)\n"
    )
    done = tmp_path / "wrote-it-all"
    proc, port = start_listening([*_py(code), str(done)])
    try:
        assert port == 4321
        for _ in range(500):
            if done.exists():
                break
            time.sleep(0.02)
        assert done.exists(), "the process blocked on its stdout"
    finally:
        proc.kill()
        proc.wait()


def test_an_exit_before_listening_reports_status_and_stderr() -> None:
    code = "import sys; sys.stderr.write('no redis here\\n'); sys.exit(3)"
    with pytest.raises(StartError, match=r"^toy exited with 3 before listening: no redis here$"):
        start_listening(_py(code), name="toy")


def test_stderr_to_a_file_is_appended_and_reported(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("earlier run\n")
    code = "import sys; sys.stderr.write('bad flag\\n'); sys.exit(2)"
    with pytest.raises(StartError, match="exited with 2 before listening: earlier run\nbad flag"):
        start_listening(_py(code), stderr=log)
    assert log.read_text() == "earlier run\nbad flag\n"


def test_another_line_is_an_error_and_the_process_is_stopped() -> None:
    code = "import time; print('hello', flush=True); time.sleep(60)"
    t0 = time.monotonic()
    with pytest.raises(StartError, match="printed 'hello' instead of its listening line"):
        start_listening(_py(code))
    assert time.monotonic() - t0 < 30, "waited for the process instead of stopping it"


def test_no_line_in_time_is_an_error_with_what_stderr_had() -> None:
    code = (
        "import sys, time; sys.stderr.write('still loading\\n'); sys.stderr.flush(); time.sleep(60)"
    )
    t0 = time.monotonic()
    with pytest.raises(StartError, match=r"no listening line within 3 s: still loading"):
        start_listening(_py(code), timeout=3.0)
    assert time.monotonic() - t0 < 30
