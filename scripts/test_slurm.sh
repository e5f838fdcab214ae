#!/usr/bin/env bash
# Runs scripts/slurm_matrix.sbatch under a real Slurm, on this machine alone, and checks that the
# merged shards equal a single run byte for byte (scripts/local_shards.sh does the same without
# Slurm).
#
#   scripts/test_slurm.sh        # as root; prints PASS or FAIL last; exit code 0 on PASS, else 1
#
# What it does:
#   1. installs Debian's slurm-wlm and munge with apt-get, unless slurmctld, slurmd, sbatch, sinfo
#      and munged are already there;
#   2. builds tcgsim (cargo build --release), unless TCGSIM_BIN names a binary;
#   3. starts a private munged, slurmctld and slurmd as root, directly (no systemd), with a
#      one-node, one-partition configuration under a temporary folder: this host's name as the
#      node, nproc CPUs, select/cons_tres, proctrack/linuxproc, no cgroups, no accounting, ports
#      on 127.0.0.1 only; nothing is written to /etc, /run or /var;
#   4. submits the array job (sbatch --array=1-SHARDS --cpus-per-task=1 --wait) in a scratch folder
#      holding target/release/tcgsim and decks/ as links, so the repository's results/ is never
#      touched, and checks that every array task completed with exit code 0 (sbatch --wait's status,
#      the job completion log, and each shard's run.json naming its part i/SHARDS);
#   5. merges the shards with tcgsim merge, runs the same matrix once without Slurm, and compares
#      matchups.csv, lengths.csv, matrix.csv and matrix.svg byte for byte;
#   6. on exit, cancels the job if it is still there and stops the three daemons it started (by
#      their process ids); the scratch folder is removed, or kept when the test failed.
#
# Needs: root (the daemons and apt-get), apt-get for the first run, cargo unless TCGSIM_BIN is set,
# and free TCP ports 16817/16818 on 127.0.0.1.
# Takes: about 20 s once Slurm is installed and tcgsim is built (10 s of it is sbatch --wait
# polling the controller); the install adds from a few seconds (packages in apt's cache) to a
# minute or two, a cold build of tcgsim about one.
#
# Environment: GAMES (games per matchup, 200), SHARDS (array tasks, 3), TCGSIM_BIN (a built
# binary; default: cargo build --release and ${CARGO_TARGET_DIR:-target}/release/tcgsim),
# SLURMCTLD_PORT / SLURMD_PORT (16817 / 16818), KEEP=1 to keep the scratch folder after a pass.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
games=${GAMES:-200}
shards=${SHARDS:-3}
ctld_port=${SLURMCTLD_PORT:-16817}
slurmd_port=${SLURMD_PORT:-16818}
# The sbatch script's defaults, passed to it and to the single run alike.
agent=heuristic
seed=1

say() { printf '[test_slurm] %s\n' "$*"; }
fail() {
  say "$*"
  echo "FAIL: scripts/slurm_matrix.sbatch under Slurm ($*)"
  exit 1
}

# ---- tcgsim invocations: the only places that know its command line ----------------------------
# tcgsim_single OUT: the whole matrix in one run, as the array job's shards together.
tcgsim_single() { "$bin" matrix --games "$games" --agent "$agent" --seed "$seed" --out "$1"; }
# tcgsim_merge OUT PART...: the shards' counts added up.
tcgsim_merge() {
  local out=$1
  shift
  "$bin" merge "$@" --out "$out"
}
# (The array tasks run the command in scripts/slurm_matrix.sbatch, with GAMES, AGENT and SEED.)
# -------------------------------------------------------------------------------------------------

[ "$(id -u)" -eq 0 ] || fail "must run as root (it installs packages and starts slurmctld, slurmd and munged)"

# 1. Slurm and munge.
if command -v slurmctld > /dev/null && command -v slurmd > /dev/null && command -v sbatch > /dev/null \
  && command -v sinfo > /dev/null && command -v munged > /dev/null; then
  say "slurm and munge already installed: $(slurmctld -V)"
