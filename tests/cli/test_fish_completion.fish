# Exercises completions/dispatchtool.fish through fish's own completion engine.
# usage: fish test_fish_completion.fish BUILD_DIR
set -x PATH $argv[1] $PATH
source (dirname (status filename))/../../completions/dispatchtool.fish
set -l fail 0
set -l pass 0
function offers --argument-names line want
    for c in (complete -C "$line")
        if test (string split \t -- $c)[1] = "$want"
            return 0
        end
    end
    return 1
end
# Every option a subcommand's --help lists is offered.
for sub in table registrations explain keys lint
    for opt in (dispatchtool $sub --help | string match -r -g '^ +(?:-[a-zA-Z],)?(--[a-z-]+)')
        if test "$opt" = --help
            continue
        end
        if offers "dispatchtool $sub $opt" $opt
            set pass (math $pass + 1)
        else
            echo "FAIL: 'dispatchtool $sub $opt' is not offered"
            set fail (math $fail + 1)
        end
    end
end
for sub in table registrations explain keys lint
    if offers "dispatchtool " $sub
        set pass (math $pass + 1)
    else
        echo "FAIL: subcommand $sub is not offered"
        set fail (math $fail + 1)
    end
end
echo "$pass passed, $fail failed"
test $fail -eq 0
