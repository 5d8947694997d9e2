#!/usr/bin/env bash
# A self-signed certificate for the compose deployment (deploy/certs/), for a private game
# among friends without a public domain. Players then pass the certificate to the CLI as the
# CA to trust (its --ca-file option); never switch verification off instead.
#   ./make-selfsigned-cert.sh play.example.org [more names or IPs...]
# For a public domain use certbot instead and copy fullchain.pem/privkey.pem to deploy/certs/.
set -euo pipefail
cd "$(dirname "$0")"
out="${CERT_DIR:-certs}"
[ $# -ge 1 ] || { echo "usage: $0 HOSTNAME [HOSTNAME|IP ...]" >&2; exit 2; }
san=""
for n in "$@"; do
  if [[ "$n" =~ ^[0-9.]+$ || "$n" == *:* ]]; then san+="IP:$n,"; else san+="DNS:$n,"; fi
done
mkdir -p "$out"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 825 \
  -keyout "$out/privkey.pem" -out "$out/fullchain.pem" -subj "/CN=$1" \
  -addext "subjectAltName=${san%,}" -addext "extendedKeyUsage=serverAuth" \
  -addext "basicConstraints=critical,CA:FALSE"
chmod 600 "$out/privkey.pem"
echo "wrote $out/fullchain.pem (give this file to the players) and $out/privkey.pem"
