#!/bin/sh
# Register TaskPack Desk with a Linux desktop, for the current user only (no root):
#   - the file types application/vnd.taskpack+zip (*.taskpack) and
#     application/vnd.taskpack+json (*.taskpack.json)  -> $XDG_DATA_HOME/mime/packages/
#   - the app icon in the usual sizes, also as the icon of both file types
#                                                      -> $XDG_DATA_HOME/icons/hicolor/
#   - the launcher taskpack-desk.desktop, made the default app for both types, so a
#     double-click on a pack opens the desk        -> $XDG_DATA_HOME/applications/
#   - bash completion for the `taskpack` command    -> $XDG_DATA_HOME/bash-completion/
#
# Usage: install-desktop.sh [--exec PATH] [--bin-dir DIR] [--uninstall]
#   --exec PATH    the taskpack-desk program the launcher starts. Default: the frozen app
#                  this script ships in (../../taskpack-desk), else taskpack-desk on PATH.
#   --bin-dir DIR  also link `taskpack` and `taskpack-desk` into DIR (e.g. ~/.local/bin).
#   --uninstall    remove what an earlier run installed.
# XDG_DATA_HOME defaults to ~/.local/share, XDG_CONFIG_HOME to ~/.config.
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
app_id=taskpack-desk
types="application/vnd.taskpack+zip application/vnd.taskpack+json"
exec_path=""
bin_dir=""
uninstall=0

while [ $# -gt 0 ]; do
    case "$1" in
        --exec) exec_path=$2; shift 2 ;;
        --exec=*) exec_path=${1#--exec=}; shift ;;
        --bin-dir) bin_dir=$2; shift 2 ;;
        --bin-dir=*) bin_dir=${1#--bin-dir=}; shift ;;
        --uninstall) uninstall=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install-desktop: unknown argument '$1'; see --help." >&2; exit 1 ;;
    esac
done

# the icons: resources/icons in a source tree, share/icons in the frozen app
icons=""
for d in "$here/../icons" "$here/../../icons"; do
    [ -d "$d" ] && { icons=$(CDPATH= cd -- "$d" && pwd); break; }
done

run_quiet() { "$@" >/dev/null 2>&1 || true; }
have() { command -v "$1" >/dev/null 2>&1; }

# an icon's pixel size from its name: icon-48.png, icon_48x48.png, 48x48/… or 48.png
icon_size() {
    printf '%s\n' "$1" | sed -n \
        -e 's#.*[^0-9]\([0-9][0-9]*\)x\1[^0-9/]*\.png$#\1#p' \
        -e 's#.*[/_-]\([0-9][0-9]*\)\.png$#\1#p' \
        -e 's#.*/\([0-9][0-9]*\)x\1/[^/]*\.png$#\1#p' | head -n 1
}

if [ "$uninstall" = 1 ]; then
    rm -f "$data/mime/packages/$app_id.xml" "$data/applications/$app_id.desktop" \
          "$data/bash-completion/completions/taskpack"
    for f in "$data"/icons/hicolor/*/apps/$app_id.* \
             "$data"/icons/hicolor/*/mimetypes/application-vnd.taskpack+*; do
        [ -e "$f" ] && rm -f "$f"
    done
    if [ -n "$bin_dir" ]; then
        for b in taskpack taskpack-desk; do
            [ -L "$bin_dir/$b" ] && rm -f "$bin_dir/$b"
        done
    fi
    have update-mime-database && [ -d "$data/mime" ] && run_quiet update-mime-database "$data/mime"
    have update-desktop-database && [ -d "$data/applications" ] && run_quiet update-desktop-database "$data/applications"
    printf 'TaskPack Desk: desktop integration removed from %s.\n' "$data"
    exit 0
fi

if [ -z "$exec_path" ]; then
    if [ -x "$here/../../taskpack-desk" ] && [ -f "$here/../../taskpack-desk" ]; then
        exec_path=$(CDPATH= cd -- "$here/../.." && pwd)/taskpack-desk   # the frozen app
    elif have taskpack-desk; then
        exec_path=$(command -v taskpack-desk)
    else
        exec_path=taskpack-desk
    fi
