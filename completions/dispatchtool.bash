# bash completion for dispatchtool.  Install: source this file, or copy it to
# /usr/share/bash-completion/completions/dispatchtool (`cmake --install` does).
# Works with and without the bash-completion package.

# The words up to the cursor, split on blanks only (so `--severity RULE=LEVEL`,
# `--keys CPU,XLA` and `--op ns::name` are single words whatever
# COMP_WORDBREAKS says): sets cur, prev, words, cword.
__dispatchtool_words() {
  if declare -F _get_comp_words_by_ref >/dev/null; then
    _get_comp_words_by_ref -n =:, cur prev words cword
  else
    local line="${COMP_LINE:0:COMP_POINT}"
    read -r -a words <<<"$line"
    [[ -z $line || $line == *[[:space:]] ]] && words+=("")
    cword=$((${#words[@]} - 1))
    cur="${words[cword]}"
    prev="${words[cword - 1]:-}"
  fi
}

# File names (matching the glob $1, if given) and directories. `-o filenames`
# makes readline quote them, append `/` to a directory and put no space after
# it, so the user can go on into it.
__dispatchtool_files() {
  compopt -o filenames 2>/dev/null
  local IFS=$'\n'
  if [[ -n ${1:-} ]]; then
    COMPREPLY=($(compgen -f -X "!$1" -- "$cur") $(compgen -d -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

# What the readers take (dispatchtool --help): registration files of every
# kind (`sources`: C++, Python and yaml only, what import translates), and
# directories.
__dispatchtool_inputs() {
  compopt -o filenames 2>/dev/null
  local IFS=$'\n' ext exts=(cpp cc cxx cu cuh hip mm h hh hpp hxx inl py yaml yml)
  [[ ${1:-} == sources ]] || exts=(toml "${exts[@]}")
  COMPREPLY=()
  for ext in "${exts[@]}"; do
    COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
  done
  COMPREPLY+=($(compgen -d -- "$cur"))
}

# The built-in profiles (--profile, --against).
__dispatchtool_profiles="torch-2.14 torch-2.6 torch-1.13 torch-main"

# A comma-separated list (--keys CPU,Auto): completes the item after the last
# comma, keeping what comes before it; no space after, so a comma may follow.
__dispatchtool_list() {
  local prefix="${cur%,*}" last="${cur##*,}"
  [[ "$prefix" == "$cur" ]] && prefix="" || prefix="$prefix,"
  COMPREPLY=($(compgen -P "$prefix" -W "$1" -- "$last"))
  compopt -o nospace 2>/dev/null
}

# coverage's statuses (--status, --fail-on).
__dispatchtool_statuses="kernel composite-explicit composite-implicit autograd fallback raising-fallback fallthrough ambiguous missing"

# The operator tags of the profile on the line (or the default's).
__dispatchtool_tags() {
  local profile=() i
  for ((i = 1; i < ${#words[@]} - 1; i++)); do
    [[ ${words[i]} == --profile ]] && profile=(--profile "${words[i + 1]}")
  done
  dispatchtool ops "${profile[@]}" --list-tags 2>/dev/null | cut -d' ' -f1
}

__dispatchtool_rules() {
  dispatchtool lint --list-rules 2>/dev/null | cut -d' ' -f1
}

_dispatchtool() {
  local cur prev words cword
  __dispatchtool_words
  local cmd="${words[1]:-}"
  local commands="table registrations explain keys lint coverage ops html trace diff import"
  if [[ $cword -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  case "$prev" in
    --profile|--against)
      COMPREPLY=($(compgen -W "$__dispatchtool_profiles" -- "$cur"))
      local builtin=("${COMPREPLY[@]}")
      __dispatchtool_files '*.toml'
      COMPREPLY+=("${builtin[@]}")
      return ;;
    --style)
      if [[ $cmd == lint ]]; then return; fi
      COMPREPLY=($(compgen -W "human raw python-dispatcher" -- "$cur")); return ;;
    --format)
      if [[ $cmd == lint ]]; then
        COMPREPLY=($(compgen -W "text json sarif github" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "text json" -- "$cur"))
      fi
      return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --fail-on)
      if [[ $cmd == coverage ]]; then
        __dispatchtool_list "$__dispatchtool_statuses"
      else
        COMPREPLY=($(compgen -W "error warning info" -- "$cur"))
      fi
      return ;;
    --status) __dispatchtool_list "$__dispatchtool_statuses"; return ;;
    --backend) COMPREPLY=($(compgen -W "$(dispatchtool keys --names 2>/dev/null)" -- "$cur")); return ;;
    --tag|--exclude-tag) COMPREPLY=($(compgen -W "$(__dispatchtool_tags)" -- "$cur")); return ;;
    --ignore-tag) __dispatchtool_list "$(__dispatchtool_tags)"; return ;;
    --namespace|--name) return ;;
    --exclude)
      # trace: dispatch keys; every other command: a pattern of paths left out of a tree.
      [[ $cmd == trace ]] || return
      __dispatchtool_list "$(dispatchtool keys --names 2>/dev/null)"
      return ;;
    -D|-U) return ;;
    -I|-p) compopt -o filenames 2>/dev/null; local IFS=$'\n'; COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --compile-commands) __dispatchtool_files '*.json'; return ;;
    --include|--keyset)
      __dispatchtool_list "$(dispatchtool keys --names 2>/dev/null)"
      return ;;
    --arg)
      # A tensor: [LAYOUT_]DEVICE[,MODIFIER...] (dispatchtool trace --help).
      __dispatchtool_list "cpu cuda xla meta hip xpu mps ipu hpu ve lazy privateuse1 sparse_cpu sparse_cuda sparse_meta sparse_csr_cpu sparse_csr_cuda quantized_cpu quantized_cuda mkldnn_cpu nested_cpu nested_cuda requires_grad inference conj neg zerotensor python named functional none"
      return ;;
    --autocast) COMPREPLY=($(compgen -W "cpu cuda xpu" -- "$cur")); return ;;
    --build) COMPREPLY=($(compgen -W "cpu cuda mps xpu mtia" -- "$cur")); return ;;
    --build-source) compopt -o filenames 2>/dev/null; local IFS=$'\n'; COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --keys|--register)
      __dispatchtool_list "$(dispatchtool keys --names 2>/dev/null)"
      return ;;
    --select|--ignore)
      __dispatchtool_list "$(__dispatchtool_rules)"
      return ;;
    --severity)
      # RULE=LEVEL: a rule id and `=`, then a level.
      if [[ $cur == *=* ]]; then
        local rule="${cur%%=*}="
        # readline's own word starts after the `=` when it breaks words there.
        [[ $COMP_WORDBREAKS == *=* ]] && rule=""
        COMPREPLY=($(compgen -P "$rule" -W "error warning info" -- "${cur#*=}"))
      else
        COMPREPLY=($(compgen -S = -W "$(__dispatchtool_rules)" -- "$cur"))
        compopt -o nospace 2>/dev/null
      fi
      return ;;
    --context|--baseline|--write-baseline|--config) __dispatchtool_files; return ;;
    --inside) compopt -o filenames 2>/dev/null; local IFS=$'\n'; COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -o|--output)
      if [[ $cmd == import ]]; then __dispatchtool_files '*.toml'; else __dispatchtool_files '*.html'; fi
      return ;;
    --op|--max-input-size) return ;;
  esac
  local opts
  case "$cmd" in
    table) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --op --keys --all --no-library --build --build-source --tag --exclude-tag --raw --style --format --register --color --fallbacks --expand --all-keys --help" ;;
    registrations) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --op --keys --all --no-library --build --build-source --tag --exclude-tag --raw --style --format --register --color --help" ;;
    explain) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --op --keys --all --no-library --build --build-source --tag --exclude-tag --format --register --color --help" ;;
    keys) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --names --meanings --format --no-library --help" ;;
    lint) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --format --color --select --ignore --severity --fail-on --config --no-config --no-library --build --build-source --ignore-tag --baseline --write-baseline --context --list-rules --help" ;;
    coverage) opts="--backend --profile --against --namespace --name --max-input-size --inside -D -U -I -p --compile-commands --exclude --status --fail-on --format --no-library --build --build-source --tag --exclude-tag --color --help" ;;
    ops) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --namespace --tag --exclude-tag --name --format --count --list-tags --no-library --build --build-source --help" ;;
    html) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --op --keys --all --no-library --build --build-source --tag --exclude-tag --register --output -o --help" ;;
    trace) opts="--profile --max-input-size --inside --op --arg --keyset --no-grad --inference-mode --autocast --python-mode --include --exclude --format --no-library --build --build-source --color --help" ;;
    diff) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --against --op --keys --format --expand --locations --no-library --color --help" ;;
    import) opts="--profile --max-input-size --inside -D -U -I -p --compile-commands --exclude --no-library --output -o --help" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ $cmd == import ]]; then
    __dispatchtool_inputs sources
  else
    __dispatchtool_inputs
  fi
}
complete -F _dispatchtool dispatchtool
