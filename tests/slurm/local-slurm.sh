#!/usr/bin/env bash
# A private single-node Slurm (munged, slurmctld, slurmd from Debian's packages) for tests.
#
#   local-slurm.sh start STATE_DIR   prints VAR=value lines to export (SLURM_CONF=...), exit 0;
#                                    exit 77 when Slurm cannot be brought up here (one line on
#                                    stderr says why), after stopping whatever it started
#   local-slurm.sh stop STATE_DIR    cancels all jobs, stops the daemons and every process of
#                                    this instance; idempotent, exit 0; keeps STATE_DIR
#
# Everything lives in STATE_DIR: munge key and socket, slurm.conf, spool and state, logs, pid
# files. Ports are picked free at start and everything is addressed on 127.0.0.1 (slurmd
# listens there only; slurmctld binds all addresses, as it always does). No systemd, no /etc.
set -euo pipefail

readonly NODE_NAME=jbench-node
readonly PARTITION=jbench
# Bound on the whole of start, from the first daemon to the node being idle.
readonly START_SECONDS=60
# Bound on each daemon's graceful exit before SIGKILL.
readonly STOP_SECONDS=10
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

log() { echo "local-slurm: $*" >&2; }

usage() {
  echo "usage: local-slurm.sh start|stop STATE_DIR" >&2
  exit 2
}

# Reports why Slurm cannot run here, with the end of the daemon log that says more, on one line,
# after undoing whatever start had begun. 77 is the test runners' "skipped".
cannot_start() {
  local reason=$1 daemon_log=${2:-} tail=""
  stop_instance >/dev/null 2>&1 || true
  if [ -n "$daemon_log" ] && [ -s "$daemon_log" ]; then
    tail=$(tail -n 3 "$daemon_log" | tr -s '\n\t' '  ')
    tail=" [$daemon_log: ${tail% }]"
  fi
  echo "local-slurm: cannot start Slurm: $reason$tail" >&2
  exit 77
}

