#!/bin/sh
# tests/cli/test-cli.sh — the `xdg-app` command as a user meets it: every
# command's --help, one-line errors for bad arguments, and a walkthrough
# (build-export of a runtime and an app, add-repo, install, list, info,
# override, update, uninstall, delete-repo) against a real OSTree repo
# served over HTTP on 127.0.0.1; progress stays off a pipe and appears on
# a terminal; --system is refused to a non-root user.
#
# Everything lives in $T: HOME, the XDG dirs (so the user installation is
# $T/home/.local/share/xdg-app) and the repo.  Nothing touches the real
# HOME or /var/lib/xdg-app.
#
# Trusts: python3's http.server, runtime/compose-host-runtime and the
# host's binaries it copies.

. "$(dirname "$0")/../lib/tap.sh"

XA=${XDG_APP:?XDG_APP must name the xdg-app binary}
SRC=${XDG_APP_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
case $XA in /*) ;; *) XA=$(pwd)/$XA ;; esac
[ -x "$XA" ] || bail_out "'$XA' is not executable"
[ -x /usr/bin/python3 ] || skip_all "/usr/bin/python3 is not installed (serves the repo)"

export HOME="$T/home"
export XDG_DATA_HOME="$T/home/.local/share"
export XDG_CONFIG_HOME="$T/home/.config"
export XDG_CACHE_HOME="$T/home/.cache"
export LC_ALL=C.UTF-8
unset XDG_DATA_DIRS
mkdir -p "$HOME"
INST=$XDG_DATA_HOME/xdg-app
ARCH=$(uname -m)
case $ARCH in i?86) ARCH=i386 ;; armv7l|armv8l) ARCH=arm ;; esac

# Every command `xdg-app --help` must list.
COMMANDS="add-repo delete-repo list-repos install install-app install-runtime
update update-app update-runtime uninstall uninstall-app uninstall-runtime
list info override run build-init build build-finish build-export
remote-add remote-delete remotes"
# shellcheck disable=SC2086 # the words are the point
n_commands=$(echo $COMMANDS | wc -w)
n_bad=$(grep -c '^bad "' "$0")
plan $((1 + n_commands + n_bad + 26))

# run CMD…: $out, $err and $rc of `xdg-app CMD…`, stdin closed.
xa ()
{
  "$XA" "$@" >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  out=$(cat "$T/out")
  err=$(cat "$T/err")
  return $rc
}

# bad DESC ARGS…: exit status 1, nothing on stdout, exactly one stderr
# line, and it starts with "error: ".
bad ()
{
  _desc=$1
  shift
  xa "$@"
  _lines=$(wc -l <"$T/err")
  if [ "$rc" -eq 1 ] && [ "$_lines" -eq 1 ] && [ -z "$out" ] &&
     grep -q '^error: ' "$T/err"; then
    ok "bad arguments, one error line: $_desc"
  else
    fail "bad arguments, one error line: $_desc" "xdg-app $*: status $rc" "stdout: $out" "stderr: $err"
  fi
}

# expect DESC PATTERN: ok if $out matches the grep pattern.
expect_out ()
{
  if printf '%s\n' "$out" | grep -q -- "$2"; then
    ok "$1"
  else
    fail "$1" "status $rc" "stdout: $out" "stderr: $err" "expected: $2"
  fi
}

# ---------------------------------------------------------------------------
# --help

xa --help
missing=
for c in $COMMANDS; do
  printf '%s\n' "$out" | grep -q "^  $c  " || missing="$missing $c"
done
if [ "$rc" -eq 0 ] && [ -z "$missing" ] && [ -z "$err" ]; then
  ok "xdg-app --help exits 0 and lists every command"
else
  fail "xdg-app --help exits 0 and lists every command" "status $rc, missing:$missing" "$err"
fi

for c in $COMMANDS; do
  xa "$c" --help
  if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^  xdg-app $c "; then
    ok "xdg-app $c --help exits 0"
  else
    fail "xdg-app $c --help exits 0" "status $rc" "$out" "$err"
  fi
done

# `run` starts without loading libostree or GIO (cli/main.c); the store
# commands above answered --help through xdg-app-store.
needed=$(readelf -d "$XA" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case $needed in
  *libostree*|*libgio*) fail "xdg-app links neither libostree nor GIO" "NEEDED: $needed" ;;
  *libglib*) ok "xdg-app links neither libostree nor GIO" ;;
  *) fail "xdg-app links neither libostree nor GIO" "NEEDED: $needed (readelf missing?)" ;;
esac

# ---------------------------------------------------------------------------
# Bad arguments: one line, "error: …", status 1.  Nothing here needs a
# repo.

bad "no command"
bad "unknown command" frobnicate
bad "unknown global option" --frobnicate list
bad "--user with --system" --user --system list
bad "add-repo without arguments" add-repo
bad "add-repo with one argument too many" add-repo a http://127.0.0.1/ c
bad "add-repo with an unknown option" add-repo --bogus a http://127.0.0.1/
bad "add-repo with a bad name" add-repo "bad name" http://127.0.0.1/
bad "add-repo with a bad URL" add-repo good ftp://127.0.0.1/
bad "delete-repo of a missing remote" delete-repo nosuchremote
bad "install-runtime without a branch" install-runtime remote org.test.Platform
bad "install-app of a missing remote" install-app nosuchremote org.test.Hello
bad "install with --app and --runtime" install --app --runtime remote org.test.Hello
bad "install with a bad id" install remote "not an id"
bad "update-runtime without a branch" update-runtime org.test.Platform
bad "update-app of what is not installed" update-app org.test.Missing
bad "update of what is not installed" update org.test.Missing
bad "uninstall-app with a bad id" uninstall-app "not/an/id"
bad "uninstall-app of what is not installed" uninstall-app org.test.Missing
bad "uninstall-runtime with one argument too many" uninstall-runtime a b c
bad "list with an argument" list extra
bad "list with --app and --runtime" list --app --runtime
bad "info without an id" info
bad "info of what is not installed" info org.test.Missing
bad "override with an unknown socket" override --socket=x12 org.test.Hello
bad "override with nothing to do" override org.test.Hello
bad "override with --show and --reset" override --show --reset org.test.Hello
bad "build-init with too few arguments" build-init "$T/b"
bad "build-init with an unknown --type" build-init --type=bogus "$T/b" org.a.App org.a.Sdk org.a.Platform
bad "build-finish of a missing directory" build-finish "$T/nosuchdir"
bad "build-export without a directory" build-export "$T/repo"

# ---------------------------------------------------------------------------
# The walkthrough.  1-3: a runtime and an app, exported to $T/repo.

if "$SRC/runtime/compose-host-runtime" "$T/runtime" >"$T/compose.log" 2>&1 &&
   xa build-export --runtime "$T/repo" "$T/runtime" test &&
   printf '%s\n' "$out" | grep -q '^Commit: [0-9a-f]\{64\}$'; then
  ok "build-export --runtime commits the composed runtime and prints the commit"
else
  bail_out "cannot export the test runtime: $(cat "$T/compose.log") $err"
fi

APP=org.test.Hello
make_app ()
{
  xa build-init "$T/app" $APP org.test.Platform org.test.Platform test &&
  mkdir -p "$T/app/files/bin" &&
  printf '#!/bin/sh\necho Hello\n' >"$T/app/files/bin/hello" &&
  chmod 0755 "$T/app/files/bin/hello" &&
  xa build-finish --socket=wayland --share=network "$T/app" &&
  xa build-export "$T/repo" "$T/app"
}
if make_app && grep -q '^command=hello$' "$T/app/metadata" &&
   grep -q '^sockets=wayland;$' "$T/app/metadata"; then
  ok "build-init, build-finish --socket=wayland and build-export make an app"
else
  bail_out "cannot build the test app: $err"
fi

# A new commit of the app, for updates.
bump_app ()
{
  echo "# $1" >>"$T/app/files/bin/hello"
  xa build-export "$T/repo" "$T/app"
}

if ostree --repo="$T/repo" refs 2>/dev/null | sort | tr '\n' ' ' |
   grep -q "^app/$APP/$ARCH/master runtime/org.test.Platform/$ARCH/test $"; then
  ok "the repo holds the app and runtime refs"
else
  fail "the repo holds the app and runtime refs" "$(ostree --repo="$T/repo" refs 2>&1)"
fi

# The repo over HTTP on 127.0.0.1; port 0 lets the kernel pick a free one.
/usr/bin/python3 -u -m http.server --bind 127.0.0.1 --directory "$T/repo" 0 \
  >"$T/http.log" 2>&1 &
http_pid=$!
on_exit "kill $http_pid"
port=
for _ in $(seq 50); do
  port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$T/http.log")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || bail_out "python3 -m http.server did not start: $(cat "$T/http.log")"
URL=http://127.0.0.1:$port/

# 4-5: remotes.
if xa add-repo --no-gpg-verify --title="Test repo" testrepo "$URL" && [ -z "$out$err" ]; then
  ok "add-repo records the remote, silently"
else
  fail "add-repo records the remote, silently" "status $rc" "$out" "$err"
fi
xa list-repos
expect_out "list-repos prints NAME, URL, TITLE, gpg and installation columns" \
  "^testrepo	$URL	Test repo	no-gpg-verify	user$"

# 6-9: installs.  stderr is a file here: no progress may appear on it.
xa install-runtime testrepo org.test.Platform test
if [ "$rc" -eq 0 ] && [ -z "$err" ] &&
   printf '%s\n' "$out" | grep -q "^Installed runtime 'org.test.Platform/$ARCH/test' from 'testrepo'"; then
  ok "install-runtime installs, and prints no progress on a pipe"
else
  fail "install-runtime installs, and prints no progress on a pipe" "status $rc" "$out" "$err"
fi
xa install-app testrepo $APP
if [ "$rc" -eq 0 ] && [ -z "$err" ] &&
   printf '%s\n' "$out" | grep -q "^Installed '$APP' from 'testrepo', commit [0-9a-f]\{12\}$"; then
  ok "install-app finds the only branch, installs, and prints no progress on a pipe"
else
  fail "install-app finds the only branch, installs, and prints no progress on a pipe" \
    "status $rc" "$out" "$err"
fi
if [ -L "$INST/app/$APP/$ARCH/master/active" ] && [ -d "$INST/app/$APP/data" ]; then
  ok "the app is deployed in \$XDG_DATA_HOME/xdg-app, with its data directory"
else
  fail "the app is deployed in \$XDG_DATA_HOME/xdg-app, with its data directory" "$(ls -R "$INST" 2>&1 | head -20)"
fi
bad "install-app of an installed app" install-app testrepo $APP

# 10-12: list and info.
xa --user list
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 2 ] &&
   printf '%s\n' "$out" | grep -q "^$APP	master	$ARCH	app	testrepo	[0-9a-f]\{12\}	user$" &&
   printf '%s\n' "$out" | grep -q "^org.test.Platform	test	$ARCH	runtime	testrepo	[0-9a-f]\{12\}	user$"; then
  ok "list prints one tab-separated line per ref"
else
  fail "list prints one tab-separated line per ref" "status $rc" "$out" "$err"
fi
xa --user list --app
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | cut -f1)" = "$APP" ]; then
  ok "list --app | cut -f1 gives the app ids"
else
  fail "list --app | cut -f1 gives the app ids" "$out" "$err"
fi
xa info $APP
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^ID: $APP$" &&
   printf '%s\n' "$out" | grep -q "^Origin: testrepo$" &&
   printf '%s\n' "$out" | grep -q "^Runtime: org.test.Platform/$ARCH/test$" &&
   printf '%s\n' "$out" | grep -q "^Command: hello$"; then
  ok "info prints Key: value lines"
else
  fail "info prints Key: value lines" "$out" "$err"
fi

# 13-16: permissions and overrides.
xa info --show-permissions $APP
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q '^sockets=wayland;$' &&
   printf '%s\n' "$out" | grep -q '^shared=network;$'; then
  ok "info --show-permissions prints the metadata's permissions"
else
  fail "info --show-permissions prints the metadata's permissions" "$out" "$err"
fi
xa override --nosocket=wayland --socket=session-bus $APP
if [ "$rc" -eq 0 ] && [ -f "$INST/overrides/$APP" ]; then
  ok "override writes the app's override file"
else
  fail "override writes the app's override file" "status $rc" "$out" "$err"
fi
xa override --show $APP
expect_out "override --show prints the override, negations included" '^sockets=!wayland;session-bus;$'
xa info --show-permissions $APP
if [ "$rc" -eq 0 ] && ! printf '%s\n' "$out" | grep -q 'wayland' &&
   printf '%s\n' "$out" | grep -q '^sockets=session-bus;$' &&
   printf '%s\n' "$out" | grep -q 'session-bus.*defeats the sandbox'; then
  ok "info --show-permissions merges the override and notes that session-bus defeats the sandbox"
else
  fail "info --show-permissions merges the override and notes that session-bus defeats the sandbox" "$out" "$err"
fi
if xa override --reset $APP && [ ! -e "$INST/overrides/$APP" ] && xa override --show $APP &&
   [ -z "$out" ]; then
  ok "override --reset removes the override"
else
  fail "override --reset removes the override" "status $rc" "$out" "$err"
fi

# 17-20: updates.
xa update
expect_out "update with nothing new says there is nothing to update" '^Nothing to update'
bump_app 2
xa update
if [ "$rc" -eq 0 ] && [ -z "$err" ] &&
   printf '%s\n' "$out" | grep -q "^Updated '$APP' to commit [0-9a-f]\{12\}$"; then
  ok "update pulls and deploys a new commit, quietly on a pipe"
else
  fail "update pulls and deploys a new commit, quietly on a pipe" "status $rc" "$out" "$err"
fi
xa update-app $APP
expect_out "update-app says when the app is already up to date" "^'$APP' is already up to date$"
bump_app 3
if ! command -v script >/dev/null 2>&1; then
  skip "no script(1) to give xdg-app a terminal"
else
  # script(1) runs the command on a pseudo-terminal: stderr is a tty.
  script -qec "'$XA' update-app $APP" /dev/null >"$T/tty.log" 2>&1 </dev/null
  if grep -q "Pulled app/$APP/$ARCH/master: [0-9]* objects" "$T/tty.log" &&
     tr '\r' '\n' <"$T/tty.log" | grep -q "^Updated '$APP'"; then
    ok "on a terminal, update-app shows one progress line, rewritten in place"
  else
    fail "on a terminal, update-app shows one progress line, rewritten in place" "$(cat -v "$T/tty.log")"
  fi
fi

# 21: completion, while something is installed.
if ! command -v bash >/dev/null 2>&1; then
  skip "no bash for the completion script"
else
  words=$(PATH="$(dirname "$XA"):$PATH" bash -c '
    . "$1/completion/xdg-app.bash"
    complete_words () {
      COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
      _xdg_app; echo "${COMPREPLY[*]}"
    }
    complete_words xdg-app uninst
    complete_words xdg-app run ""
    complete_words xdg-app delete-repo ""
    complete_words xdg-app add-repo --no-gpg
    complete_words xdg-app override --socket=way' sh "$SRC" 2>&1)
  expected="uninstall uninstall-app uninstall-runtime
$APP
testrepo
--no-gpg-verify
--socket=wayland"
  if [ "$words" = "$expected" ]; then
    ok "bash completion: commands, app ids, remote names, options and values"
  else
    fail "bash completion: commands, app ids, remote names, options and values" "$words"
  fi
fi

# 22-27: uninstalls and remotes.
bad "uninstall-runtime of a runtime an app needs" uninstall-runtime org.test.Platform test
xa uninstall-app $APP
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^Uninstalled '$APP'; its data stays in" &&
   [ ! -e "$INST/app/$APP/$ARCH" ] && [ -d "$INST/app/$APP/data" ]; then
  ok "uninstall-app removes the app and says its data stays"
else
  fail "uninstall-app removes the app and says its data stays" "status $rc" "$out" "$err"
fi
bad "delete-repo of a remote an installed runtime came from" delete-repo testrepo
if xa uninstall org.test.Platform && xa --user list && [ -z "$out" ]; then
  ok "uninstall finds the runtime by its id; list is empty afterwards"
else
  fail "uninstall finds the runtime by its id; list is empty afterwards" "status $rc" "$out" "$err"
fi
if xa remote-delete testrepo && xa --user remotes && [ -z "$out" ]; then
  ok "remote-delete (delete-repo) forgets the remote; remotes (list-repos) is empty"
else
  fail "remote-delete (delete-repo) forgets the remote; remotes (list-repos) is empty" "status $rc" "$out" "$err"
fi

# --system is refused to a non-root user, in one line, before anything.
if ! is_root; then
  xa --system list
  if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^error: .*only root' "$T/err"; then
    ok "--system as non-root: one line error"
  else
    fail "--system as non-root: one line error" "status $rc" "$err"
  fi
elif ! nobody_can_run "$XA"; then
  skip "nobody cannot run '$XA' (the build tree is not world-readable)"
else
  as_nobody "$XA" --system list >"$T/out" 2>"$T/err" </dev/null
  rc=$?
  if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^error: .*only root' "$T/err" &&
     [ ! -s "$T/out" ]; then
    ok "--system as non-root (nobody): one line error"
  else
    fail "--system as non-root (nobody): one line error" "status $rc" "$(cat "$T/err")"
  fi
fi
