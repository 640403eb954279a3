# fish completion for dispatchtool. Install: copy to ~/.config/fish/completions/
# (`cmake --install` puts it in share/fish/vendor_completions.d/).
set -l commands table registrations explain keys lint coverage ops html trace diff import
set -l profiles torch-2.14 torch-2.6 torch-1.13 torch-main
set -l statuses kernel composite-explicit composite-implicit autograd fallback raising-fallback fallthrough ambiguous missing

# A comma-separated list (--keys CPU,Auto): completes the item after the last
# comma of the current token, keeping what comes before it.
function __dispatchtool_list --description 'complete the last item of a comma-separated list'
    set -l token (commandline -ct)
    set -l prefix (string replace -r '[^,]*$' '' -- $token)
    for item in $argv
        printf '%s%s\n' $prefix $item
    end
end

# TOML files and directories (fish's own file completion, filtered).
function __dispatchtool_toml
    string match -r -- '.*(?:\.toml|/)$' (complete -C "__fish_command_without_completions "(commandline -ct))
end

# Registration files of every kind the readers take, and directories; with
# `sources`, C++, Python and yaml only (what import translates).
function __dispatchtool_inputs
    set -l kinds 'toml|cpp|cc|cxx|cu|cuh|hip|mm|h|hh|hpp|hxx|inl|py|yaml|yml'
    test "$argv[1]" = sources; and set kinds 'cpp|cc|cxx|cu|cuh|hip|mm|h|hh|hpp|hxx|inl|py|yaml|yml'
    string match -r -- ".*(?:\.(?:$kinds)|/)\$" (complete -C "__fish_command_without_completions "(commandline -ct))
end

# The operator tags of the profile on the line (or the default's), with descriptions.
function __dispatchtool_tags
    set -l tokens (commandline -opc)
    set -l profile
    set -l i (contains -i -- --profile $tokens)
    and set profile --profile $tokens[(math $i + 1)]
    dispatchtool ops $profile --list-tags 2>/dev/null | string replace -r '^(\S+)\s+(.*)$' '$1\t$2'
end

function __dispatchtool_keys
    __dispatchtool_list (dispatchtool keys --names 2>/dev/null)
end

# Rule ids with their descriptions, from `dispatchtool lint --list-rules`.
function __dispatchtool_rules
    dispatchtool lint --list-rules 2>/dev/null | string replace -r '^(\S+)\s+\S+\s+(.*)$' '$1\t$2'
end

# --severity RULE=LEVEL
function __dispatchtool_severity
    set -l token (commandline -ct)
    if string match -q -- '*=*' $token
        set -l rule (string split -m1 = -- $token)[1]
        printf '%s=%s\n' $rule error $rule warning $rule info
    else
        __dispatchtool_rules | string replace -r '^([^\t]*)' '$1='
    end
