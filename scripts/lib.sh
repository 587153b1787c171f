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

# config_missing FRAGMENT CONFIG [SKIP]: print, one per line, each option of
# FRAGMENT that CONFIG does not have as asked (Kconfig silently drops
# options whose dependencies are missing): each "CONFIG_X=v" must be in
# CONFIG as is, each "# CONFIG_X is not set" must not be set. SKIP: options
# not asked for, " CONFIG_A CONFIG_B ".
config_missing() {
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			case ${3:-} in *" ${line%%=*} "*) continue ;; esac
			grep -qxF "$line" "$2" ||
				printf '\n  wanted %s, got: %s' "$line" \
					"$(grep -E "^(# )?${line%%=*}[= ]" "$2" || echo absent)"
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=" "$2" ||
				printf '\n  wanted %s, got: %s' "$line" "$(grep "^$opt=" "$2")"
			;;
		esac
	done <"$1"
}

# debian_suite RELEASE: the suite name of Debian RELEASE, one of those that
# ship Linux 6.12.
debian_suite() {
	case $1 in
	12) echo bookworm ;;
	13) echo trixie ;;
	*) die "Debian $1: only 12 (bookworm) and 13 (trixie) ship Linux 6.12" ;;
	esac
}

# debian_apt DIR SUITE APT-TOOL ARGS...: apt-get or apt-cache over Debian's
# SUITE, its updates and its security suites, with a sources list, package
# lists and cache of its own under DIR, so the system's apt state is
# neither used nor changed (no root needed to update and download). Signed
# by the system's Debian archive keyring.
debian_apt() {
	apt_dir=$1
	apt_suite=$2
	apt_tool=$3
	shift 3
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
	for apt_src in "$apt_suite debian" "$apt_suite-updates debian" \
		"$apt_suite-security debian-security"; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
			"http://deb.debian.org/${apt_src#* } ${apt_src%% *} main"
	done >"$apt_dir/sources.list"
	"$apt_tool" -o Dir::Etc::SourceList="$apt_dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$apt_dir/lists" \
		-o Dir::Cache="$apt_dir/cache" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o APT::Architecture=amd64 -o APT::Architectures=amd64 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}
