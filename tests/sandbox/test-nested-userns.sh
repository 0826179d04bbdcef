#!/bin/sh
# tests/sandbox/test-nested-userns.sh — the nested user namespace (made
# after the pivot when --dev needs uid 0 in the first one) works even when
# the plan mounts no /proc of its own: its id maps go through the host's.
. "$(dirname "$0")/../lib/tap.sh"

plan 2
base="--ro-bind /usr /usr --symlink usr/lib64 /lib64 --symlink usr/lib /lib --symlink usr/bin /bin --unshare-all"
for who in "$(id -un)" nobody; do
  if [ "$who" = nobody ]; then
    is_root || { skip "as nobody needs root"; continue; }
    # shellcheck disable=SC2086
    out=$(as_nobody "$XDG_APP_SANDBOX" $base --dev /dev --uid 4321 -- id -u 2>&1)
  else
    # shellcheck disable=SC2086
    out=$("$XDG_APP_SANDBOX" $base --dev /dev --uid 4321 -- id -u 2>&1)
  fi
  if [ "$out" = 4321 ]; then
    ok "$who: --dev --uid without --proc gives the asked uid"
  else
    fail "$who: --dev --uid without --proc gives the asked uid" "$out"
  fi
done
