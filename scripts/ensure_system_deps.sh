#!/usr/bin/env bash
# Install the system packages the test suite needs (the failure drills start nginx) when they
# are missing. Idempotent: does nothing when everything is present. Only root can install;
# otherwise it prints what is missing and the drills that need it will fail with a clear error.
set -euo pipefail
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || [ -x /usr/bin/redis-cli ] || missing+=(redis-tools)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_system_deps: missing system packages: ${missing[*]} (install them as root:" \
    "apt-get install -y ${missing[*]})" >&2
  exit 0
fi
echo "ensure_system_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
  || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
# the Debian package starts a system nginx on port 80; the drills start their own instances
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet nginx 2>/dev/null; then
  systemctl stop nginx || true
  systemctl disable nginx >/dev/null 2>&1 || true
fi
