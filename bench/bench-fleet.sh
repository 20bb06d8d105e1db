#!/bin/sh
# SPDX-License-Identifier: MIT
# bench-fleet: python3 -m cgw.fleet's tree merge (python/cgw/fleet.py) on
# a LocalCluster of 1, 2 and 4 worker processes of one thread each,
# against one cgmerge process, over N small cggen files (seeds 1..N,
# BENCH_FLEET_SIZE each, 10K by default) made now.  For cgmerge: CPU
# (user + sys, GNU time), wall and peak RSS.  For the fleet: the wall
# time of the merge (the cluster already up; its start-up is given
# apart), the CPU of every worker process and of the client in that
# time, each worker's peak RSS, and the result compared with cgmerge's
# bytes; then the whole command (python3 -m cgw.fleet merge --local K,
# its cluster's start and stop included) against cgmerge's wall.  Needs
# a Python with Dask distributed (PYTHON if it has it, else python3,
# else /usr/bin/python3) and a shared libcgw.
#   [N] CGGEN=... CGMERGE=... CGW_LIBRARY=.../libcgw.so
#   PYTHONPATH=.../python bench/bench-fleet.sh
#   (BENCH_FLEET_FILES=N too; BENCH_FLEET_WORKERS="1 2 4")
set -u
N=${1:-${BENCH_FLEET_FILES:-10000}}
SIZE=${BENCH_FLEET_SIZE:-10K}
WORKERS=${BENCH_FLEET_WORKERS:-1 2 4}
CGGEN=${CGGEN:-./tools/cggen}
CGMERGE=${CGMERGE:-./tools/cgmerge}
TIME=/usr/bin/time
. "${CGW_SRCDIR:-$(dirname "$0")/..}/tests/dask-python.sh"
if ! dask_python distributed, cgw; then
    echo "bench-fleet: no Python with Dask distributed and cgw (PYTHONPATH, CGW_LIBRARY): not run"
    exit 0
fi
if ! "$TIME" -f '%U' -o /dev/null true 2>/dev/null; then
    echo "bench-fleet: no GNU time at $TIME: not run"
    exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
seq 1 "$N" | xargs -P 2 -I{} "$CGGEN" --seed {} --size "$SIZE" -o "$tmp/g{}.out" ||
    { echo "bench-fleet: cggen failed"; exit 1; }
bytes=$(cat "$tmp"/g*.out | wc -c)
echo "fleet: $N cggen files of $SIZE ($bytes bytes) made in $(($(date +%s) - start)) s;" \
    "$(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
ls "$tmp"/g*.out | sort >"$tmp/list"

"$TIME" -f '%U %S %e %M' -o "$tmp/t" "$CGMERGE" --quiet -o "$tmp/want" $(cat "$tmp/list") ||
    { echo "bench-fleet: cgmerge failed"; exit 1; }
read -r u s w r <"$tmp/t"
awk -v u="$u" -v s="$s" -v w="$w" -v r="$r" -v n="$N" 'BEGIN {
    printf "  %-22s cpu %8.2f s  wall %8.2f s  peak %7.1f MiB  %6.0f us CPU a profile\n",
        "cgmerge (1 process)", u + s, w, r / 1024, (u + s) * 1e6 / n }'

# the driver, a file: the workers are spawned processes, which import
# the main module again (guarded)
cat >"$tmp/drive.py" <<'EOF'
import logging, os, resource, sys, time
from dask.distributed import Client, LocalCluster
import cgw.fleet as fleet


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_maxrss


def main():
    k, listing, want = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    paths = open(listing).read().split()

    t0 = time.monotonic()
    cluster = LocalCluster(n_workers=k, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.ERROR)
    client = Client(cluster)
    up = time.monotonic() - t0
    before = client.run(usage)
    c0 = usage()[0]
    t1 = time.monotonic()
    data, skipped = fleet.merge_on(client, paths)
    wall = time.monotonic() - t1
    c1 = usage()[0]
    after = client.run(usage)
    cpu = sum(after[w][0] - before[w][0] for w in after)
    same = data == open(want, "rb").read()
    rss = " ".join("%.0f" % (after[w][1] / 1024) for w in sorted(after))
    idle = max(before[w][1] for w in before) / 1024
    batch = fleet.default_batch(len(paths), k)
    print("  %-22s cpu %8.2f s  wall %8.2f s  peak %s MiB a worker  %6.0f us CPU a profile"
          % ("fleet, %d worker%s" % (k, "s" if k > 1 else ""), cpu, wall, rss, cpu * 1e6 / len(paths)))
    print("  %-22s (a worker idle: %.0f MiB); client cpu %.2f s; cluster up in %.1f s;"
          " %d leaves of %d files; %s"
          % ("", idle, c1 - c0, up, -(-len(paths) // batch), batch,
             "the bytes of cgmerge" if same else "DIFFERENT BYTES FROM CGMERGE"))
    client.close()
    cluster.close()
    sys.exit(0 if same and not skipped else 1)


if __name__ == "__main__":
    main()
EOF
for k in $WORKERS; do
    "$py" "$tmp/drive.py" "$k" "$tmp/list" "$tmp/want" || exit 1
done
# what a user waits for: the whole command, its cluster started and
# stopped (the crossover with cgmerge in README.md's "Fleet merge")
for k in $WORKERS; do
    "$TIME" -f '%e' -o "$tmp/t" "$py" -m cgw.fleet merge --local "$k" -q -o "$tmp/got" \
        "@$tmp/list" || { echo "bench-fleet: python3 -m cgw.fleet failed"; exit 1; }
    cmp -s "$tmp/got" "$tmp/want" ||
        { echo "bench-fleet: python3 -m cgw.fleet --local $k: not the bytes of cgmerge"; exit 1; }
    printf '  %-22s wall %8.2f s  (python3 -m cgw.fleet merge --local %d, start to exit)\n' \
        "command, $k worker$([ "$k" -gt 1 ] && echo s)" "$(cat "$tmp/t")" "$k"
done
