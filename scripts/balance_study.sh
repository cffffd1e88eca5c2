#!/bin/bash
# The balance study of docs/balance.md in resumable chunks: 100,000 four-player Rolling Stock Stars
# games (20 chunks of 5,000) and 20,000 Rolling Freight games per map and player count (4 chunks of
# 5,000 each), the strongest batch bot (`bot`, the heuristic) in every seat.
#
# Usage: scripts/balance_study.sh stars|freight [DIR]   (DIR: where the results go; default results/)
#
# Each chunk is one `rolling simulate` run writing its own Parquet file; a chunk whose file exists
# is skipped, so the script can be stopped and started again (a stopped chunk is played again).
# Stars chunk k uses seed 1 + 5000 k, so the 20 chunks are exactly the games of one run with
# --seed 1 --games 100000 (game seeds 1..100000; seats rotate by game index, and 5000 is a multiple
# of 4). Freight chunk k uses seed k (game seeds k * 1000003 + i: disjoint). Run the two kinds side
# by side to use two cores; then:
#   rolling report DIR/stars-4p-*.parquet --out stars-4p.md      (or .html)
#   rolling report DIR/freight-*.parquet --out freight.md
set -euo pipefail
kind=${1:?stars or freight}
dir=${2:-results}
mkdir -p "$dir"
cd "$dir"
run() {  # run FILE ARGS...: one chunk, written under a temporary name and renamed when complete
    local f=$1; shift
    [ -f "$f" ] && return 0
    nice -n 19 rolling simulate "$@" --workers 1 --out "tmp-$f" > "log-${f%.parquet}.txt" 2>&1
    mv "tmp-$f" "$f"
}
if [ "$kind" = stars ]; then
    for k in $(seq 0 19); do
        run "stars-4p-$k.parquet" stars --games 5000 --seats bot,bot,bot,bot --seed $((1 + k * 5000))
    done
elif [ "$kind" = freight ]; then
    for k in 1 2 3 4; do
        for cfg in "west-coast 2" "west-coast 3" "west-coast 4" "southern 3" "southern 4" "southern 5"; do
            set -- $cfg
            seats=$(printf 'bot,%.0s' $(seq "$2")); seats=${seats%,}
            run "freight-$1-$2p-$k.parquet" freight --map "$1" --games 5000 --seats "$seats" --seed "$k"
        done
    done
else
    echo "usage: scripts/balance_study.sh stars|freight [DIR]" >&2
    exit 2
fi
