# Exercises completions/dispatchtool.fish through fish's own completion engine.
# usage: fish test_fish_completion.fish BUILD_DIR
set -x PATH $argv[1] $PATH
source (dirname (status filename))/../../completions/dispatchtool.fish
set -g fail 0
set -g pass 0
# check LINE WANT: completing LINE offers WANT.
function check --argument-names line want
    for c in (complete -C "$line")
        if test (string split \t -- $c)[1] = "$want"
            set -g pass (math $pass + 1)
            return
        end
    end
    echo "FAIL: '$line' does not offer '$want'"
    set -g fail (math $fail + 1)
end
for sub in table registrations explain keys lint
    check "dispatchtool " $sub
    # Every option the subcommand's --help lists (but --help itself).
    for opt in (dispatchtool $sub --help | string match -r -g '^ +(?:-[a-zA-Z],)?(--[a-z-]+)')
        test "$opt" = --help; or check "dispatchtool $sub $opt" $opt
    end
end
echo "$pass passed, $fail failed"
# At least today's options (a changed --help format must not make the loop check nothing).
if test $pass -lt 38
    echo "FAIL: only $pass checks ran"
    set fail 1
end
test $fail -eq 0
