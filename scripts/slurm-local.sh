#!/usr/bin/env bash
# A one-node Slurm on this machine, for trying the Slurm recipe (docs/recipes/slurm-array.sh)
# and for CI (scripts/slurm-check.sh): a controller and a node daemon on localhost, as root.
#
#   scripts/slurm-local.sh up       # install slurm-wlm and munge if missing, start, wait for idle
#   scripts/slurm-local.sh status   # which of its daemons run, and sinfo
#   scripts/slurm-local.sh down     # stop exactly the daemons `up` started
#
# Idempotent: `up` on a running Slurm of its own leaves it as it is. Everything it writes is under
# one folder, $THAW_SLURM_DIR (default /var/tmp/thaw-slurm): slurm.conf, the daemons' state, pid
# files and logs; plus one link, /etc/slurm/slurm.conf to its slurm.conf (made only where no
# slurm.conf is, removed by `down`), so that sbatch, squeue and sinfo find it without SLURM_CONF.
# The plugins need no cgroup delegation (proctrack/linuxproc, task/none, jobacct_gather/none), so
# it runs in a container too. munged runs as the munge user with Debian's key
# (/etc/munge/munge.key, made if missing); a munged already running is used and left alone.
# The controller starts with a clean state (-c): its queue does not outlive `down`.
#
# When a daemon does not come up, it says which, shows the end of its log (escaped) and what to
# try, and exits 1.
set -euo pipefail

dir=${THAW_SLURM_DIR:-/var/tmp/thaw-slurm}
conf=$dir/slurm.conf
etc_conf=/etc/slurm/slurm.conf
wait_secs=${THAW_SLURM_WAIT:-60}

say() { echo "slurm-local: $*" >&2; }
die() { say "$*"; exit 1; }

# The last lines of a log, every control character shown escaped (cat -v), indented.
tail_of() {
  if [ -s "$1" ]; then
    echo "  last lines of $1:" >&2
    tail -n "${2:-15}" "$1" | cut -c1-300 | cat -v | sed 's/^/    /' >&2
  else
    echo "  ($1 is empty or missing)" >&2
  fi
}

# What to try, from what a daemon's log says, then the general advice $2; exits 1.
advise() {
  if grep -q "Address already in use" "$1" 2>/dev/null; then
    say "fix: another program holds the daemon's port (6817 for slurmctld, 6818 for slurmd); ss -ltnp shows which; stop it and run $0 up again"
  fi
  die "fix: $2"
}

# Whether the daemon of pid file $1 (DIR/NAME.pid) runs: its pid is alive and is that daemon's
# (a pid reused by another program is not).
alive() {
  local pid
  pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] \
    && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$(basename "$1" .pid)" ]
}

install_packages() {
  local missing=() p
  for p in slurm-wlm munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || die "no apt-get here: install ${missing[*]} yourself"
  [ "$(id -u)" = 0 ] || die "${missing[*]} missing, and installing needs root: sudo $0 up"
  say "installing ${missing[*]} from Debian"
  apt-get update -qq || die "apt-get update failed: no package lists to install ${missing[*]} from"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >"$dir/apt.log" 2>&1 || { tail_of "$dir/apt.log"; die "cannot install ${missing[*]} (above)"; }
}

# The munge key, the folders munged wants (owned by munge, not writable by others), and munged.
start_munge() {
  local key=/etc/munge/munge.key
  install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
  install -d -o munge -g munge -m 0755 /run/munge "$dir/munge"
  if [ ! -s "$key" ]; then
    say "making a munge key at $key"
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$key" --force
    else
      dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
    fi
    chown munge:munge "$key"
    chmod 0400 "$key"
  fi
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    alive "$dir/munged.pid" || say "a munged not started here is running: using it, and leaving it"
    return 0
  fi
  say "starting munged (as munge)"
  runuser -u munge -- /usr/sbin/munged --pid-file="$dir/munge/munged.pid" \
    >"$dir/munged.out" 2>&1 || true
  for _ in $(seq 1 50); do
    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
      cp "$dir/munge/munged.pid" "$dir/munged.pid"   # ours: `down` stops it
      return 0
    fi
    sleep 0.2
  done
  say "munged did not come up: no credential could be made and decoded (munge -n | unmunge)"
  tail_of "$dir/munged.out"
  tail_of /var/log/munge/munged.log
  die "fix: munged wants /etc/munge/munge.key owned by munge with mode 0400, /etc/munge, /var/lib/munge, /var/log/munge owned by munge and not writable by others, and /run/munge; see the log above"
}

write_conf() {
  local node host cpus
  host=$(hostname -s)
  # slurmd -C prints this node's CPUs, sockets, cores, threads and memory as slurm.conf words.
  node=$(slurmd -C 2>/dev/null | grep '^NodeName=' | head -n 1) \
    || die "slurmd -C printed no node line: cannot learn this machine's CPUs and memory"
  cpus=$(sed -E 's/.* CPUs=([0-9]+).*/\1/' <<<"$node")
  mkdir -p "$dir/ctld" "$dir/d"
  cat >"$dir/slurm.conf.new" <<EOF
# Written by scripts/slurm-local.sh: a one-node Slurm on $host ($cpus CPUs).
ClusterName=thaw-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
${node/NodeName=$host/NodeName=$host NodeAddr=127.0.0.1} State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$dir/slurm.conf.new" "$conf"
}

