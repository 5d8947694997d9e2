"""scripts/test stops the compiled build it started in the background when a step fails
before the build is waited for (it used to leave mypyc and its compilers running)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: scripts/_venv.sh as scripts/test sees it: a background "build" (a job with a child of its
#: own, as mypyc's compilers are) in a process group of its own, NATIVE_BUILD_PID its id
VENV_STUB = """
NATIVE_BUILD_PID=""
if [ -n "${_VENV_BUILD_BACKGROUND:-}" ]; then
  setsid bash -c 'sleep 300 & echo $! > build-child.pid; wait' >/dev/null 2>&1 &
  NATIVE_BUILD_PID=$!
fi
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is gone for our purpose
        return " Z " not in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except OSError:
        return False


def test_a_failing_step_stops_the_background_build(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "test", tmp_path / "scripts" / "test")
    (tmp_path / "scripts" / "_venv.sh").write_text(VENV_STUB)
    # the first step after the setup fails: the lock check
    (tmp_path / "scripts" / "lock.py").write_text("import sys\nsys.exit(1)\n")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "test")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    pid_file = tmp_path / "build-child.pid"
    for _ in range(100):  # (the stub writes it as it starts)
        if pid_file.exists() and pid_file.read_text().strip():
            break
        time.sleep(0.05)
    child = int(pid_file.read_text())
    try:
        assert run.returncode != 0 and "== the lock" in run.stdout
        end = time.monotonic() + 5
        while _alive(child) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive(child), "the background build outlived the failed run"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def test_the_background_build_has_a_process_group_of_its_own() -> None:
    """What the stub above stands for: scripts/_venv.sh starts the background build with
    setsid, so NATIVE_BUILD_PID names its process group."""
    venv = (ROOT / "scripts" / "_venv.sh").read_text()
    assert 'setsid flock .venv/native-build.lock bash -c "$(declare -f _native_build)' in venv
