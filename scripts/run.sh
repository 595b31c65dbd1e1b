#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the game server on this machine,
# saying how to connect.
#   ./scripts/run.sh [port [carc-server flags...]]   (default 8080; listens on 127.0.0.1 only
#   unless a flag such as --address 0.0.0.0 says otherwise)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
carc_install_deps

port="${1:-8080}"
shift || true  # anything after the port goes to carc-server as it is, e.g. --address 0.0.0.0
db="${XDG_STATE_HOME:-$HOME/.local/state}/carc/games.db"  # the server's default (docs/persistence.md)
./scripts/build-release.sh  # the same build as the container image's

client=./build/release/tools/carc-client/carc-client
cat <<TXT
==> Carcassonne: The City on http://127.0.0.1:$port/  (open it in a browser; the WebSocket is
    ws://127.0.0.1:$port/, health: http://127.0.0.1:$port/healthz)
    From another terminal:
      $client --server ws://127.0.0.1:$port bots --seats 4      # four bots play a whole game
      $client --server ws://127.0.0.1:$port create --seats 2    # a game for you and a friend:
      $client --server ws://127.0.0.1:$port join GAME_ID        #   each player joins and gets a token,
      $client --server ws://127.0.0.1:$port play GAME_ID --token TOKEN   # then plays
    Games are kept in $db
      (an unfinished game carries on when the server starts again; inspect it with
       build/release/tools/carc-db/carc-db --db $db list). Stop the server with Ctrl-C.
TXT
exec ./build/release/server/carc-server --port "$port" --db "$db" --web-root web/dist "$@"