# The clients' default slurm.conf: a link to ours, where no other is.
link_conf() {
  mkdir -p /etc/slurm
  if [ -L "$etc_conf" ] || [ ! -e "$etc_conf" ]; then
    ln -sfn "$conf" "$etc_conf"
  elif ! cmp -s "$etc_conf" "$conf"; then
    say "$etc_conf is someone else's: give the clients SLURM_CONF=$conf"
  fi
}

node_state() { SLURM_CONF=$conf sinfo -h -n "$(hostname -s)" -o %t 2>/dev/null | head -n 1; }

start_daemon() {
  local name=$1; shift
  alive "$dir/$name.pid" && return 0
  say "starting $name"
  # this start's log alone, so that what is shown on failure is this start's
  [ -e "$dir/$name.log" ] && mv "$dir/$name.log" "$dir/$name.log.1"
  rm -f "$dir/$name.pid"
  local ok=0
  if SLURM_CONF=$conf "$@" >"$dir/$name.out" 2>&1; then
    # it forks into the background and writes its pid file once it has set up
    for _ in $(seq 1 50); do
      alive "$dir/$name.pid" && { ok=1; break; }
      sleep 0.2
    done
  fi
  if [ "$ok" != 1 ]; then
    say "$name did not start ($*)"
    tail_of "$dir/$name.out"
    tail_of "$dir/$name.log"
    advise "$dir/$name.log" "see $dir/$name.log; run it in the foreground to see more: SLURM_CONF=$conf $* -D -vvv"
  fi
}

up() {
  mkdir -p "$dir"
  install_packages
  start_munge
  if alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" && [ "$(node_state)" = idle ]; then
    link_conf
    say "up already (node $(hostname -s) idle; $conf)"
    return 0
  fi
  # Another Slurm on this machine holds the ports (and would answer sinfo for ours).
  local d other
  for d in slurmctld slurmd; do
    alive "$dir/$d.pid" && continue
    other=$(pgrep -x "$d" | head -n 1 || true)
    [ -z "$other" ] || die "a $d not started by this script (pid $other) runs here; stop it (or use it), then run $0 up again"
  done
  write_conf
  link_conf
  start_daemon slurmctld /usr/sbin/slurmctld -c -f "$conf"
  start_daemon slurmd /usr/sbin/slurmd -f "$conf"
  local state=""
  for _ in $(seq 1 $((wait_secs * 2))); do
    for d in slurmctld slurmd; do
      alive "$dir/$d.pid" || {
        say "$d stopped after starting"
        tail_of "$dir/$d.log"
        advise "$dir/$d.log" "see $dir/$d.log; run it in the foreground to see more: SLURM_CONF=$conf /usr/sbin/$d -D -vvv"
      }
    done
    state=$(node_state)
    case $state in
      idle) say "up: node $(hostname -s) idle ($(grep -o 'CPUs=[0-9]*' "$conf"); $conf)"; return 0 ;;
      drain*|down*|fail*)
        # A node that was down before (an earlier run) comes back by hand.
        SLURM_CONF=$conf scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true ;;
    esac
    sleep 0.5
  done
  say "the node is not idle after ${wait_secs}s (sinfo says: '${state:-nothing}')"
  SLURM_CONF=$conf scontrol show node "$(hostname -s)" 2>&1 | grep -i 'state\|reason' | cat -v >&2 || true
  tail_of "$dir/slurmctld.log"
  tail_of "$dir/slurmd.log"
  die "fix: the node's Reason above says why; a CPU or memory mismatch means slurm.conf's node line (from slurmd -C) is off"
}

# Stops the daemon whose pid file (one `up` made it write) is $1, waiting for it to end.
stop() {
  local name=$1 pidfile=$dir/$1.pid pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if alive "$pidfile"; then
    say "stopping $name (pid $pid)"
    kill -TERM "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "$name (pid $pid) still runs after 10 s: killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
}

down() {
  stop slurmd
  stop slurmctld
  stop munged
  if [ -L "$etc_conf" ] && [ "$(readlink "$etc_conf")" = "$conf" ]; then
    rm -f "$etc_conf"
  fi
  say "down"
}

status() {
  local d rc=0
  for d in munged slurmctld slurmd; do
    if alive "$dir/$d.pid"; then
      echo "$d: running (pid $(cat "$dir/$d.pid"))"
    else
      if [ "$d" = munged ]; then
        echo "$d: not started here"
      else
        echo "$d: not running"; rc=1
      fi
    fi
  done
  [ -s "$conf" ] && SLURM_CONF=$conf sinfo 2>&1 | cat -v || true
  return $rc
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
