#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the rooms' tests, from Debian's `postgresql` package.
#
#   scripts/pg-cluster.sh start DIR   # initdb in DIR, start on a free local port, print the URL
#   scripts/pg-cluster.sh stop DIR    # stop it at once (DIR is then the caller's to remove)
#   scripts/pg-cluster.sh resume DIR  # start a stopped cluster again, on the same port
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user the
# package creates. It listens on 127.0.0.1 only and trusts local connections: never for data.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
  echo "pg-cluster: PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 1
fi

as_owner() {
  if [[ $EUID -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

cmd=${1:?start or stop}
dir=${2:?a directory for the cluster}
case "$cmd" in
  start)
    mkdir -p "$dir"
    if [[ $EUID -eq 0 ]]; then
      chown postgres: "$dir"
      if ! runuser -u postgres -- test -w "$dir"; then
        echo "pg-cluster: the postgres user cannot reach $dir (make its parents readable)" >&2
        exit 1
      fi
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U mnk --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1
    for _ in 1 2 3 4 5; do
      port=$((20000 + RANDOM % 30000))
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
          -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on" start >/dev/null; then
        as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U mnk mnk
        echo "$port" >"$dir/port.txt"
        echo "postgres://mnk@127.0.0.1:$port/mnk"
        exit 0
      fi
    done
    echo "pg-cluster: PostgreSQL did not start; see $dir/server.log" >&2
    exit 1
    ;;
  resume)
    # An outage's end: the same data and port, so clients find it where it was.
    port=$(cat "$dir/port.txt")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=on" start >/dev/null
    ;;
  stop)
    if [[ -d "$dir/data" ]]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "pg-cluster: start DIR, stop DIR or resume DIR" >&2
    exit 2
    ;;
esac