else
  say "installing slurm-wlm and munge (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null
  say "installed: $(slurmctld -V)"
fi

# 2. tcgsim.
if [ -n "${TCGSIM_BIN:-}" ]; then
  bin=$(realpath "$TCGSIM_BIN")
else
  say "building tcgsim (cargo build --release)"
  (cd "$repo" && cargo build --release --quiet)
  target=${CARGO_TARGET_DIR:-target}
  case $target in /*) ;; *) target=$repo/$target ;; esac
  bin=$target/release/tcgsim
fi
[ -x "$bin" ] || fail "no tcgsim binary at $bin"
say "tcgsim: $bin"

# 3. A private one-node cluster under a scratch folder.
tmp=$(mktemp -d /tmp/tcgsim-slurm.XXXXXX)
# Every Slurm command from here on talks to the private cluster only, even inside a real job.
unset "${!SLURM_@}" "${!SBATCH_@}" "${!SRUN_@}"
export SLURM_CONF=$tmp/slurm.conf
pids=()
sbatch_pid=
passed=0

# A child that has exited but is not reaped yet (a zombie) is not alive.
alive() {
  local st
  st=$(ps -o stat= -p "$1" 2> /dev/null) && [ "${st:0:1}" != Z ]
}
cleanup() {
  local rc=$?
  set +e
  if [ -n "$sbatch_pid" ]; then kill "$sbatch_pid" 2> /dev/null; fi
  # An interrupted run: cancel what is left of the job (this private cluster runs nothing else),
  # and give the job steps, which outlive slurmd, a moment to end.
  if [ -n "$(squeue -h -o %i 2> /dev/null)" ]; then
    scancel --partition=test 2> /dev/null
    for _ in $(seq 30); do
      [ -z "$(squeue -h -o %i 2> /dev/null)" ] && break
      sleep 0.5
    done
  fi
  # Stop in reverse order of starting: slurmd, slurmctld, munged (slurmctld takes a few seconds).
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill "$pid" 2> /dev/null
    for _ in $(seq 100); do
      alive "$pid" || break
      sleep 0.2
    done
    if alive "$pid"; then kill -9 "$pid" 2> /dev/null; fi
    wait "$pid" 2> /dev/null
  done
  if [ "$passed" = 1 ] && [ -z "${KEEP:-}" ]; then
    rm -rf "$tmp"
  else
    say "scratch folder kept: $tmp (logs in $tmp/log)"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "FAIL: scripts/slurm_matrix.sbatch under Slurm (interrupted)"; exit 130' INT TERM

mkdir -p "$tmp"/{munge,state,spool,log,run,work}
chmod 700 "$tmp/munge"
# A key of its own, so the machine's /etc/munge/munge.key is neither needed nor used.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
# The daemons run in the foreground as this script's children, so their process ids are known
# at once (no pid file to wait for) and the trap above stops exactly these; each in a session of
# its own (setsid), so that a Ctrl-C or timeout meant for this script reaches them only through
# the trap, after the job has been cancelled.
setsid munged --foreground --force --socket="$tmp/munge/munge.socket" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
  --seed-file="$tmp/munge/munged.seed" > "$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/munge.socket" ] || fail "munged did not start; see $tmp/log/munged.log"
say "munged started (pid ${pids[-1]})"

node=$(hostname -s)
cpus=$(nproc)
cat > "$SLURM_CONF" << EOF
# One node, one partition, for scripts/test_slurm.sh.
ClusterName=tcgsim-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

setsid slurmctld -D -i > "$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
say "slurmctld started (pid ${pids[-1]})"
setsid slurmd -D > "$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
say "slurmd started (pid ${pids[-1]})"

state=
for _ in $(seq 60); do
  state=$(sinfo -h -N -n "$node" -o %t 2> /dev/null || true)
  [ "$state" = idle ] && break
  for pid in "${pids[@]}"; do alive "$pid" || fail "a daemon (pid $pid) exited; see $tmp/log"; done
  sleep 1
done
[ "$state" = idle ] || fail "node $node not idle after 60 s (state: '${state:-none}'); see $tmp/log"
sinfo -N -o '%N %P %t %c'

# 4. The array job, in a scratch folder laid out as the sbatch script expects.
work=$tmp/work
mkdir -p "$work/target/release" "$work/logs"
ln -s "$bin" "$work/target/release/tcgsim"
ln -s "$repo/decks" "$work/decks"
say "submitting: sbatch --array=1-$shards --cpus-per-task=1 --wait scripts/slurm_matrix.sbatch (GAMES=$games)"
started=$SECONDS
# sbatch runs in the background and this script waits for it, so that a signal to this script
# runs the trap at once rather than when the job ends.
GAMES=$games AGENT=$agent SEED=$seed sbatch --parsable --array="1-$shards" --cpus-per-task=1 \
  --chdir="$work" --output="$work/logs/slurm-%A_%a.out" --wait "$repo/scripts/slurm_matrix.sbatch" \
  > "$tmp/log/sbatch.out" &
sbatch_pid=$!
status=0
wait "$sbatch_pid" || status=$?
sbatch_pid=
out=$(cat "$tmp/log/sbatch.out")
job=${out%%;*}
say "job $job finished after $((SECONDS - started)) s; sbatch --wait exit status $status"
for f in "$work"/logs/*.out; do
  [ -s "$f" ] || continue
  say "--- ${f#"$work"/} (last lines)"
  tail -n 3 "$f"
done
[ "$status" -eq 0 ] || fail "sbatch --wait exited $status: some array task failed"

# Every array task must have a completion record (jobcomp/filetxt, one line per task) with state
# COMPLETED and exit code 0:0, and its part of the run (a shard's run.json says which).
ok=1
for i in $(seq 1 "$shards"); do
  rec=$(grep " ArrayJobId=$job ArrayTaskId=$i " "$tmp/log/jobcomp.txt" 2> /dev/null | tail -n 1 || true)
  st=$(sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' <<< "$rec")
  ec=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<< "$rec")
  # The shard tcgsim took from SLURM_ARRAY_TASK_ID/MIN/COUNT, as its run.json records it.
  part=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["shard"]; print(f"{s[0]}/{s[1]}")' \
    "$work/results/shard-$i/run.json" 2> /dev/null || true)
  say "task $i: state=${st:-none}, exit code ${ec:-none}; results/shard-$i/run.json is shard ${part:-none}"
  if [ "$st" != COMPLETED ] || [ "$ec" != 0:0 ] || [ "$part" != "$i/$shards" ]; then ok=0; fi
done
[ "$ok" = 1 ] || fail "an array task did not complete with exit code 0 and its shard (see $tmp/log/jobcomp.txt)"

# 5. Merge, single run, compare.
say "merging the $shards shards; running the same matrix once without Slurm"
parts=()
for i in $(seq 1 "$shards"); do parts+=("$work/results/shard-$i"); done
(cd "$work" && tcgsim_merge "$tmp/merged" "${parts[@]}") > "$tmp/log/merge.txt"
(cd "$work" && tcgsim_single "$tmp/single") > "$tmp/log/single.txt"
same=1
for f in matchups.csv lengths.csv matrix.csv matrix.svg; do
  if cmp "$tmp/merged/$f" "$tmp/single/$f"; then
    say "$f: identical ($(wc -c < "$tmp/single/$f") bytes)"
  else
    same=0
  fi
done
[ "$same" = 1 ] || fail "merged shards differ from the single run"
passed=1
echo "PASS: scripts/slurm_matrix.sbatch under Slurm: $shards array tasks exited 0; merged = single run (byte-identical), GAMES=$games"
