"""Throw-away certificates made by the tests with the openssl CLI: a private CA and a server
certificate for ``localhost`` signed by it (EC P-256, valid two days)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"


@dataclass(frozen=True)
class Certs:
    ca: Path
    cert: Path
    key: Path


def _run(*args: str, cwd: Path) -> None:
    subprocess.run([OPENSSL, *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_certs(dir: Path, hostname: str = "localhost") -> Certs:
    dir.mkdir(parents=True, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    _run(
        "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", "/CN=mahjong test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=dir,
    )  # fmt: skip
    _run("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", f"/CN={hostname}",
         cwd=dir)  # fmt: skip
    (dir / "ext.cnf").write_text(
        f"subjectAltName=DNS:{hostname}\nextendedKeyUsage=serverAuth\n"
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
    )
    _run(
        "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf",
        cwd=dir,
    )  # fmt: skip
    return Certs(dir / "ca.pem", dir / "server.pem", dir / "server.key")