# A zombie has exited; only its parent (often init, which may take a while) has yet to reap it.
running() {
  [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# Pid from a daemon's pid file if that process still runs under the expected name (a stale file
# may hold a pid that now belongs to something else).
live_pid() {
  local pidfile=$1 name=$2 pid
  [ -s "$pidfile" ] || return 1
  pid=$(tr -dc '0-9' <"$pidfile")
  if [ -z "$pid" ] || [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != "$name" ] || ! running "$pid"; then
    return 1
  fi
  echo "$pid"
}

# Sends SIGNAL, waits up to STOP_SECONDS for the processes to go, then SIGKILLs what is left.
terminate() {
  local signal=$1 deadline=$((SECONDS + STOP_SECONDS)) p alive
  shift
  [ "$#" -gt 0 ] || return 0
  kill "-$signal" "$@" 2>/dev/null || true
  while :; do
    alive=()
    for p in "$@"; do
      if running "$p"; then alive+=("$p"); fi
    done
    [ "${#alive[@]}" -gt 0 ] || return 0
    if [ "$SECONDS" -ge "$deadline" ]; then
      kill -KILL "${alive[@]}" 2>/dev/null || true
      return 0
    fi
    sleep 0.2
  done
}

# Every process of this instance: the daemons carry JBENCH_SLURM_STATE=<state dir> in their
# environment; slurmstepds get an empty one but keep slurmd's log open; job processes carry the
# instance's own SLURM_CLUSTER_NAME. Their descendants count too, whatever their environment.
instance_pids() {
  local cluster=$1 patterns=(-e "JBENCH_SLURM_STATE=$STATE") seeds p
  [ -z "$cluster" ] || patterns+=(-e "SLURM_CLUSTER_NAME=$cluster")
  seeds=$(grep -lsxzF "${patterns[@]}" /proc/[0-9]*/environ 2>/dev/null |
    sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' || true)
  for p in $(pgrep -x slurmstepd || true); do
    if find "/proc/$p/fd" -lname "$STATE/slurmd.log" 2>/dev/null | grep -q .; then
      seeds+=$'\n'$p
    fi
  done
  [ -n "$seeds" ] || return 0
  ps -e -o pid=,ppid= | awk -v seeds="$seeds" -v self="$$" '
    BEGIN { n = split(seeds, s, "\n"); for (i = 1; i <= n; i++) mine[s[i]] = 1 }
    { parent[$1] = $2 }
    END {
      do {
        grew = 0
        for (p in parent) if (!(p in mine) && (parent[p] in mine)) { mine[p] = 1; grew = 1 }
      } while (grew)
      for (p in mine) if (p != self && (p in parent)) print p
    }'
}

stop_instance() {
  local conf=$STATE/slurm.conf cluster pids pid d
  cluster=$(sed -n 's/^ClusterName=//p' "$conf" 2>/dev/null || true)
  if [ -f "$conf" ] && live_pid "$STATE/slurmctld.pid" slurmctld >/dev/null; then
    # Jobs get their SIGTERM through Slurm first, so they can end as they would on a real cluster.
    SLURM_CONF=$conf timeout 10 scancel --quiet --full "--partition=$PARTITION" >/dev/null 2>&1 || true
    local deadline=$((SECONDS + 5))
    while [ "$SECONDS" -lt "$deadline" ] &&
      [ -n "$(SLURM_CONF=$conf timeout 5 squeue -h -o %i 2>/dev/null || true)" ]; do
      sleep 0.5
    done
  fi
  # slurmd first, so no job starts while the rest goes; munged last, as the others use it while
  # stopping.
  for d in slurmd slurmctld munged; do
    if pid=$(live_pid "$STATE/$d.pid" "$d"); then terminate TERM "$pid"; fi
  done
  # What is left: slurmstepds (they outlive slurmd by design, and sit out SIGTERM), job processes
  # whose slurmctld was gone before it could cancel them, and daemons whose pid file was never
  # written because start was interrupted. Jobs had their SIGTERM through scancel already.
  pids=$(instance_pids "$cluster")
  # shellcheck disable=SC2086 # one pid per word
  [ -z "$pids" ] || terminate KILL $pids
  rm -f "$STATE"/{munged,slurmctld,slurmd}.pid
}

# Two distinct TCP ports that nothing holds, below Linux's ephemeral range so an outgoing
# connection cannot grab one between this check and the daemons' bind. slurmctld binds all
# addresses, so that is what is checked.
free_ports() {
  python3 - <<'EOF'
import random, socket
ports = []
while len(ports) < 2:
    port = random.randint(20000, 32000)
    if port in ports:
        continue
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            continue
    ports.append(port)
print(*ports)
EOF
}

render_conf() {
  local ctld_port=$1 slurmd_port=$2 mem_kb
  mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
  sed -e "s|@STATE_DIR@|$STATE|g" \
    -e "s|@CLUSTER_NAME@|jbench$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')|g" \
    -e "s|@CONTROL_HOST@|$(hostname -s)|g" \
    -e "s|@SLURMCTLD_PORT@|$ctld_port|g" \
    -e "s|@SLURMD_PORT@|$slurmd_port|g" \
    -e "s|@NODE_NAME@|$NODE_NAME|g" \
    -e "s|@PARTITION@|$PARTITION|g" \
    -e "s|@CPUS@|$(nproc)|g" \
    -e "s|@REAL_MEMORY@|$((mem_kb * 9 / 10 / 1024))|g" \
    "$here/slurm.conf.in" >"$STATE/slurm.conf"
}

munge_works() { timeout 5 munge -n -S "$STATE/munge.sock" | timeout 5 unmunge -S "$STATE/munge.sock"; }

ctld_answers() { SLURM_CONF=$STATE/slurm.conf timeout 5 scontrol ping | grep -q 'is UP'; }

node_idle() {
  node_state=$(SLURM_CONF=$STATE/slurm.conf timeout 5 sinfo -h -n "$NODE_NAME" -o %T) || true
  [ "$node_state" = idle ]
}

# Starts DAEMON (which forks into the background itself) and waits, within start's overall
# bound, for its pid file and then for READY to succeed; gives up as soon as the daemon is gone.
# The marker in its environment is how stop finds it, and what it forks, even without a pid file.
start_daemon() {
  local daemon=$1 ready=$2 what=$3 daemon_log=$STATE/$1.log pidfile=$STATE/$1.pid
  shift 3
  log "starting $daemon"
  env "JBENCH_SLURM_STATE=$STATE" "$daemon" "$@" </dev/null >>"$daemon_log" 2>&1 ||
    cannot_start "$daemon failed to start (exit $?)" "$daemon_log"
  until [ -s "$pidfile" ]; do
    [ "$SECONDS" -lt "$start_deadline" ] || cannot_start "$daemon wrote no pid file" "$daemon_log"
    sleep 0.1
  done
  until "$ready" >/dev/null 2>&1; do
    live_pid "$pidfile" "$daemon" >/dev/null || cannot_start "$daemon exited" "$daemon_log"
    [ "$SECONDS" -lt "$start_deadline" ] ||
      cannot_start "no $what within ${START_SECONDS}s${node_state:+ (node state: $node_state)}" \
        "$daemon_log"
    sleep 0.3
  done
}

start_instance() {
  local tool ctld_port slurmd_port
  for tool in munged munge unmunge slurmctld slurmd scontrol sinfo squeue scancel python3; do
    command -v "$tool" >/dev/null || cannot_start "$tool is not installed (see ci/install-deps.sh)"
  done
  # A previous run may have left daemons, sockets or job state here.
  stop_instance
  rm -rf "$STATE"/{ctld,spool} "$STATE"/munge.{key,seed,sock,sock.lock} "$STATE"/*.log \
    "$STATE"/{slurm,plugstack}.conf "$STATE/jobcomp.txt"
  mkdir -p "$STATE/ctld" "$STATE/spool"
  : >"$STATE/plugstack.conf"
  (umask 077 && head -c 1024 /dev/urandom >"$STATE/munge.key")
  read -r ctld_port slurmd_port < <(free_ports) || cannot_start "could not find free TCP ports"
  render_conf "$ctld_port" "$slurmd_port"

  start_deadline=$((SECONDS + START_SECONDS)) node_state=""
  # --force: munged refuses a socket in a directory that others cannot enter (mktemp's 0700);
  # only root uses this instance, so that is fine.
  start_daemon munged munge_works "working munge socket" --force \
    --socket="$STATE/munge.sock" --key-file="$STATE/munge.key" --seed-file="$STATE/munge.seed" \
    --pid-file="$STATE/munged.pid" --log-file="$STATE/munged.log" --num-threads=2
  start_daemon slurmctld ctld_answers "answer from slurmctld on port $ctld_port" \
    -f "$STATE/slurm.conf"
  start_daemon slurmd node_idle "idle node $NODE_NAME" -f "$STATE/slurm.conf" -N "$NODE_NAME"
  live_pid "$STATE/slurmctld.pid" slurmctld >/dev/null ||
    cannot_start "slurmctld exited" "$STATE/slurmctld.log"

  log "up: partition $PARTITION, node $NODE_NAME with $(nproc) CPUs, slurmctld on 127.0.0.1:$ctld_port"
  echo "SLURM_CONF=$STATE/slurm.conf"
}

main() {
  if [ "$#" -ne 2 ] || [ -z "$2" ]; then usage; fi
  case "$1" in
  start)
    STATE=$(realpath -m -- "$2")
    # It goes verbatim into slurm.conf, and Unix socket paths under it (munge's, and
    # slurmstepd's in the spool, named after node and job) must fit in 108 bytes.
    if ! [[ "$STATE" =~ ^[A-Za-z0-9._/+-]+$ ]] || [ "${#STATE}" -gt 64 ]; then
      echo "local-slurm: STATE_DIR $STATE must be at most 64 characters of [A-Za-z0-9._/+-] (e.g. mktemp -d)" >&2
      exit 2
    fi
    mkdir -p "$STATE" || usage
    start_instance
    ;;
  stop)
    [ -d "$2" ] || exit 0
    STATE=$(realpath -- "$2")
    stop_instance
    ;;
  *) usage ;;
  esac
}

main "$@"