end
complete -c dispatchtool -f
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a table -d 'computed dispatch tables'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a registrations -d 'registered kernels'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a explain -d 'why a key gets its kernel'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a keys -d 'the dispatch-key universe'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a lint -d 'registration conflicts'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a coverage -d 'what a backend still has to implement'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a ops -d 'operators, schemas, tags'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a html -d 'the operator × key matrix as a page'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a trace -d 'which kernels a call runs'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a diff -d 'what a change does to the tables'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -a import -d 'C++, Python and yaml registrations as TOML'
complete -c dispatchtool -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c dispatchtool -n "__fish_seen_subcommand_from $commands" -l profile -x -a "$profiles (__dispatchtool_toml)" -d 'PyTorch release or profile file'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html trace diff import" -l max-input-size -x -d 'read at most BYTES per file (K, M, G)'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html trace diff import" -l inside -x -a '(__fish_complete_directories)' -d 'read only regular files inside DIR'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -s D -x -d 'define a C++ macro: NAME or NAME=VALUE'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -s U -x -d 'undefine a C++ macro'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -s I -x -a '(__fish_complete_directories)' -d 'an #include directory'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -s p -x -a '(__fish_complete_directories)' -d 'a build directory with compile_commands.json'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -l compile-commands -r -F -d 'the compile_commands.json to take flags from'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html diff import" -l exclude -x -d 'leave out of directories what matches this pattern'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html trace diff" -a '(__dispatchtool_inputs)'
complete -c dispatchtool -n "__fish_seen_subcommand_from import" -a '(__dispatchtool_inputs sources)'
complete -c dispatchtool -n "__fish_seen_subcommand_from import" -s o -l output -r -F -d 'write the TOML to this file'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain coverage ops html" -l tag -x -a '(__dispatchtool_tags)' -d 'only operators with this tag'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain coverage ops html" -l exclude-tag -x -a '(__dispatchtool_tags)' -d 'leave out operators with this tag'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l ignore-tag -x -a '(__dispatchtool_list (__dispatchtool_tags | string replace -r "\t.*" ""))' -d 'drop findings about tagged operators'
complete -c dispatchtool -n "__fish_seen_subcommand_from ops" -l namespace -x -d 'only this namespace'
complete -c dispatchtool -n "__fish_seen_subcommand_from ops" -l name -x -d 'name pattern'
complete -c dispatchtool -n "__fish_seen_subcommand_from ops" -l format -x -a 'text json'
complete -c dispatchtool -n "__fish_seen_subcommand_from ops" -l count -d 'counts per namespace and tag'
complete -c dispatchtool -n "__fish_seen_subcommand_from ops" -l list-tags -d "the profile's tags"
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain html" -l all -d "every operator of PyTorch's own library"
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys lint coverage ops html trace diff import" -l no-library -d "without PyTorch's own operators"
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain lint coverage ops html trace" -l build -x -a 'cpu cuda mps xpu mtia' -d "the library of this build of the release"
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain lint coverage ops html trace" -l build-source -x -a '(__fish_complete_directories)' -d "with --build: the release's own source tree"
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain html trace diff" -l op -x -d 'only this operator'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain html" -l keys -x -a '(__dispatchtool_keys)' -d 'only these keys'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations" -l raw -d 'exactly what PyTorch prints'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations" -l style -x -a 'human raw python-dispatcher'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain html" -l register -x -a '(__dispatchtool_keys)' -d 'PythonDispatcher demo'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain" -l color -x -a 'auto always never'
complete -c dispatchtool -n "__fish_seen_subcommand_from table" -l fallbacks -d 'show rows served by PyTorch fallbacks'
complete -c dispatchtool -n "__fish_seen_subcommand_from table" -l expand -d 'one line per key'
complete -c dispatchtool -n "__fish_seen_subcommand_from table" -l all-keys -d 'every row, with why'
complete -c dispatchtool -n "__fish_seen_subcommand_from keys" -l names -d 'names only'
complete -c dispatchtool -n "__fish_seen_subcommand_from keys" -l meanings -d 'what each key is for'
complete -c dispatchtool -n "__fish_seen_subcommand_from table registrations explain keys" -l format -x -a 'text json' -d 'text or JSON (docs/json.md)'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l format -x -a 'text json sarif github'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l select -x -a '(__dispatchtool_list (__dispatchtool_rules))' -d 'only these rules'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l ignore -x -a '(__dispatchtool_list (__dispatchtool_rules))' -d 'skip these rules'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l severity -x -a '(__dispatchtool_severity)' -d 'RULE=LEVEL'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l fail-on -x -a 'error warning info'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l color -x -a 'auto always never' -d 'colour the text format'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l config -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l baseline -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l write-baseline -r -F
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l context -r -F -d 'lint against these registrations'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l no-config -d 'do not read .dispatchtool-lint.toml'
complete -c dispatchtool -n "__fish_seen_subcommand_from lint" -l list-rules -d 'list the rules'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l backend -x -a '(dispatchtool keys --names 2>/dev/null)' -d 'the backend key'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l status -x -a "(__dispatchtool_list $statuses)" -d 'only rows with these statuses'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l fail-on -x -a "(__dispatchtool_list $statuses)" -d 'exit 1 on these statuses'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l format -x -a 'text json'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l color -x -a 'auto always never'
complete -c dispatchtool -n "__fish_seen_subcommand_from html" -s o -l output -r -F -d 'write the page to this file (- : standard output)'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l arg -x -a '(__dispatchtool_list cpu cuda xla meta hip xpu mps ipu hpu ve lazy privateuse1 sparse_cpu sparse_cuda sparse_meta sparse_csr_cpu sparse_csr_cuda quantized_cpu quantized_cuda mkldnn_cpu nested_cpu nested_cuda requires_grad inference conj neg zerotensor python named functional none)' -d 'a tensor argument'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l keyset -x -a '(__dispatchtool_keys)' -d 'raw keys added to the arguments'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l include -x -a '(__dispatchtool_keys)' -d 'thread-local included keys'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l exclude -x -a '(__dispatchtool_keys)' -d 'thread-local excluded keys'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l no-grad -d 'under torch.no_grad()'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l inference-mode -d 'under torch.inference_mode()'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l autocast -x -a 'cpu cuda xpu' -d 'under torch.autocast(DEVICE)'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace" -l python-mode -d 'a TorchDispatchMode is active'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace diff" -l format -x -a 'text json'
complete -c dispatchtool -n "__fish_seen_subcommand_from trace diff" -l color -x -a 'auto always never'
complete -c dispatchtool -n "__fish_seen_subcommand_from diff" -l against -x -a "$profiles (__dispatchtool_toml)" -d 'the new side: same files, this profile'
complete -c dispatchtool -n "__fish_seen_subcommand_from diff" -l expand -d 'one line per key'
complete -c dispatchtool -n "__fish_seen_subcommand_from diff" -l keys -x -d 'only these dispatch keys'
complete -c dispatchtool -n "__fish_seen_subcommand_from diff" -l locations -d 'also list entries that only moved'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l against -x -a "$profiles (__dispatchtool_toml)" -d 'what changes in this release'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l namespace -x -d 'only operators of this namespace'
complete -c dispatchtool -n "__fish_seen_subcommand_from coverage" -l name -x -d 'only operators matching this pattern'
