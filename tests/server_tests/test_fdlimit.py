"""``protocol.fdlimit.raise_nofile_limit`` (what the server's and the load-test harness's
entry points call first, for thousands of sockets) raises the soft open-file limit: checked
in a child process started with a low soft limit. That the entry points call it is not
checked here."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
from protocol.fdlimit import raise_nofile_limit
print(json.dumps([raise_nofile_limit(), list(resource.getrlimit(resource.RLIMIT_NOFILE)), hard]))
"""


def test_open_file_limit_is_raised_to_the_hard_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    out = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, check=True
    )
    returned, now, child_hard = json.loads(out.stdout)
    assert now == returned
    assert child_hard == hard
    expected = hard if hard != resource.RLIM_INFINITY else now[0]
    assert now[0] == expected and now[0] > 256