fi
bin_from=$(dirname -- "$exec_path")

# 1. the file types
mkdir -p "$data/mime/packages"
cp "$here/$app_id.xml" "$data/mime/packages/$app_id.xml"
if have update-mime-database; then
    update-mime-database "$data/mime"
else
    echo "install-desktop: update-mime-database is missing (package shared-mime-info);" \
         "the file types take effect once it runs." >&2
fi

# 2. the icons, for the app and for both file types
if [ -n "$icons" ]; then
    for png in "$icons"/*.png "$icons"/*/*.png; do
        [ -f "$png" ] || continue
        size=$(icon_size "$png")
        [ -n "$size" ] || continue
        for sub in apps mimetypes; do mkdir -p "$data/icons/hicolor/${size}x${size}/$sub"; done
        cp "$png" "$data/icons/hicolor/${size}x${size}/apps/$app_id.png"
        for t in $types; do
            cp "$png" "$data/icons/hicolor/${size}x${size}/mimetypes/$(echo "$t" | tr / -).png"
        done
    done
    for svg in "$icons"/*.svg; do
        [ -f "$svg" ] || continue
        mkdir -p "$data/icons/hicolor/scalable/apps" "$data/icons/hicolor/scalable/mimetypes"
        cp "$svg" "$data/icons/hicolor/scalable/apps/$app_id.svg"
        for t in $types; do
            cp "$svg" "$data/icons/hicolor/scalable/mimetypes/$(echo "$t" | tr / -).svg"
        done
        break
    done
    have gtk-update-icon-cache && run_quiet gtk-update-icon-cache -f -t "$data/icons/hicolor"
else
    echo "install-desktop: no icons found next to $here; the launcher will use a generic icon." >&2
fi

# 3. the launcher, pointing at this installation, default for both file types
mkdir -p "$data/applications"
# Exec quoting (Desktop Entry spec): a path with reserved characters goes in double
# quotes with " ` $ \ escaped, then every backslash is doubled as a string escape.
EXEC_PATH=$exec_path awk '
    BEGIN {
        p = ENVIRON["EXEC_PATH"]
        if (p ~ /[] \t"\047\\<>~|&;$*?#()`[]/) {
            gsub(/[\\"`$]/, "\\\\&", p)
            p = "\"" p "\""
        }
        gsub(/\\/, "\\\\&", p)
        exec_field = p; try_exec = ENVIRON["EXEC_PATH"]
    }
    /^Exec=/ { print "Exec=" exec_field " %F"; next }
    /^TryExec=/ { print "TryExec=" try_exec; next }
    { print }
' "$here/$app_id.desktop" > "$data/applications/$app_id.desktop"
have update-desktop-database && run_quiet update-desktop-database "$data/applications"
if have xdg-mime; then
    # writes $XDG_CONFIG_HOME/mimeapps.list: a double-click on a pack opens the desk
    for t in $types; do run_quiet xdg-mime default "$app_id.desktop" "$t"; done
fi

# 4. bash completion for the command line: the script shipped with the frozen app, or
#    one generated by the `taskpack` next to the GUI
completion="$data/bash-completion/completions/taskpack"
if [ -f "$here/../completion/taskpack.bash" ]; then
    mkdir -p "$(dirname -- "$completion")"
    cp "$here/../completion/taskpack.bash" "$completion"
elif [ -x "$bin_from/taskpack" ]; then
    if script=$("$bin_from/taskpack" completion bash 2>/dev/null) && [ -n "$script" ]; then
        mkdir -p "$(dirname -- "$completion")"
        printf '%s\n' "$script" > "$completion"
    fi
fi

# 5. optional: commands on PATH
if [ -n "$bin_dir" ]; then
    mkdir -p "$bin_dir"
    for b in taskpack-desk taskpack; do
        [ -x "$bin_from/$b" ] && ln -sf "$bin_from/$b" "$bin_dir/$b"
    done
fi

printf 'TaskPack Desk: registered *.taskpack and *.taskpack.json in %s (opens with %s).\n' "$data" "$exec_path"
