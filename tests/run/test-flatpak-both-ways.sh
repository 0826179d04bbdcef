#!/bin/sh
# tests/run/test-flatpak-both-ways.sh — interoperation with Flatpak 1.14,
# over HTTP on 127.0.0.1, both ways: a runtime and an app exported by
# `flatpak build-export` install and run with xdg-app; ones exported by
# `xdg-app build-export` install and run with flatpak; an update that a
# static delta made by `flatpak build-update-repo` carries is pulled by
# xdg-app through the delta.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/xa-env.sh"

command -v flatpak >/dev/null 2>&1 || skip_all "flatpak is not installed (apt-get install flatpak)"

plan 7

ARCH=$(uname -m)
FP_TIMEOUT=180
export FLATPAK_USER_DIR=$T/fp-user
export FLATPAK_SYSTEM_DIR=$T/fp-system
export FLATPAK_CONFIG_DIR=$T/fp-etc
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$T/no-system-bus
mkdir -p "$FLATPAK_SYSTEM_DIR" "$FLATPAK_CONFIG_DIR"
if ! is_root; then
  ostree --repo="$FLATPAK_SYSTEM_DIR/repo" init --mode=bare-user-only ||
    bail_out "cannot create the test's system repo"
fi

fp ()
{
  timeout -k 5 "$FP_TIMEOUT" flatpak "$@" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  out=$(cat "$T/out")
  err=$(cat "$T/err")
  return $rc
}

# The app's command: says who built it, and what it sees.
hello_script ()
{
  printf '#!/bin/sh\necho "%s: $(test -x /app/bin/hello && echo app) $(. /usr/etc/os-release; echo $ID)' "$1"
  printf ' $(test -e /.flatpak-info && echo info)"\n'
}

compose_runtime "$T/platform"

# --- Flatpak → xdg-app --------------------------------------------------------
# build-finish would make export/; build-export insists on it.
mkdir -p "$T/fp-app/files/bin" "$T/fp-app/export"
hello_script "built by flatpak" >"$T/fp-app/files/bin/hello"
chmod 0755 "$T/fp-app/files/bin/hello"
cat >"$T/fp-app/metadata" <<EOF
[Application]
name=org.test.FpHello
runtime=org.test.Platform/$ARCH/test
sdk=org.test.Platform/$ARCH/test
command=hello

[Context]
shared=network;
sockets=wayland;
EOF
fp build-export --runtime --files=files --no-update-summary "$T/fp-repo" "$T/platform" test &&
  fp build-export --no-update-summary "$T/fp-repo" "$T/fp-app" master &&
  fp build-update-repo "$T/fp-repo" ||
  bail_out "flatpak build-export: $err"
serve_repo "$T/fp-repo"
FP_URL=$URL
FP_LOG=$_log

if xa remote-add --no-gpg-verify fp "$FP_URL" &&
   xa install fp org.test.Platform test && xa install fp org.test.FpHello; then
  ok "flatpak → xdg-app: the runtime and the app install over HTTP"
else
  fail "flatpak → xdg-app: the runtime and the app install over HTTP" "$err"
fi
if xa run org.test.FpHello && [ "$out" = "built by flatpak: app xdg-app-test info" ]; then
  ok "flatpak → xdg-app: the app runs sandboxed (/app, the runtime's /usr, /.flatpak-info)"
else
  fail "flatpak → xdg-app: the app runs sandboxed (/app, the runtime's /usr, /.flatpak-info)" \
    "rc=$rc out=$out" "$err"
fi
if xa info --show-permissions org.test.FpHello && printf '%s\n' "$out" | grep -q '^shared=network;$'; then
  ok "flatpak → xdg-app: Flatpak's metadata gives the same permissions"
else
  fail "flatpak → xdg-app: Flatpak's metadata gives the same permissions" "$out" "$err"
fi

# --- a static delta made by Flatpak ----------------------------------------------
hello_script "built by flatpak, v2" >"$T/fp-app/files/bin/hello"
: >"$FP_LOG"
fp build-export --no-update-summary "$T/fp-repo" "$T/fp-app" master &&
  fp build-update-repo --generate-static-deltas "$T/fp-repo" ||
  bail_out "flatpak build-update-repo: $err"
: >"$FP_LOG"
if xa update org.test.FpHello && xa run org.test.FpHello &&
   [ "$out" = "built by flatpak, v2: app xdg-app-test info" ]; then
  if grep -q 'GET /deltas/' "$FP_LOG"; then
    ok "flatpak → xdg-app: an update comes through Flatpak's static delta"
  else
    fail "flatpak → xdg-app: an update comes through Flatpak's static delta" "$(cat "$FP_LOG")"
  fi
else
  fail "flatpak → xdg-app: an update comes through Flatpak's static delta" "rc=$rc out=$out" "$err"
fi

# --- xdg-app → Flatpak ----------------------------------------------------------
xa build-export --runtime "$T/xa-repo" "$T/platform" test || bail_out "export runtime: $err"
xa build-init "$T/xa-app" org.test.XaHello org.test.Platform org.test.Platform test ||
  bail_out "build-init: $err"
mkdir -p "$T/xa-app/files/bin"
hello_script "built by xdg-app" >"$T/xa-app/files/bin/hello"
chmod 0755 "$T/xa-app/files/bin/hello"
xa build-finish --command=hello --share=network --socket=wayland "$T/xa-app" &&
  xa build-export "$T/xa-repo" "$T/xa-app" || bail_out "export app: $err"
serve_repo "$T/xa-repo"

if fp --user remote-add --no-gpg-verify xa "$URL" &&
   fp --user install -y --noninteractive xa "runtime/org.test.Platform/$ARCH/test" &&
   fp --user install -y --noninteractive xa "app/org.test.XaHello/$ARCH/master"; then
  ok "xdg-app → flatpak: the runtime and the app install over HTTP"
else
  fail "xdg-app → flatpak: the runtime and the app install over HTTP" "$err"
fi
if fp --user run org.test.XaHello && [ "$out" = "built by xdg-app: app xdg-app-test info" ]; then
  ok "xdg-app → flatpak: the app runs under flatpak"
else
  fail "xdg-app → flatpak: the app runs under flatpak" "rc=$rc out=$out" "$err"
fi
if fp --user info --show-permissions org.test.XaHello &&
   printf '%s\n' "$out" | grep -q '^shared=network;$' &&
   printf '%s\n' "$out" | grep -q '^sockets=wayland;$'; then
  ok "xdg-app → flatpak: Flatpak reads the permissions build-finish wrote"
else
  fail "xdg-app → flatpak: Flatpak reads the permissions build-finish wrote" "$out" "$err"
fi
