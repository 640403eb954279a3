# fish completion for dispatchtool. Install: copy to ~/.config/fish/completions/
set -l commands table registrations explain keys lint
complete -c dispatchtool -f
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a table -d 'computed dispatch tables'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a registrations -d 'registered kernels'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a explain -d 'why a key gets its kernel'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a keys -d 'the dispatch-key universe'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a lint -d 'registration conflicts'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c dispatchtool -n "__fish_seen_subcommand_from $commands" -l profile -x -a 'torch-main torch-1.13' -d 'PyTorch release'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain lint" -F -a '(__fish_complete_suffix .toml)'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain" -l op -x -d 'only this operator'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain" -l keys -x -a '(dispatchtool keys --names 2>/dev/null)' -d 'only these keys'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations" -l raw -d 'exactly what PyTorch prints'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations" -l style -x -a 'human raw python-dispatcher'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain" -l register -x -a '(dispatchtool keys --names 2>/dev/null)' -d 'PythonDispatcher demo'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain" -l color -x -a 'auto always never'
complete -c dispatchtool -n "__fish_seen_subcommand_from table" -l fallbacks -d 'show rows served by PyTorch fallbacks'
complete -c dispatchtool -n "__fish_seen_subcommand_from table" -l expand -d 'one line per key'
complete -c dispatchtool -n "__fish_seen_subcommand_from keys" -l names -d 'names only'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l format -x -a 'text json sarif github'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l select -x
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l ignore -x
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l severity -x
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l fail-on -x -a 'error warning info'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l config -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l baseline -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l write-baseline -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l context -r -F -d 'lint against these registrations'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l no-config -d 'do not read .dispatchtool-lint.toml'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l list-rules -d 'list the rules'
