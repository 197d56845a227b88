#!/usr/bin/env bash
# nexar under real Slurm, on this one machine: a private munge daemon, slurmctld and two slurmd
# (nodes n1 and n2, both this host: Debian's Slurm runs several slurmd per host), all in a
# temporary directory with free ports, stopped and removed at the end. Then the launches a user
# makes, each checked by its output and exit status:
#   srun --mpi=pmix / --mpi=pmi2 (one and two nodes), srun --mpi=none (refused, naming the
#   fixes; accepted with NEXAR_JOB_SECRET), PMIx without its library (refused, naming it), a
#   Rust program under PMIx, and inside sbatch / salloc allocations: the program run directly
#   (a world of one), mpiexec with no -n over a two-node allocation (the second node's ranks
#   started through srun), mpiexec -n 3, and srun.
#
#   scripts/slurm/check.sh [BUILD_DIR]      (default build/; needs its mpicc and mpiexec)
#
# Needs root (it starts the daemons) and Debian's slurm-wlm and munge (installed when missing).
# Without root it prints SKIPPED and exits 0: scripts/test.sh counts that line as a skip.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=$(cd "${1:-build}" && pwd)

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: scripts/slurm/check.sh needs root to start munged, slurmctld and slurmd"
  exit 0
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge"
  env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    slurm-wlm munge >/dev/null
fi

T=$(mktemp -d /tmp/nexar-slurm.XXXXXX)
chmod 755 "$T"
pids=()
cleanup() {
  for p in "${pids[@]}" $(cat "$T"/*.pid 2>/dev/null); do kill "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${pids[@]}" $(cat "$T"/*.pid 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$T" /tmp/spmix_appdir_0_* 2>/dev/null || true
}
trap cleanup EXIT

# A munge daemon of our own (own key and socket), so a system one is neither needed nor touched.
head -c 1024 /dev/urandom > "$T/munge.key"
chmod 600 "$T/munge.key"
munged --force --key-file="$T/munge.key" --socket="$T/munge.sock" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munge.seed" 2>/dev/null

read -r P_CTLD P_N1 P_N2 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
HOST=$(hostname -s)
cat > "$T/slurm.conf" <<EOF
ClusterName=nexarcheck
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$P_CTLD
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmUser=root
SlurmdUser=root
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd-%n.pid
SlurmdSpoolDir=$T/spool-%n
StateSaveLocation=$T/state
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd-%n.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=n1 NodeHostname=$HOST NodeAddr=127.0.0.1 Port=$P_N1 CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 State=UNKNOWN
NodeName=n2 NodeHostname=$HOST NodeAddr=127.0.0.1 Port=$P_N2 CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
mkdir -p "$T/state" "$T/spool-n1" "$T/spool-n2"
export SLURM_CONF=$T/slurm.conf
slurmctld
slurmd -N n1
slurmd -N n2
for _ in $(seq 60); do
  [ "$(sinfo -h -o '%t' 2>/dev/null | sort -u)" = "idle" ] && break
  sleep 0.5
done
sinfo

# The program, built with the shim's wrapper; mpiexec is the build's.
"$BUILD/wrappers/mpicc" scripts/slurm/where.c -o "$T/where"
MPIEXEC=$BUILD/bin/mpiexec
W=$T/where
cd "$T"

pass=0
fail=0
# check NAME EXPECTED_RC "GREP_PATTERN..." -- command...: runs the command (60 s at most),
# requires its exit status (0, or "fail" for any non-zero) and every pattern in its output.
check() {
  local name=$1 want=$2
  shift 2
  local pats=()
  while [ "$1" != "--" ]; do pats+=("$1"); shift; done
  shift
  local out rc=0
  out=$(timeout 60 "$@" 2>&1) || rc=$?
  local ok=1
  if [ "$want" = fail ]; then [ "$rc" -ne 0 ] || ok=0; else [ "$rc" -eq "$want" ] || ok=0; fi
  for p in "${pats[@]}"; do grep -q -e "$p" <<<"$out" || { ok=0; echo "   missing: $p"; }; done
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
    echo "ok   $name"
  else
    fail=$((fail + 1))
    echo "FAIL $name (exit $rc)"
    sed 's/^/     | /' <<<"$out" | tail -25
  fi
}

check "srun --mpi=pmix, 2 ranks" 0 "rank 0/2 node n1" "rank 1/2 node n1" -- \
  srun -N1 -n2 --mpi=pmix "$W" 2
check "srun --mpi=pmix, 4 ranks on 2 CPUs" 0 "rank 3/4 node n1" -- \
  srun -N1 -n4 -O --mpi=pmix "$W" 4
check "srun --mpi=pmi2, 4 ranks on 2 nodes" 0 "rank 0/4 node n1" "rank 3/4 node n2" -- \
  srun -N2 -n4 -O --mpi=pmi2 "$W" 4
check "srun --mpi=none is refused with the fixes named" fail "no job secret" "--mpi=pmix" \
  "--mpi=pmi2" "NEXAR_JOB_SECRET_FILE" -- srun -N1 -n2 --mpi=none "$W" 2
SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
check "srun --mpi=none with NEXAR_JOB_SECRET" 0 "rank 1/2 node n1" -- \
  env NEXAR_JOB_SECRET="$SECRET" srun -N1 -n2 --mpi=none "$W" 2
check "srun --mpi=pmix without libpmix names it" fail "libpmix2" "NEXAR_PMIX_LIB" -- \
  env NEXAR_PMIX_LIB=/nonexistent/libpmix.so.2 srun -N1 -n2 --mpi=pmix "$W" 2
if [ -x "$ROOT/target/debug/examples/allreduce_demo" ]; then
  check "a Rust program under srun --mpi=pmix" 0 "rank 1/2: allreduce of 65536 f64 verified" -- \
    srun -N1 -n2 --mpi=pmix "$ROOT/target/debug/examples/allreduce_demo"
fi

cat > batch.sh <<EOF
#!/bin/bash
echo "== direct"; "$W" 1; echo "direct rc=\$?"
echo "== mpiexec"; "$MPIEXEC" "$W" 4; echo "mpiexec rc=\$?"
echo "== mpiexec -n 3"; "$MPIEXEC" -n 3 "$W" 3; echo "mpiexec3 rc=\$?"
echo "== srun"; srun --mpi=pmi2 "$W" 4; echo "srun rc=\$?"
EOF
chmod +x batch.sh
jid=$(sbatch --parsable -N2 -n4 -O -o batch.out batch.sh)
for _ in $(seq 120); do squeue -h -j "$jid" 2>/dev/null | grep -q . || break; sleep 0.5; done
# The batch output as one command's output: every section must have run and passed.
check "sbatch -N2 -n4: direct run, mpiexec (srun for n2), mpiexec -n 3, srun" 0 \
  "rank 0/1 node n1 step none" "direct rc=0" \
  "rank 0/4 node n1" "rank 1/4 node n1" "rank 2/4 node n2 step 0" "rank 3/4 node n2 step 0" \
  "mpiexec rc=0" "rank 2/3 node n2" "mpiexec3 rc=0" "srun rc=0" -- cat batch.out
check "salloc -n3: mpiexec runs the allocation's task count" 0 "rank 2/3" -- \
  salloc -N1 -n3 -O "$MPIEXEC" "$W" 3

echo "== Slurm checks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
