"""Static checks of everything under deploy/ (no Docker engine or Kubernetes here): the files
parse, fit together (names, labels, ports, probes), use only real server flags and variables,
and nginx / systemd accept their configs (``nginx -t``, ``systemd-analyze verify``)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path
from typing import Any

import leftovers
import pytest
import yaml
from drills.procs import NGINX, ROOT

from server.net.addresses import parse_networks
from server.process.config import Config, _env_name, build_parser

DEPLOY = ROOT / "deploy"
ENV_NAMES = {_env_name(f.name) for f in fields(Config)}
PORT = Config().port


def load_all(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def k8s_docs() -> list[dict[str, Any]]:
    docs = []
    for p in sorted((DEPLOY / "k8s").glob("*.yaml")):
        docs.extend(load_all(p))
    return docs


def one(docs: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [
        d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)
    ]
    assert len(found) == 1, (kind, name, len(found))
    return found[0]


# ------------------------------------------------------------------------------ Dockerfile


def server_packages() -> set[str]:
    """The repository's top-level packages reachable from ``server/`` by imports (including
    ``importlib.import_module("...")``)."""
    local = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    pattern = re.compile(
        r"^\s*(?:from|import)\s+([a-zA-Z_]\w*)|import_module\(\s*[\"']([a-zA-Z_]\w*)", re.M
    )
    seen: set[str] = set()
    todo = ["server"]
    while todo:
        pkg = todo.pop()
        if pkg in seen:
            continue
        seen.add(pkg)
        for f in (ROOT / pkg).rglob("*.py"):
            for a, b in pattern.findall(f.read_text(encoding="utf-8")):
                name = a or b
                if name in local and name not in seen:
                    todo.append(name)
    return seen


def test_dockerfile_is_slim_multistage_and_non_root():
    text = (DEPLOY / "Dockerfile").read_text()
    froms = re.findall(r"^FROM\s+(\S+)", text, re.M)
    # the browser client's Node stage, the Python build stage, the runtime image
    assert len(froms) == 3 and all("slim" in f for f in froms)
    assert "npm ci" in text and "COPY --from=web /src/server/webapp ./server/webapp" in text
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert int(users[-1].split(":")[0]) >= 1000
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", text, re.M)
    assert re.search(rf"^EXPOSE\s+{PORT}$", text, re.M)
    assert 'ENTRYPOINT ["mahjong-server"]' in text
    # every repository package the server needs (imports, transitively) is in the image
    needed = server_packages()
    assert {"server", "protocol", "table", "scoring"} <= needed
    for pkg in needed:
        assert f"COPY {pkg} ./{pkg}" in text, pkg
    for name in re.findall(r"\b(MAHJONG_[A-Z_]+)=", text):
        assert name in ENV_NAMES, name
    ignore = (ROOT / ".dockerignore").read_text().split()
    assert ".git" in ignore and ".venv" in ignore


# ---------------------------------------------------------------------------- compose


def compose() -> dict[str, Any]:
    doc = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    assert isinstance(doc, dict)
    return doc


def test_compose_has_redis_with_aof_three_servers_and_nginx():
    services = compose()["services"]
    servers = sorted(n for n in services if n.startswith("mahjong"))
    assert servers == ["mahjong1", "mahjong2", "mahjong3"]
    redis = services["redis"]
    cmd = redis["command"]
    assert cmd[cmd.index("--appendonly") + 1] == "yes"
    assert cmd[cmd.index("--appendfsync") + 1] in ("always", "everysec")
    assert "redis-data:/data" in redis["volumes"]
    assert "redis-cli" in redis["healthcheck"]["test"]
    for name in servers:
        s = services[name]
        env = s["environment"]
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert env["MAHJONG_HOST"] == "0.0.0.0"
        for key in env:
            assert key in ENV_NAMES, key
        # nginx's X-Forwarded-For is believed: the per-address limit counts each client
        assert parse_networks(env["MAHJONG_TRUSTED_PROXIES"])
        assert any("/readyz" in part for part in s["healthcheck"]["test"])
        assert s["depends_on"]["redis"]["condition"] == "service_healthy"
        assert s["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / s["build"]["context"] / s["build"]["dockerfile"]).is_file()
        assert s["read_only"] is True and "ALL" in s["cap_drop"]
    assert len({services[n]["environment"]["MAHJONG_SERVER_ID"] for n in servers}) == 3
    nginx = services["nginx"]
    assert {"80:80", "443:443"} <= set(nginx["ports"])
    assert all(nginx["depends_on"][n]["condition"] == "service_healthy" for n in servers)
    conf_mount = next(v for v in nginx["volumes"] if v.endswith("conf.d/default.conf:ro"))
    conf = DEPLOY / conf_mount.split(":")[0]
    text = conf.read_text()
    for n in servers:  # nginx balances over exactly the compose services
        assert f"server {n}:{PORT}" in text


# ------------------------------------------------------------------------- kubernetes


def test_k8s_manifests_fit_together():
    docs = k8s_docs()
    kinds = {d["kind"] for d in docs}
    assert {
        "Deployment",
        "Service",
        "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
        "StatefulSet",
        "Ingress",
    } <= kinds
    dep = one(docs, "Deployment", "mahjong-server")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    sel = dep["spec"]["selector"]["matchLabels"]
    assert sel.items() <= labels.items()
    pod = dep["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    (c,) = pod["containers"]
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    port = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert port["ws"] == PORT
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert c["readinessProbe"]["httpGet"]["port"] in ("ws", PORT)
    build_parser().parse_args(c["args"])  # only real flags
    env = {e["name"]: e for e in c["env"]}
    for name in env:
        assert name in ENV_NAMES, name
    assert parse_networks(env["MAHJONG_TRUSTED_PROXIES"]["value"])  # the ingress's pods
    assert pod["terminationGracePeriodSeconds"] > float(env["MAHJONG_SHUTDOWN_GRACE"]["value"])
    svc = one(docs, "Service", "mahjong-server")
    assert svc["spec"]["selector"].items() <= labels.items()
    assert svc["spec"]["ports"][0]["targetPort"] in ("ws", PORT)
    pdb = one(docs, "PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    hpa = one(docs, "HorizontalPodAutoscaler")
    ref = hpa["spec"]["scaleTargetRef"]
    assert (ref["kind"], ref["name"]) == ("Deployment", "mahjong-server")
    assert (
        hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    )
    # Redis: a StatefulSet with a volume and AOF, reachable at the URL the servers use
    sts = one(docs, "StatefulSet", "redis")
    rsvc = one(docs, "Service", sts["spec"]["serviceName"])
    assert rsvc["spec"]["clusterIP"] == "None"
    assert sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    conf = one(docs, "ConfigMap", "redis-config")["data"]["redis.conf"]
    assert "appendonly yes" in conf
    namespace = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())["namespace"]
    host = f"redis-0.{sts['spec']['serviceName']}.{namespace}.svc.cluster.local:6379"
    assert host in env["REDIS_URL"]["value"]
    ing = one(docs, "Ingress")
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == svc["metadata"]["name"]
    assert ing["spec"]["tls"][0]["secretName"]
    # kustomization lists every manifest file
    kust = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    files = {p.name for p in (DEPLOY / "k8s").glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kust["resources"]) == files


# ---------------------------------------------------------------------------- systemd


def systemd_exec_args() -> list[str]:
    text = (DEPLOY / "systemd" / "mahjong-server.service").read_text()
    line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
    return shlex.split(line.split("=", 1)[1])


def test_systemd_unit_uses_real_flags_and_verifies(tmp_path: Path):
    args = systemd_exec_args()
    assert args[0].endswith("/mahjong-server")
    build_parser().parse_args(args[1:])
    text = (DEPLOY / "systemd" / "mahjong-server.service").read_text()
    assert re.search(r"^User=(?!root)\w+", text, re.M)
    assert "Restart=on-failure" in text and "KillSignal=SIGTERM" in text
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # not every CI image has systemd; the flag check above still ran
        return
    unit = tmp_path / "mahjong-server.service"
    exe = shutil.which("mahjong-server") or str(Path(ROOT / ".venv/bin/mahjong-server"))
    unit.write_text(text.replace(args[0], exe))
    out = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    problems = [x for x in out.stderr.splitlines() if str(unit) in x]
    assert out.returncode == 0 and not problems, out.stderr


# ------------------------------------------------------------------------------ nginx


def render_nginx(conf: Path, dir: Path, certs: tuple[Path, Path], port_map: dict[str, str]) -> Path:
    """The shipped server-level config inside a minimal main config, with host names, ports
    and certificate paths swapped for ones that exist here."""
    text = conf.read_text()
    for old, new in port_map.items():
        text = text.replace(old, new)
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {certs[0]};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {certs[1]};", text)
    text = re.sub(r"listen \[::\]:\d+[^;]*;", "", text)  # no IPv6 on every test machine
    (dir / "tmp").mkdir(parents=True, exist_ok=True)
    main = dir / "nginx.conf"
    main.write_text(
        f"""
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {dir}/tmp;
  proxy_temp_path {dir}/tmp;
  fastcgi_temp_path {dir}/tmp;
  uwsgi_temp_path {dir}/tmp;
  scgi_temp_path {dir}/tmp;
{text}
}}
"""
    )
    return main


def nginx_test(main: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            NGINX,
            "-t",
            "-e",
            str(main.parent / "error.log"),
            "-p",
            str(main.parent),
            "-c",
            str(main),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from deploy_tests.certs import make_certs

    c = make_certs(tmp_path_factory.mktemp("nginx-certs"))
    return c.cert, c.key


@pytest.mark.parametrize("name", ["compose.conf", "single-box.conf"])
def test_nginx_accepts_the_shipped_configs(name: str, tmp_path: Path, certs):
    if not Path(NGINX).exists():
        pytest.fail("nginx missing: scripts/test installs it (scripts/ensure_system_deps.sh)")
    mapping = {f"mahjong{i}:{PORT}": f"127.0.0.1:{PORT + i}" for i in (1, 2, 3)}
    mapping.update(
        {"listen 80;": "listen 127.0.0.1:18080;", "listen 443 ssl;": "listen 127.0.0.1:18443 ssl;"}
    )
    mapping["/var/www/"] = f"{tmp_path}/www/"
    main = render_nginx(DEPLOY / "nginx" / name, tmp_path, certs, mapping)
    out = nginx_test(main)
    assert out.returncode == 0, out.stderr
    assert "syntax is ok" in out.stderr
    # and nginx does reject a broken one (the check is real)
    main.write_text(main.read_text().replace("proxy_http_version 1.1;", "proxy_http_version;", 1))
    assert nginx_test(main).returncode != 0


# ------------------------------------------------------- the configs, live, with wss://


async def test_single_box_nginx_terminates_tls_for_websockets(tmp_path: Path):
    """deploy/make-selfsigned-cert.sh makes the certificate, deploy/nginx/single-box.conf
    terminates TLS in front of a real mahjong-server: a client that trusts exactly that
    certificate plays the handshake over wss:// and reaches /healthz over https."""
    import http.client
    import signal

    import msgpack
    from drills.procs import RedisNode, ServerProcess, free_port, wait_until
    from websockets.asyncio.client import connect

    from protocol.tls import client_ssl_for_url, make_client_ssl_context

    out = subprocess.run(
        [str(DEPLOY / "make-selfsigned-cert.sh"), "localhost"],
        env={"CERT_DIR": str(tmp_path / "certs"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    cert, key = tmp_path / "certs" / "fullchain.pem", tmp_path / "certs" / "privkey.pem"
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    redis = RedisNode(tmp_path / "redis", "--appendonly", "no")
    server = ServerProcess("--redis-url", redis.url, log=tmp_path / "server.log")
    https, http_port = free_port(), free_port()
    main = render_nginx(
        DEPLOY / "nginx" / "single-box.conf",
        tmp_path / "nginx",
        (cert, key),
        {
            f"127.0.0.1:{PORT}": f"127.0.0.1:{server.port}",
            "listen 80;": f"listen 127.0.0.1:{http_port};",
            "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
            "/var/www/": f"{tmp_path}/www/",
        },
    )
    proc = subprocess.Popen(
        [NGINX, "-e", str(main.parent / "error.log"), "-p", str(main.parent), "-c", str(main)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    leftovers.track(proc)
    try:
        import socket

        def up() -> bool:
            assert proc.poll() is None, (main.parent / "error.log").read_text()
            with socket.create_connection(("127.0.0.1", https), timeout=1):
                return True

        wait_until(up, 15, "nginx")
        url = f"wss://localhost:{https}/"
        async with connect(url, ssl=client_ssl_for_url(url, ca_file=cert), open_timeout=10) as ws:
            await ws.send(msgpack.packb({"type": "hello", "v": 1, "name": "n", "id": 7}))
            reply = msgpack.unpackb(await ws.recv(), raw=False)
        assert reply["type"] == "welcome" and reply["re"] == 7
        c = http.client.HTTPSConnection(
            "localhost", https, context=make_client_ssl_context(cert), timeout=10
        )
        c.request("GET", "/healthz")
        r = c.getresponse()
        assert (r.status, r.read()) == (200, b"ok\n")
        c = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
        c.request("GET", "/x", headers={"Host": "localhost"})
        r = c.getresponse()
        assert r.status == 301 and r.getheader("Location") == "https://localhost/x"
    finally:
        proc.send_signal(signal.SIGQUIT)
        proc.wait(10)
        server.stop()
        redis.stop()


async def test_behind_the_single_box_nginx_the_forwarded_client_address_counts(
    tmp_path: Path, certs
):
    """``--max-conns-per-address`` behind deploy/nginx/single-box.conf counts each client by
    the address nginx forwards (``X-Forwarded-For $proxy_add_x_forwarded_for``), not by
    nginx's own: nginx connects from 127.0.0.2 (the one trusted proxy), clients from
    127.0.0.3 and 127.0.0.4. A client's own ``X-Forwarded-For`` changes nothing."""
    import signal
    import socket

    import msgpack
    from drills.procs import RedisNode, ServerProcess, free_port, wait_until
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    from protocol.tls import client_ssl_for_url

    redis = RedisNode(tmp_path / "redis", "--appendonly", "no")
    server = ServerProcess(
        "--redis-url", redis.url, "--max-conns-per-address", "2",
        "--trusted-proxies", "127.0.0.2", "--conn-limit-exempt", "",
        log=tmp_path / "server.log",
    )  # fmt: skip
    https, http_port = free_port(), free_port()
    main = render_nginx(
        DEPLOY / "nginx" / "single-box.conf",
        tmp_path / "nginx",
        certs,
        {
            f"127.0.0.1:{PORT}": f"127.0.0.1:{server.port}",
            "listen 80;": f"listen 127.0.0.1:{http_port};",
            "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
            "/var/www/": f"{tmp_path}/www/",
            "proxy_pass http://mahjong_local;\n        proxy_http_version 1.1;\n        "
            "proxy_set_header Upgrade": "proxy_pass http://mahjong_local;\n        "
            "proxy_bind 127.0.0.2;\n        proxy_http_version 1.1;\n        "
            "proxy_set_header Upgrade",
        },
    )
    assert "proxy_bind 127.0.0.2;" in main.read_text()
    proc = subprocess.Popen(
        [NGINX, "-e", str(main.parent / "error.log"), "-p", str(main.parent), "-c", str(main)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    leftovers.track(proc)
    url = f"wss://localhost:{https}/"
    opened = []

    async def open_from(source: str, forwarded: str | None = None):  # type: ignore[no-untyped-def]
        ws = await connect(
            url,
            ssl=client_ssl_for_url(url, ca_file=certs[0].parent / "ca.pem"),  # its CA
            open_timeout=10,
            local_addr=(source, 0),
            additional_headers={"X-Forwarded-For": forwarded} if forwarded else None,
        )
        opened.append(ws)
        await ws.send(msgpack.packb({"type": "hello", "v": 1, "name": "n", "id": 1}))
        reply = msgpack.unpackb(await ws.recv(), raw=False)
        assert reply["type"] == "welcome", reply
        return reply

    try:

        def up() -> bool:
            assert proc.poll() is None, (main.parent / "error.log").read_text()
            with socket.create_connection(("127.0.0.1", https), timeout=1):
                return True

        wait_until(up, 15, "nginx")
        welcome = await open_from("127.0.0.3")
        assert welcome["limits"]["max_conns_per_address"] == 2
        await open_from("127.0.0.3", forwarded="198.51.100.1")
        for forwarded in (None, "198.51.100.2"):
            with pytest.raises(InvalidStatus) as e:
                await open_from("127.0.0.3", forwarded)
            assert e.value.response.status_code == 429
            assert e.value.response.headers["Retry-After"] == "10"
        await open_from("127.0.0.4")  # another client, through the same nginx
    finally:
        for ws in opened:
            await ws.close()
        proc.send_signal(signal.SIGQUIT)
        proc.wait(10)
        server.stop()
        redis.stop()
