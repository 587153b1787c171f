# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the build glue. Sourced, not executed.

# Seconds since the top-level make started (IOV_T0 is exported by the
# Makefile); falls back to this script's start when run by hand.
: "${IOV_T0:=$(date +%s)}"

# step PHASE MESSAGE...: one progress line, "[mm:ss] phase: message", also
# appended to IOV_STEPS if the Makefile set it.
step() {
	phase=$1
	shift
	now=$(date +%s)
	el=$((now - IOV_T0))
	line=$(printf '[%02d:%02d] %-9s %s' $((el / 60)) $((el % 60)) "$phase:" "$*")
	printf '%s\n' "$line"
	[ -z "${IOV_STEPS:-}" ] || printf '%s\n' "$line" >>"$IOV_STEPS"
}

# die MESSAGE...: one clear error line on stderr, then exit 1.
die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# Our git commits (pristine tree, series, git am) must not depend on the
# user's git configuration, e.g. commit signing that asks for a key.
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.gpgsign GIT_CONFIG_VALUE_0=false
