# bash completion for dispatchtool.  Install: source this file, or copy it to
# /usr/share/bash-completion/completions/dispatchtool
_dispatchtool() {
  local cur prev words cword
  _init_completion -n , 2>/dev/null || { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; }
  local cmd="${COMP_WORDS[1]}"
  local commands="table registrations explain keys lint"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  case "$prev" in
    --profile)
      COMPREPLY=($(compgen -W "torch-main torch-1.13" -- "$cur") $(compgen -f -X '!*.toml' -- "$cur"))
      return ;;
    --style)
      if [[ $cmd == lint ]]; then return; fi
      COMPREPLY=($(compgen -W "human raw python-dispatcher" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "text json sarif github" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "error warning info" -- "$cur")); return ;;
    --keys|--register)
      # comma-separated key names: complete the part after the last comma
      local prefix="${cur%,*}" last="${cur##*,}"
      [[ "$prefix" == "$cur" ]] && prefix="" || prefix="$prefix,"
      local names
      names=$(dispatchtool keys --names 2>/dev/null)
      COMPREPLY=($(compgen -P "$prefix" -W "$names" -- "$last"))
      compopt -o nospace 2>/dev/null
      return ;;
    --context) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --op|--select|--ignore|--severity|--baseline|--write-baseline|--config) return ;;
  esac
  local opts
  case "$cmd" in
    table) opts="--profile --op --keys --raw --style --register --color --fallbacks --expand --help" ;;
    registrations) opts="--profile --op --keys --raw --style --register --color --help" ;;
    explain) opts="--profile --op --keys --register --color --help" ;;
    keys) opts="--profile --names --help" ;;
    lint) opts="--profile --format --select --ignore --severity --fail-on --config --no-config --baseline --write-baseline --context --list-rules --help" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -X '!*.toml' -- "$cur") $(compgen -d -- "$cur"))
  fi
}
complete -F _dispatchtool dispatchtool
