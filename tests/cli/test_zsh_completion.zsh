#!/usr/bin/env zsh
# Exercises completions/_dispatchtool through zsh's own completion system.
# usage: zsh test_zsh_completion.zsh BUILD_DIR
#
# An interactive `zsh -f -i` runs on a pseudo-terminal (zsh/zpty) with
# compinit and the completion on $fpath. A TAB there runs the real completion
# system; a `compadd` wrapper (the builtin does the work, prefix matching
# included) prints every candidate it is given, between markers that the
# completion system's pre/post hooks print. A key bound to a widget then prints
# the edited line, so a check can also say what a TAB inserts (`dir/`, a key
# list with the comma kept, `RULE=`).
emulate -L zsh
setopt err_return no_unset
zmodload zsh/zpty zsh/datetime

local build=${1:A} src=${0:A:h:h:h}
[[ -x $build/dispatchtool ]] || { print "no dispatchtool in $build"; exit 1 }
export PATH=$build:$PATH TERM=xterm
local tmp=$(mktemp -d)
trap 'zpty -d z 2>/dev/null; rm -rf $tmp' EXIT
mkdir -p $tmp/subdir
touch $tmp/ops.toml $tmp/base.lst $tmp/subdir/x.toml
touch $tmp/csrc.cpp $tmp/csrc.cu $tmp/csrc.h $tmp/cmods.py $tmp/cnative_functions.yaml $tmp/cbackend.yml $tmp/c.txt
cd $tmp

integer pass=0 fail=0
local buf=

# readto MARK: reads the shell's output until MARK; $reply is what came before it.
readto() {
  local o
  float deadline=$(( EPOCHREALTIME + 20 ))
  while [[ $buf != *$1* ]]; do
    if (( EPOCHREALTIME > deadline )); then
      print -r -- "FAIL: timeout waiting for $1; output: ${buf[-300,-1]}"
      return 1
    fi
    if zpty -r -t z o; then buf+=$o; else sleep 0.01; fi
  done
  reply=${buf%%$1*}
  buf=${buf#*$1}
}

zpty z zsh -f -i
# Markers are written so that the shell's echo of these lines never contains them.
zpty -w z "PS1='%% '; fpath=(${(q)src}/completions \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "unsetopt beep auto_list auto_menu list_ambiguous; setopt no_menu_complete"
zpty -w z 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __h __P __p; zparseopts -E P:=__P p:=__p
  builtin compadd -A __h "$@"
  local __x; for __x in $__h; do print -r -- "<${IPREFIX}${__P[2]-}${__p[2]-}${__x}>"; done
  builtin compadd "$@"
}'
zpty -w z '__mark_begin() { print -r -- "@@""BEGIN@@"; comppostfuncs=(__mark_end) }; __mark_end() { print -r -- "@@""END@@"; compprefuncs=(__mark_begin) }; compprefuncs=(__mark_begin)'
zpty -w z '__show_line() { print -r -- "@@""LINE[$BUFFER]@@" }; zle -N __show_line; bindkey "^X^P" __show_line'
zpty -w z 'print "RE""ADY"'
readto READY

