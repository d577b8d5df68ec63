#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the perf build needs, once.
set -e

missing=""
for p in $DEB_PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "  DEPS   installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "error: missing packages and not root; run as root or install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >"$BUILD/deps.log" 2>&1 || {
	tail -20 "$BUILD/deps.log" >&2
	echo "error: apt-get install failed, see $BUILD/deps.log" >&2
	exit 1
}
