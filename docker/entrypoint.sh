#!/bin/sh
# The container's entry point: carc-server with the image's settings (/etc/carc/carc.toml, or the
# file CARC_CONFIG names), then the container's arguments, which override the file.
#
# The shard name (docs/operations.md, "Shards"): CARC_SHARD when it is set. Otherwise, when
# CARC_SHARD_PREFIX is set, the prefix followed by the number that ends the host name: a
# StatefulSet's pod carc-2 with the prefix s is shard s2 (a shard name may not hold '-'). Neither:
# the server is alone.
set -eu

shard="${CARC_SHARD:-}"
if [ -z "$shard" ] && [ -n "${CARC_SHARD_PREFIX:-}" ]; then
  # HOSTNAME is the environment's (Docker and Kubernetes set it to the container's host name).
  # shellcheck disable=SC3028
  host="${HOSTNAME:-$(uname -n)}"
  ordinal="${host##*-}"
  case "$ordinal" in
    '' | *[!0-9]* | "$host")
      echo "carc-entrypoint: the host name '$host' does not end in -NUMBER:" \
        "CARC_SHARD_PREFIX needs one (or set CARC_SHARD)" >&2
      exit 2
      ;;
  esac
  shard="$CARC_SHARD_PREFIX$ordinal"
fi
if [ -n "$shard" ]; then
  set -- --shard "$shard" "$@"
fi
exec carc-server --config "${CARC_CONFIG:-/etc/carc/carc.toml}" "$@"
