#!/usr/bin/env bash
# Several rolling processes on one machine and one PostgreSQL database, without containers (issue
# 30): N web processes (`rolling serve --no-worker`, each on its own port) and M workers
# (`rolling worker`), as compose.yaml runs them in production. The tests use it
# (tests/web/test_cluster.py).
#
#   scripts/cluster.sh start --db URL [--web N] [--workers M] [--port BASE | --ports P1,P2,...]
#                            [--processes K] [--bot-pace S] [--dir DIR]
#   scripts/cluster.sh add-worker [--dir DIR]      one more worker on the same database
#   scripts/cluster.sh status [--dir DIR]          the processes started, alive or not
#   scripts/cluster.sh stop [--dir DIR]            SIGTERM to all, SIGKILL after 10 s
#
# `start` prints one line per process once every web process answers /healthz:
#   web PID PORT
#   worker PID
# DIR (default .cluster, or $ROLLING_CLUSTER_DIR) keeps those lines (DIR/pids), the database URL
# and each process's log (DIR/web-K.log, DIR/worker-K.log). The command run is $ROLLING
# (default: `rolling`, else `python3 -m rolling.cli.main`).
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "cluster.sh: $*" >&2; exit 1; }

cmd=${1:-}; [ -n "$cmd" ] || usage; shift
dir=${ROLLING_CLUSTER_DIR:-.cluster}
db="" web=2 workers=1 base=8001 ports="" processes=1 pace=""
while [ $# -gt 0 ]; do
    case "$1" in
        --db) db=$2; shift 2 ;;
        --web) web=$2; shift 2 ;;
        --workers) workers=$2; shift 2 ;;
        --port) base=$2; shift 2 ;;
        --ports) ports=$2; shift 2 ;;
        --processes) processes=$2; shift 2 ;;
        --bot-pace) pace=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h|--help) usage ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

if [ -n "${ROLLING:-}" ]; then
    read -r -a run <<< "$ROLLING"
elif command -v rolling >/dev/null; then
    run=(rolling)
else
    run=(python3 -m rolling.cli.main)
fi
pace_args=()
[ -z "$pace" ] || pace_args=(--bot-pace "$pace")

start_worker() {  # $1: the worker's number (its log's name)
    "${run[@]}" worker --db "$db" --processes "$processes" "${pace_args[@]}" >"$dir/worker-$1.log" 2>&1 &
    echo "worker $!" >>"$dir/pids"
    echo "worker $!"
}

case "$cmd" in
start)
    [ -n "$db" ] || die "start needs --db postgresql+psycopg://..."
    case "$db" in postgresql*) ;; *) die "--db must be a PostgreSQL URL: several processes share no SQLite file" ;; esac
    if [ -s "$dir/pids" ]; then
        while read -r _ pid _; do
            kill -0 "$pid" 2>/dev/null && die "$dir already runs a cluster (pid $pid): stop it first"
        done <"$dir/pids"
    fi
    mkdir -p "$dir"
    : >"$dir/pids"
    printf '%s\n' "$db" >"$dir/db"
    printf '%s\n' "$processes" "$pace" >"$dir/options"  # (for add-worker)
    if [ -n "$ports" ]; then
        IFS=, read -r -a port_list <<< "$ports"
        web=${#port_list[@]}
    else
        port_list=()
        for ((k = 0; k < web; k++)); do port_list+=($((base + k))); done
    fi
    # the workers first: the queue's tables are made once (the first process takes a lock)
    for ((k = 1; k <= workers; k++)); do start_worker "$k" >/dev/null; done
    for ((k = 0; k < web; k++)); do
        port=${port_list[$k]}
        "${run[@]}" serve --no-worker --port "$port" --db "$db" "${pace_args[@]}" >"$dir/web-$((k + 1)).log" 2>&1 &
        echo "web $! $port" >>"$dir/pids"
    done
    deadline=$((SECONDS + 60))
    while read -r kind pid port; do
        [ "$kind" = web ] || continue
        until python3 - "$port" <<'EOF' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1).read()
EOF
        do
            kill -0 "$pid" 2>/dev/null || die "the web process on port $port stopped: see $dir/web-*.log"
            [ $SECONDS -lt $deadline ] || die "the web process on port $port did not answer within 60 s"
            sleep 0.2
        done
    done <"$dir/pids"
    cat "$dir/pids"
    ;;
add-worker)
    [ -s "$dir/db" ] || die "no cluster in $dir (start one first)"
    db=$(cat "$dir/db")
    { read -r processes; read -r pace; } <"$dir/options"
    pace_args=()
    [ -z "$pace" ] || pace_args=(--bot-pace "$pace")
    n=$(grep -c '^worker' "$dir/pids" || true)
    start_worker $((n + 1))
    ;;
status)
    [ -s "$dir/pids" ] || die "no cluster in $dir"
    while read -r kind pid port; do
        state=stopped
        kill -0 "$pid" 2>/dev/null && state=running
        echo "$kind $pid ${port:+$port }$state"
    done <"$dir/pids"
    ;;
stop)
    [ -s "$dir/pids" ] || exit 0
    pids=$(awk '{print $2}' "$dir/pids")
    for pid in $pids; do kill -TERM "$pid" 2>/dev/null || true; done
    for _ in $(seq 100); do
        alive=""
        for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
        [ -n "$alive" ] || break
        sleep 0.1
    done
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null || true; done
    : >"$dir/pids"
    ;;
*) usage ;;
esac
