#!/bin/sh
# tests/sandbox/test-plan.sh — the launcher's command line: every rejected
# plan fails before anything is created, with one line naming what is
# wrong, and exit status 1.
. "$(dirname "$0")/../lib/tap.sh"

is_ours || skip_all "the table checks xdg-app-sandbox's own messages"

# One case per line: the expected start of the message, a tab, the
# arguments (split on spaces).  The command `true` follows them, except
# after a final " ." (for options that would take it as their argument).
cases='unknown option	--no-such-option
--bind takes 2 arguments	--bind /usr .
--perms takes an octal	--perms 999 --dir /x
--perms must be followed	--perms 0700 --proc /proc
--perms given twice	--perms 0700 --perms 0700 --dir /x
--size takes a non-zero	--size 0 --tmpfs /tmp
--size must be followed by --tmpfs	--size 4096 --dir /x
--chmod takes an octal	--chmod 12a /x
--uid: invalid id	--unshare-user --uid -1
--hostname requires --unshare-uts	--hostname box
--as-pid-1 requires --unshare-pid	--as-pid-1
--as-pid-1 cannot be combined with --lock-file	--unshare-pid --as-pid-1 --lock-file /x
--userns-block-fd requires --unshare-user	--userns-block-fd 0
--args: invalid fd	--args x
--file: fd 77	--file 77 /x
--seccomp-profile: unknown profile	--seccomp-profile nosuch
--add-seccomp-fd cannot be combined with --seccomp	--seccomp 0 --add-seccomp-fd 0
invalid environment variable name	--setenv A=B c
--overlay-src is not supported	--overlay-src /usr
--setenv takes 2 arguments	--setenv A .
no command given	--unshare-pid .'

n=$(printf '%s\n' "$cases" | wc -l)
plan $((n + 3))

while IFS='	' read -r want args; do
    case $args in
      *' .') set -- ${args% .} ;;
      *) set -- $args true ;;
    esac
    "$XDG_APP_SANDBOX" "$@" >"$T/out" 2>"$T/err" </dev/null
    status=$?
    lines=$(wc -l <"$T/err")
    first=$(head -n 1 "$T/err")
    case $first in
      "xdg-app-sandbox: $want"*)
        if [ "$status" -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ]; then
          ok "rejects '$args': $first"
        else
          fail "rejects '$args'" "status $status, $lines lines" "$(cat "$T/err")"
        fi
        ;;
      *) fail "rejects '$args'" "want: xdg-app-sandbox: $want…" "got: $(cat "$T/err")" ;;
    esac
done <<EOF
$cases
EOF

out=$("$XDG_APP_SANDBOX" --help)
case $out in
  usage:*--seccomp-profile*) ok "--help prints the usage on stdout" ;;
  *) fail "--help prints the usage on stdout" "$out" ;;
esac

"$XDG_APP_SANDBOX" >/dev/null 2>"$T/err"
if [ $? -eq 1 ] && grep -q '^usage:' "$T/err"; then
  ok "no arguments: the usage on stderr, status 1"
else
  fail "no arguments: the usage on stderr, status 1" "$(cat "$T/err")"
fi

# --args data is parsed like the command line, with the same checks.
printf -- '--ro-bind\0/usr\0/usr\0--symlink\0usr/bin\0/bin\0--symlink\0usr/lib64\0/lib64\0--symlink\0usr/lib\0/lib\0--setenv\0FROM_ARGS\0yes\0' >"$T/args"
out=$("$XDG_APP_SANDBOX" --args 3 --unshare-user sh -c 'echo $FROM_ARGS' 3<"$T/args" 2>&1)
if [ "$out" = yes ]; then
  ok "--args FD: NUL-separated options are read and applied"
else
  fail "--args FD: NUL-separated options are read and applied" "$out"
fi