# complete LINE: $candidates = what TAB offers, $line_after = the line after it.
local -a candidates
local line_after
complete() {
  zpty -w -n z "$1"$'\t\C-x\C-p\C-u'
  readto @@BEGIN@@ || return 1
  readto @@END@@ || return 1
  candidates=(${(M)${(f)${reply//$'\r'/}}:#\<*\>})
  candidates=(${${candidates#\<}%\>})
  readto '@@LINE[' || return 1
  readto ']@@' || return 1
  line_after=$reply
}

# check LINE WANT: completing LINE offers WANT.
check() {
  if complete "$1" && (( ${candidates[(Ie)$2]} )); then
    pass+=1
  else
    print -r -- "FAIL: '$1' does not offer '$2' (got: ${candidates[1,8]})"
    fail+=1
  fi
}
# check_not LINE UNWANTED: completing LINE does not offer UNWANTED.
check_not() {
  if complete "$1" && (( ! ${candidates[(Ie)$2]} )); then
    pass+=1
  else
    print -r -- "FAIL: '$1' offers '$2'"
    fail+=1
  fi
}
# check_inserts LINE AFTER: TAB turns LINE into AFTER.
check_inserts() {
  if complete "$1" && [[ $line_after == "$2" ]]; then
    pass+=1
  else
    print -r -- "FAIL: '$1' + TAB gives '$line_after', want '$2'"
    fail+=1
  fi
}

local sub opt rule profile f
# The subcommands and built-in profiles --help lists (the lists cannot drift).
local -a subcommands profiles
subcommands=(${(f)"$(dispatchtool --help | sed -n '/^Subcommands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')"})
profiles=(${(f)"$(dispatchtool table --help | grep -E '^ +--profile' | grep -oE 'torch-[0-9a-z.]+' | sort -u)"})
if (( $#subcommands < 11 || $#profiles < 4 )); then
  print "FAIL: --help lists $#subcommands subcommands and $#profiles profiles"; fail+=1
fi
for profile in $profiles; do
  check "dispatchtool table --profile " $profile
  check "dispatchtool coverage --against " $profile
done
check "dispatchtool table --build c" cuda
# Every kind of file the readers take, for commands that read them; no other file.
for f in csrc.cpp csrc.cu csrc.h cmods.py cnative_functions.yaml cbackend.yml; do
  check "dispatchtool lint c" $f
  check "dispatchtool diff c" $f
  check "dispatchtool import c" $f
done
check_not "dispatchtool lint c" c.txt
check_not "dispatchtool import " ops.toml
check "dispatchtool import -o o" ops.toml
for sub in $subcommands; do
  check "dispatchtool " $sub
  # Every option the subcommand's --help lists (-h,--help too).
  for opt in ${(f)"$(dispatchtool $sub --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z-]+' | grep -oE -- '--[a-z-]+')"}; do
    check "dispatchtool $sub $opt" $opt
  done
done
check "dispatchtool --v" --version
check "dispatchtool table --style py" python-dispatcher
check "dispatchtool table --color n" never
check "dispatchtool lint --format sa" sarif
check "dispatchtool lint --color n" never
check "dispatchtool html --keys AutogradC" AutogradCPU
check "dispatchtool lint --fail-on w" warning
check "dispatchtool coverage --status mis" missing
check "dispatchtool coverage --fail-on missing,ambi" missing,ambiguous
check "dispatchtool coverage --backend PrivateU" PrivateUse1
check "dispatchtool coverage --format js" json
check "dispatchtool ops --tag view_c" view_copy
check "dispatchtool ops --profile torch-main --tag poin" pointwise
check "dispatchtool coverage --exclude-tag gener" generated
check "dispatchtool lint --ignore-tag generated,inplace_v" generated,inplace_view
check "dispatchtool table --keys AutogradC" AutogradCPU
check "dispatchtool table --keys CPU,AutogradC" CPU,AutogradCPU
check "dispatchtool explain --register CPU,Composite" CPU,CompositeImplicitAutograd
# zsh's _values inserts the separator as an auto-removable suffix.
check_inserts "dispatchtool table --keys CPU,AutogradCP" "dispatchtool table --keys CPU,AutogradCPU,"
# Files: TOML files and directories as registration files and after --profile
# (with the built-in profile names), any file after the lint file options.
check "dispatchtool table o" ops.toml
check "dispatchtool table s" subdir
# (When nothing matches, zsh's _files falls back to every file, by design.)
check_not "dispatchtool table " base.lst
check_inserts "dispatchtool table subd" "dispatchtool table subdir/"
check_inserts "dispatchtool table subdir/" "dispatchtool table subdir/x.toml "
check "dispatchtool table --profile " torch-main
check "dispatchtool table --profile " torch-1.13
check "dispatchtool table --profile " ops.toml
check "dispatchtool keys --profile o" ops.toml
check "dispatchtool lint --profile s" subdir
check_not "dispatchtool table --profile " base.lst
check "dispatchtool lint --baseline b" base.lst
check "dispatchtool lint --config b" base.lst
check "dispatchtool lint --write-baseline b" base.lst
check "dispatchtool lint --context s" subdir
# Rule ids (lint --list-rules) for --select/--ignore, comma lists like --keys.
local first
for rule in ${${(f)"$(dispatchtool lint --list-rules)"}%% *}; do
  check "dispatchtool lint --select " $rule
  # (_values does not offer a value the list already has.)
  first=duplicate-def; [[ $rule == $first ]] && first=impl-without-def
  check "dispatchtool lint --ignore $first,${rule[1,5]}" $first,$rule
done
check_inserts "dispatchtool lint --select composite-c" "dispatchtool lint --select composite-conflict,"
check_inserts "dispatchtool lint --severity missing-a" "dispatchtool lint --severity missing-autograd="
check "dispatchtool lint --severity missing-autograd=i" missing-autograd=info

print "$pass passed, $fail failed"
# At least today's options and values (a changed --help format must not make
# the loops above check nothing).
if (( pass < 100 )); then print "FAIL: only $pass checks ran"; fail=1; fi
(( fail == 0 ))
