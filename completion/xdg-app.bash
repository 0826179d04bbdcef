# completion/xdg-app.bash — bash completion for xdg-app.
#
# Commands and options come from `xdg-app --help` and `xdg-app COMMAND
# --help`, the one place they are defined; installed ids from the first
# column of `xdg-app list`, remote names from the first column of
# `xdg-app list-repos`.  Installed as "xdg-app" in bash-completion's
# completions directory, so that it is loaded on first use.

# The command names: the indented words under "Commands:".
_xdg_app_commands ()
{
    "$1" --help 2>/dev/null | sed -n '/^Commands:/,$ s/^  \([a-z][a-z-]*\)  .*/\1/p'
}

# The long options of `xdg-app COMMAND --help` (or of xdg-app itself),
# with "=" after those that take a value.
_xdg_app_options ()
{
    local prog=$1 cmd=$2
    # shellcheck disable=SC2086 # $cmd is one word or none
    "$prog" $cmd --help 2>/dev/null |
        sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\)\(=\{0,1\}\).*/\2\3/p'
}

# Values of the permission options that take a word from a fixed list.
_xdg_app_values ()
{
    case $1 in
        --socket|--nosocket)
            echo "wayland pulseaudio session-bus system-bus ssh-auth pcsc cups gpg-agent" ;;
        --share|--unshare) echo "network ipc" ;;
        --device|--nodevice) echo "dri input usb kvm shm all" ;;
        --allow|--disallow) echo "devel multiarch bluetooth canbus per-app-dev-shm" ;;
        --filesystem|--nofilesystem) echo "host host-os host-etc home xdg-download xdg-documents" ;;
        --type) echo "app runtime" ;;
        *) return 1 ;;
    esac
}

_xdg_app ()
{
    local cur prog cmd="" i word args=0 scope=""
    cur=${COMP_WORDS[COMP_CWORD]}
    prog=${COMP_WORDS[0]}
    command -v "$prog" >/dev/null 2>&1 || prog=xdg-app

    # The command is the first word that is not an option; the positional
    # arguments after it are counted to know which one is being typed.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
            --user|--system) scope=$word ;;
            -*) ;;
            *)
                if [ -z "$cmd" ]; then
                    cmd=$word
                else
                    args=$((args + 1))
                fi
                ;;
        esac
    done

    if [[ $cur == --*=* ]]; then
        local values
        if values=$(_xdg_app_values "${cur%%=*}"); then
            # shellcheck disable=SC2207 # word splitting is the point
            COMPREPLY=($(compgen -P "${cur%%=*}=" -W "$values" -- "${cur#*=}"))
        fi
        return 0
    fi

    if [[ $cur == -* ]]; then
        # shellcheck disable=SC2207
        COMPREPLY=($(compgen -W "$(_xdg_app_options "$prog" "$cmd")" -- "$cur"))
        [[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
        return 0
    fi

    if [ -z "$cmd" ]; then
        # shellcheck disable=SC2207
        COMPREPLY=($(compgen -W "$(_xdg_app_commands "$prog")" -- "$cur"))
        return 0
    fi

    local words=""
    case $cmd:$args in
        run:0|info:0|override:0|update-app:*|uninstall-app:0)
            words=$("$prog" ${scope:+"$scope"} list --app 2>/dev/null | cut -f1) ;;
        update-runtime:0|uninstall-runtime:0)
            words=$("$prog" ${scope:+"$scope"} list --runtime 2>/dev/null | cut -f1) ;;
        update:*|uninstall:0)
            words=$("$prog" ${scope:+"$scope"} list 2>/dev/null | cut -f1) ;;
        kill:0)
            words=$("$prog" ps 2>/dev/null | cut -f1,3 | tr '\t' '\n') ;;
        delete-repo:0|remote-delete:0|install:0|install-app:0|install-runtime:0)
            words=$("$prog" ${scope:+"$scope"} list-repos 2>/dev/null | cut -f1) ;;
        build-init:0|build:0|build-finish:0|build-export:*)
            compopt -o default 2>/dev/null
            COMPREPLY=()
            return 0 ;;
        *) return 0 ;;
    esac
    # shellcheck disable=SC2207
    COMPREPLY=($(compgen -W "$(printf '%s\n' "$words" | sort -u)" -- "$cur"))
    return 0
}

complete -F _xdg_app xdg-app
