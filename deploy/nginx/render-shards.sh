#!/usr/bin/env bash
# Writes nginx's configuration for carc-server shards behind one address (docs/operations.md,
# "Shards"):
#   /shard/NAME/...  -> the instance of shard NAME (WebSocket or HTTP), as /... there: the
#                       games whose ids name shard NAME live there, and only there
#   /shards          -> {"shards":["a","b",...]}, answered by nginx: how clients learn the shards
#   anything else    -> any instance that answers (lobby calls, creating a game, the web client's
#                       files, /healthz): a game created there belongs to that instance's shard
#
#   deploy/nginx/render-shards.sh [--standalone DIR] LISTEN NAME=HOST:PORT [NAME=HOST:PORT ...]
#
# LISTEN is what nginx's `listen` takes (8080, 127.0.0.1:8080). Without --standalone it prints the
# part that belongs inside nginx's `http { }` block (a conf.d file). With --standalone DIR it
# prints a whole configuration for `nginx -p DIR -c FILE -g 'daemon off;'`, its logs and
# temporary files under DIR (what the multi-instance test runs).
set -euo pipefail

usage() {
  echo "usage: $0 [--standalone DIR] LISTEN NAME=HOST:PORT [NAME=HOST:PORT ...]" >&2
  exit 2
}

standalone=""
if [ "${1:-}" = "--standalone" ]; then
  [ $# -ge 2 ] || usage
  standalone="$2"
  shift 2
fi
[ $# -ge 2 ] || usage
listen="$1"
shift

names=()
addresses=()
for pair in "$@"; do
  name="${pair%%=*}"
  address="${pair#*=}"
  # The server's rule for a shard name: a lowercase letter, then at most 15 letters or digits.
  if ! [[ "$name" =~ ^[a-z][a-z0-9]{0,15}$ ]] || [ "$address" = "$pair" ] || [ -z "$address" ]; then
    echo "$0: '$pair' is not NAME=HOST:PORT with a valid shard name" >&2
    exit 2
  fi
  for seen in "${names[@]}"; do
    if [ "$seen" = "$name" ]; then
      echo "$0: shard '$name' is named twice" >&2
      exit 2
    fi
  done
  names+=("$name")
  addresses+=("$address")
done

http_block() {
  echo "# Written by deploy/nginx/render-shards.sh: shards ${names[*]}."
  echo "map \$http_upgrade \$carc_connection {"
  echo "  default upgrade;"
  echo "  '' close;"
  echo "}"
  for i in "${!names[@]}"; do
    echo "upstream carc_shard_${names[$i]} {"
    echo "  server ${addresses[$i]};"
    echo "}"
  done
  echo "# Any instance: one that does not answer is passed over for the next."
  echo "upstream carc_any_shard {"
  for address in "${addresses[@]}"; do
    echo "  server ${address} max_fails=1 fail_timeout=2s;"
  done
  echo "}"
  local list=""
  for name in "${names[@]}"; do list+="${list:+,}\"$name\""; done
  cat <<EOF
server {
  listen ${listen};
  # A WebSocket lives for a whole game: no idle timeout shorter than a player's thinking.
  proxy_read_timeout 1h;
  proxy_send_timeout 1h;
  proxy_http_version 1.1;
  proxy_set_header Upgrade \$http_upgrade;
  proxy_set_header Connection \$carc_connection;
  proxy_set_header Host \$host;
  proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;

  location = /shards {
    default_type application/json;
    return 200 '{"shards":[${list}]}';
  }
  # The servers' figures are the operator's: on their operator's port, which this proxy does not
  # forward (docs/server.md, "Running it"); never through here, whatever a server's settings.
  location = /metrics {
    default_type application/json;
    return 404 '{"error":"not found"}';
  }
EOF
  for name in "${names[@]}"; do
    cat <<EOF
  location /shard/${name}/ {
    proxy_pass http://carc_shard_${name}/;
  }
EOF
  done
  cat <<EOF
  # A shard this proxy does not know.
  location /shard/ {
    default_type application/json;
    return 404 '{"error":"no such shard"}';
  }
  location / {
    proxy_next_upstream error timeout;
    proxy_connect_timeout 2s;
    proxy_pass http://carc_any_shard;
  }
}
EOF
}

if [ -z "$standalone" ]; then
  http_block
  exit 0
fi

cat <<EOF
# Written by deploy/nginx/render-shards.sh --standalone: run with
#   nginx -p ${standalone} -c FILE -g 'daemon off;'
worker_processes 1;
pid ${standalone}/nginx.pid;
error_log ${standalone}/error.log warn;
events {
  worker_connections 1024;
}
http {
  access_log ${standalone}/access.log;
  client_body_temp_path ${standalone}/client_body;
  proxy_temp_path ${standalone}/proxy;
  fastcgi_temp_path ${standalone}/fastcgi;
  uwsgi_temp_path ${standalone}/uwsgi;
  scgi_temp_path ${standalone}/scgi;
EOF
http_block | sed 's/^/  /'
echo "}"
