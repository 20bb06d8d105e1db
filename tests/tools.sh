# tools.sh - sourced by the shell tests of the tools: the tools of the
# build folder (each overridable from the environment), a scratch folder
# removed at exit, and fail().
set -u
CGVERIFY=${CGVERIFY:-./tools/cgverify}
CGGEN=${CGGEN:-./tools/cggen}
CGRECODE=${CGRECODE:-./tools/cgrecode}
CGMERGE=${CGMERGE:-./tools/cgmerge}
CGDIFF=${CGDIFF:-./tools/cgdiff}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
