#!/bin/bash
# The container's health check: GET /healthz on the server's operator's port (9090, or the first
# argument), healthy when it answers 200. It uses bash's own /dev/tcp, since the runtime image has no HTTP
# client and needs none for anything else.
#   carc-healthz [PORT]
set -euo pipefail
port="${1:-9090}"
if ! { exec 3<> "/dev/tcp/127.0.0.1/$port"; } 2> /dev/null; then
  echo "carc-healthz: nothing listens on port $port" >&2
  exit 1
fi
printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
status=""
IFS=$' \r' read -r -t 5 _ status _ <&3 || true
if [ "$status" != "200" ]; then
  echo "carc-healthz: GET /healthz on port $port answered '${status:-nothing}'" >&2
  exit 1
fi
