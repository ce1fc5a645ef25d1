#!/usr/bin/env bash
# ci/function_lengths.py on a planted tree: functions of known lengths whose bodies hold braces in
# comments, strings, raw strings and character literals, a template<class T> function, a member
# defined in its class, a preprocessor line before a namespace; then the ledger's three rules
# (an unlisted long function, one grown past its listing, one listed that is no longer long).
set -euo pipefail
script="$(cd "$(dirname "$0")/../.." && pwd)/ci/function_lengths.py"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/core/x/src" "$tree/ci"

# body LINES: that many lines of a body, a brace in each kind of literal among them.
body() {
  local n=$1
  echo '  const char* s = "}}{";  // }'
  echo '  const char c = '"'"'}'"'"';'
  echo '  /* { */ const char* r = R"x({ "}" )x";'
  for ((k = 4; k <= n; k++)); do echo "  int v$k = 1'000 + $k;"; done
}
{
  echo '#define SHIFT (1 << 0)'
  echo 'namespace a {'
  echo 'int long_one(int x) {'; body 79; echo '}'            # 81 lines
  echo 'template <class T>'
  echo 'T templated(T t) {'; body 83; echo '}'               # 86 lines, from the template line
  echo 'struct Holder {'
  echo '  int member() const {'; body 89; echo '  }'         # 91 lines
  echo '};'
  echo 'int short_one() {'; body 78; echo '}'                # 80 lines: not over
  echo 'int listed_grown() {'; body 99; echo '}'             # 101 lines
  echo '}  // namespace a'
} > "$tree/core/x/src/x.cpp"
printf '%s\n' '# header' 'core/x/src/x.cpp listed_grown 100' 'core/x/src/x.cpp gone_now 120' \
  > "$tree/ci/long-functions.txt"

listing=$(FUNCTION_LENGTHS_ROOT="$tree" python3 "$script")
expect() {
  grep -qF -- "$1" <<<"$2" || { echo "missing: $1"; echo "in:"; echo "$2"; exit 1; }
}
expect "5 functions, 4 over 80 lines" "$listing"
expect "101  core/x/src/x.cpp:" "$listing"
expect "91  core/x/src/x.cpp:" "$listing"
expect "86  core/x/src/x.cpp:" "$listing"
expect "81  core/x/src/x.cpp:3  long_one" "$listing"
if grep -q short_one <<<"$listing"; then echo "an 80-line function was listed"; exit 1; fi

status=0
check=$(FUNCTION_LENGTHS_ROOT="$tree" python3 "$script" --check 2>&1) || status=$?
[ "$status" -eq 1 ] || { echo "--check exited $status, not 1"; echo "$check"; exit 1; }
expect "long_one is 81 lines, over 80: split it" "$check"
expect "templated is 86 lines, over 80: split it" "$check"
expect "Holder::member is 91 lines" "$check"
expect "listed_grown grew to 101 lines (listed at 100)" "$check"
expect "gone_now is no longer over 80 lines" "$check"

# The ledger as the tree is: nothing to say.
printf '%s\n' 'core/x/src/x.cpp long_one 81' 'core/x/src/x.cpp templated 86' \
  'core/x/src/x.cpp Holder::member 91' 'core/x/src/x.cpp listed_grown 101' \
  > "$tree/ci/long-functions.txt"
FUNCTION_LENGTHS_ROOT="$tree" python3 "$script" --check
echo "function_lengths_test: ok"
