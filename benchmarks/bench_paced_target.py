"""The paced target side by side: server CPU per action of one mahjong-server at about one action per room per second, against the bare websockets baseline's CPU per broadcast in the same run.

Starts its own redis-server (no persistence) and one ``mahjong-server`` (extra arguments go
to the server), then runs ``mahjong-loadtest --rooms R --interval I --duration D --baseline``
with the server's and Redis's pids, and prints both parts' CPU per action, latency and their
ratio.

    python benchmarks/bench_paced_target.py --rooms 150 --interval 1.8 --duration 30
    python benchmarks/bench_paced_target.py --rooms 150 -- --bot-processes 0 --snapshot-every 1
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from server.embedded import EmbeddedRedis
from server.procs import server_command, start_listening

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rooms", type=int, default=150)
    p.add_argument("--interval", type=float, default=1.8)
    p.add_argument("--duration", type=float, default=30)
    p.add_argument("server_args", nargs="*", help="extra mahjong-server arguments (after --)")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-paced-"))
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False)
    red.start()
    sproc, port = start_listening(
        server_command("--redis-url", red.url, "--log-level", "WARNING", *args.server_args),
        stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    try:
        cmd = [
            sys.executable, "-m", "loadtest.cli", "--url", f"ws://127.0.0.1:{port}/",
            "--rooms", str(args.rooms), "--interval", str(args.interval),
            "--duration", str(args.duration), "--connect-rate", "50", "--baseline",
            "--server-pid", str(sproc.pid), "--json", str(tmp / "out.json"), "--quiet",
        ]  # fmt: skip
        if red.proc is not None:
            cmd += ["--server-pid", str(red.proc.pid)]
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        rep = json.loads((tmp / "out.json").read_text())
        out = {}
        for part in ("game", "baseline"):
            r = rep[part]
            lat = r["latency_action_to_all_four"]
            out[part] = {
                "actions_per_s": r["actions_per_s"],
                "cpu_us_per_action": r.get("cpu_us_per_action"),
                "p50_ms": lat["p50_ms"],
                "p99_ms": lat["p99_ms"],
                "p999_ms": lat["p999_ms"],
                "errors": r["errors_total"],
                "events_frames_per_action": r["events_frames_per_action"],
            }
        game_cpu = (out["game"]["cpu_us_per_action"] or {}).get(str(sproc.pid))
        base_cpu = next(iter((out["baseline"]["cpu_us_per_action"] or {}).values()), None)
        if game_cpu and base_cpu:
            out["server_cpu_ratio"] = round(game_cpu / base_cpu, 2)
        print(json.dumps(out, indent=2))
    finally:
        sproc.terminate()
        sproc.wait(20)
        red.stop(15)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
