#!/bin/sh
# SPDX-License-Identifier: MIT
# check-commit-msg: the sample commit-msg hook (.githooks/commit-msg)
# takes a subject of 72 characters with a body after a blank line, and
# refuses 73, an empty subject, a body right under the subject and an
# empty message, saying why; git's '#' comment lines do not count.
set -u
hook=${CGW_SRCDIR:-.}/.githooks/commit-msg
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgw-commit-msg.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
s72=$(printf '%072d' 0 | tr 0 x)
# takes MESSAGE: the hook accepts it; refuses MESSAGE WORDS: it refuses it
# with WORDS in what it says
takes() {
    printf '%s' "$1" >"$tmp/msg"
    sh "$hook" "$tmp/msg" 2>"$tmp/err" || fail "refused: $(head -c 80 "$tmp/msg"): $(cat "$tmp/err")"
}
refuses() {
    printf '%s' "$1" >"$tmp/msg"
    sh "$hook" "$tmp/msg" 2>"$tmp/err" && fail "taken: $(head -c 80 "$tmp/msg")"
    grep -q "$2" "$tmp/err" || fail "no \"$2\" in: $(cat "$tmp/err")"
}
takes "$s72
"
takes "$s72

Why, with the numbers: 2.5x.
"
takes "# a comment of git's, longer than seventy-two characters, is not the subject line
short subject
"
refuses "${s72}y
" 'the subject has 73 characters, over 72'
refuses "subject
body right under it
" 'a blank line must follow the subject'
refuses "
" 'the subject line is empty'
refuses "" 'the message is empty'
echo "check-commit-msg: 72 taken, 73, an empty subject, a body under it and no message refused"
