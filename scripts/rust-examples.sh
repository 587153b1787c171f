#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Rust examples that are not doctests, so that lint builds them as
# modules: every ```rust block of the README (each a complete module), and
# every ```ignore block of the Rust files the series adds (allowed only for
# an example that defines a module, which a doctest cannot be). Writes
# OUTDIR/NAME.rs for each and prints the NAMEs; fails on an ```ignore block
# that does not define a module (it could run as a doctest: make it one).
# Usage: scripts/rust-examples.sh README KSRC OUTDIR
set -eu
readme=$1
ksrc=$2
out=$3
rm -rf "$out" && mkdir -p "$out"

# extract FILE NAME OPEN [DOC]: the blocks of FILE that start with a line
# matching OPEN, to OUTDIR/NAME_N.rs; with DOC, blocks of doc comments: the
# comment markers and rustdoc's hidden-line "# " go, and a block without
# module! is reported.
extract() {
	awk -v out="$out" -v name="$2" -v open="$3" -v file="$1" -v doc="${4-}" '
		function strip(l) {
			if (!doc)
				return l
			sub(/^[ \t]*\/\/[!\/] ?/, "", l)
			sub(/^# /, "", l)
			return l == "#" ? "" : l
		}
		!inside && $0 ~ open { inside = 1; n++; path = out "/" name "_" n ".rs"; text = ""; next }
		inside && (strip($0) ~ /^```$/) {
			inside = 0
			if (doc && text !~ /module!/) {
				printf "%s: example %d: ```ignore without module!: make it a doctest\n", file, n > "/dev/stderr"
				bad = 1
				next
			}
			printf "%s", text > path
			close(path)
			print name "_" n
			next
		}
		inside { text = text strip($0) "\n" }
		END { exit bad }' "$1"
}

extract "$readme" readme '^```rust$'
rc=0
for f in $(git -C "$ksrc" diff --name-only --diff-filter=A pristine HEAD -- '*.rs'); do
	extract "$ksrc/$f" "doc_$(basename "$f" .rs)" '^[ \t]*//[!/] ```ignore$' doc || rc=1
done
exit $rc
