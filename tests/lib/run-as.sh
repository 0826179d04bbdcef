# tests/lib/run-as.sh — source it first, before tap.sh: with RUN_AS=nobody
# (set by the test's meson.build), the whole script runs again as uid
# 65534, as an ordinary user would run it; RUN_AS empty leaves it alone.
# Needs root for that; otherwise the script is skipped.
if [ "${RUN_AS:-}" = nobody ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "1..0 # SKIP RUN_AS=nobody needs root"
    exit 0
  fi
  exec env -u RUN_AS setpriv --reuid=65534 --regid=65534 --clear-groups -- /bin/sh "$0" "$@"
elif [ -n "${RUN_AS:-}" ]; then
  echo "Bail out! RUN_AS='$RUN_AS': only 'nobody' or empty"
  exit 1
fi
