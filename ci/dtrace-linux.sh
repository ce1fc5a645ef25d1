#!/usr/bin/env bash
# Builds Oracle's DTrace for Linux (dtrace-utils, branch devel) from a source directory and
# installs it under a prefix of its own, for jbench's DTrace backend and the tests labelled
# `dtrace` (docs/collectors/dtrace.md).
#
#   bash ci/dtrace-linux.sh SOURCE_DIR [PREFIX]      # PREFIX defaults to /opt/dtrace-linux
#   export JBENCH_DTRACE=PREFIX/bin/dtrace           # what jbench and its tests look for
#
# Not on PATH on purpose: Debian's systemtap-sdt-dev owns /usr/bin/dtrace (the USDT header
# generator the bridge is built with), and a real DTrace ahead of it would change that build.
#
# What this host needs, found when it was first built here (Debian 12, kernel 6.x):
#   - Debian's gcc-bpf 12 has no <bpf/bpf_helpers.h>: a one-line header that includes its own
#     <bpf-helpers.h> is passed through BPFCPPFLAGS;
#   - only DTrace itself is built: the test programs' USDT victims do not link here;
#   - io.d is left out of the library directory: it needs kernel symbols (major_names) that a
#     kernel without KALLSYMS_ALL does not export, and a library that fails stops every script;
#   - DTrace reads tracefs at /sys/kernel/debug/tracing: debugfs is mounted if it is not.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: bash ci/dtrace-linux.sh SOURCE_DIR [PREFIX]" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
prefix=${2:-/opt/dtrace-linux}
if [[ ! -x "$src/configure" || ! -d "$src/libdtrace" ]]; then
  echo "error: $src is not a dtrace-utils source tree (no configure, no libdtrace/)" >&2
  exit 2
fi

packages=(gcc-bpf binutils-bpf binutils-dev libbpf-dev libelf-dev zlib1g-dev libpcap-dev
          libpfm4-dev libfuse3-dev bison flex)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "== installing ${missing[*]}"
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shim/bpf"
echo '#include <bpf-helpers.h>' > "$work/shim/bpf/bpf_helpers.h"

echo "== building DTrace from $src"
cd "$src"
./configure BPFC=bpf-gcc BPFLD=bpf-ld BPFCPPFLAGS="-I$work/shim" > "$work/configure.log" 2>&1 || {
  cat "$work/configure.log" >&2
  exit 1
}
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs" build-libs libs shlibs bpflibs objs "$src/build/dtrace" > "$work/make.log" 2>&1 || {
  tail -30 "$work/make.log" >&2
  exit 1
}

echo "== installing into $prefix"
rm -rf "$prefix"
mkdir -p "$prefix/bin" "$prefix/lib" "$prefix/libexec"
cp "$src/build/dtrace" "$prefix/libexec/dtrace"
cp -P "$src"/build/libdtrace.so* "$prefix/lib/"
cp -r "$src/build/dlibs" "$prefix/lib/dtrace"
find "$prefix/lib/dtrace" -name io.d -delete
cat > "$prefix/bin/dtrace" <<EOF
#!/bin/sh
# DTrace for Linux as built by jbench's ci/dtrace-linux.sh from $src.
LD_LIBRARY_PATH="$prefix/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
DTRACE_OPT_SYSLIBDIR="$prefix/lib/dtrace" \\
exec "$prefix/libexec/dtrace" "\$@"
EOF
chmod +x "$prefix/bin/dtrace"

if [[ ! -d /sys/kernel/debug/tracing ]]; then
  echo "== mounting debugfs on /sys/kernel/debug"
  mount -t debugfs none /sys/kernel/debug
fi

"$prefix/bin/dtrace" -V
probes=$("$prefix/bin/dtrace" -l -P syscall | tail -n +2 | wc -l)
echo "== $probes syscall probes"
echo "export JBENCH_DTRACE=$prefix/bin/dtrace"
