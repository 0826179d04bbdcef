# tests/lib/xa-env.sh — a private world for tests of the `xdg-app`
# command: HOME, XDG directories and XDG_RUNTIME_DIR inside $T, the
# binaries from the build tree, and repositories served over HTTP on
# 127.0.0.1.  Source it after tests/lib/tap.sh.
#
#   XA                 the xdg-app binary of the build tree
#   SRC                the source tree
#   xa ARGS…           run xdg-app; sets $out, $err and $rc
#   serve_repo DIR     serve DIR on a free port; sets $URL; stopped at exit
#   compose_runtime [--sdk] OUT [LIST-LINE…]
#                      runtime/compose-host-runtime with extra binaries
#   install_shell_app APP [BUILD-FINISH-OPTION…]
#                      exports $T/platform and $T/sdk (composed before) and
#                      APP, whose command runs `sh -c "$1"`, to $T/repo,
#                      serves it and installs APP; bails out on failure

SRC=${XDG_APP_SOURCE_ROOT:?XDG_APP_SOURCE_ROOT is not set}
XA=${XDG_APP_BUILD_ROOT:?XDG_APP_BUILD_ROOT is not set}/cli/xdg-app
[ -x "$XA" ] || bail_out "'$XA' is not executable"
[ -x /usr/bin/python3 ] || skip_all "/usr/bin/python3 is not installed (serves the repos)"

export HOME="$T/home"
export XDG_DATA_HOME="$T/home/.local/share"
export XDG_CONFIG_HOME="$T/home/.config"
export XDG_CACHE_HOME="$T/home/.cache"
export XDG_RUNTIME_DIR="$T/run"
export LC_ALL=C.UTF-8
unset XDG_DATA_DIRS DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS
mkdir -p "$HOME" && mkdir -m 0700 "$XDG_RUNTIME_DIR"

xa ()
{
  "$XA" "$@" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  out=$(cat "$T/out")
  err=$(cat "$T/err")
  return $rc
}

serve_repo ()
{
  _log=$T/http-$$-$(date +%s%N).log
  /usr/bin/python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 >"$_log" 2>&1 &
  on_exit "kill $!"
  _port=
  for _ in $(seq 50); do
    _port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$_log")
    [ -n "$_port" ] && break
    sleep 0.1
  done
  [ -n "$_port" ] || bail_out "python3 -m http.server did not start: $(cat "$_log")"
  URL=http://127.0.0.1:$_port/
}

compose_runtime ()
{
  _sdk=
  if [ "$1" = --sdk ]; then _sdk=--sdk; shift; fi
  _out=$1
  shift
  cp "$SRC/runtime/test-runtime.list" "$T/runtime.list"
  for _line in "$@"; do
    echo "$_line" >>"$T/runtime.list"
  done
  # shellcheck disable=SC2086
  "$SRC/runtime/compose-host-runtime" $_sdk --list "$T/runtime.list" "$_out" >"$T/compose.log" 2>&1 ||
    bail_out "cannot compose the runtime: $(cat "$T/compose.log")"
}

install_shell_app ()
{
  _app=$1
  shift
  xa build-export --runtime "$T/repo" "$T/platform" test || bail_out "export platform: $err"
  xa build-export --runtime "$T/repo" "$T/sdk" test || bail_out "export SDK: $err"
  xa build-init "$T/app" "$_app" org.test.Sdk org.test.Platform test || bail_out "build-init: $err"
  mkdir -p "$T/app/files/bin"
  printf '#!/bin/sh\nexec sh -c "$1"\n' >"$T/app/files/bin/app"
  chmod 0755 "$T/app/files/bin/app"
  xa build-finish --command=app "$@" "$T/app" || bail_out "build-finish: $err"
  xa build-export "$T/repo" "$T/app" || bail_out "export app: $err"
  serve_repo "$T/repo"
  xa add-repo --no-gpg-verify testrepo "$URL" &&
    xa install-runtime testrepo org.test.Platform test &&
    xa install-app testrepo "$_app" || bail_out "cannot install: $err"
}
