# Exercises completions/dispatchtool.fish through fish's own completion engine.
# usage: fish test_fish_completion.fish BUILD_DIR
set -x PATH (realpath $argv[1]) $PATH
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
# The subcommands and built-in profiles --help lists (the lists cannot drift).
set -l subcommands (dispatchtool --help | sed -n '/^Subcommands:/,/^$/p' | string match -r -g '^  ([a-z]+)')
set -l profiles (dispatchtool table --help | string match -r -- '^ +--profile.*' | string match -r -a -g '(torch-[0-9a-z.]+)' | sort -u)
if test (count $subcommands) -lt 11; or test (count $profiles) -lt 4
    echo "FAIL: --help lists "(count $subcommands)" subcommands and "(count $profiles)" profiles"
    set fail (math $fail + 1)
end
for sub in $subcommands
    check "dispatchtool " $sub
    # Every option the subcommand's --help lists (but --help itself).
    for opt in (dispatchtool $sub --help | string match -r -g '^ +(?:-[a-zA-Z],)?(--[a-z-]+)')
        test "$opt" = --help; or check "dispatchtool $sub $opt" $opt
    end
end
# Value completions, in a directory with known files.
set -l tmp (mktemp -d)
mkdir $tmp/subdir
touch $tmp/ops.toml $tmp/base.lst $tmp/subdir/x.toml
touch $tmp/csrc.cpp $tmp/csrc.cu $tmp/csrc.h $tmp/cmods.py $tmp/cnative_functions.yaml $tmp/cbackend.yml $tmp/c.txt
cd $tmp
# check_not LINE UNWANTED: completing LINE does not offer UNWANTED.
function check_not --argument-names line unwanted
    for c in (complete -C "$line")
        if test (string split \t -- $c)[1] = "$unwanted"
            echo "FAIL: '$line' offers '$unwanted'"
            set -g fail (math $fail + 1)
            return
        end
    end
    set -g pass (math $pass + 1)
end
check "dispatchtool table o" ops.toml
check "dispatchtool table s" subdir/
check_not "dispatchtool table b" base.lst
for profile in $profiles
    check "dispatchtool table --profile " $profile
    check "dispatchtool coverage --against " $profile
end
check "dispatchtool table --build c" cuda
# Every kind of file the readers take, for commands that read them; no other file.
for f in csrc.cpp csrc.cu csrc.h cmods.py cnative_functions.yaml cbackend.yml
    check "dispatchtool lint c" $f
    check "dispatchtool diff c" $f
    check "dispatchtool import c" $f
end
check_not "dispatchtool lint c" c.txt
check_not "dispatchtool import o" ops.toml
check "dispatchtool import -o o" ops.toml
check "dispatchtool table --keys AutogradC" AutogradCPU
check "dispatchtool table --keys CPU,AutogradC" CPU,AutogradCPU
check "dispatchtool html --keys CPU,AutogradC" CPU,AutogradCPU
check "dispatchtool lint --color n" never
check "dispatchtool explain --register CPU,Composite" CPU,CompositeImplicitAutograd
check "dispatchtool table --profile " torch-main
check "dispatchtool table --profile " torch-1.13
check "dispatchtool keys --profile o" ops.toml
check "dispatchtool table --profile s" subdir/
check_not "dispatchtool table --profile b" base.lst
check "dispatchtool lint --baseline b" base.lst
check "dispatchtool lint --config b" base.lst
check "dispatchtool lint --write-baseline b" base.lst
check "dispatchtool lint --context s" subdir/
check "dispatchtool lint --format s" sarif
check "dispatchtool table --style p" python-dispatcher
check "dispatchtool lint --fail-on w" warning
check "dispatchtool coverage --status mis" missing
check "dispatchtool coverage --fail-on missing,ambi" missing,ambiguous
check "dispatchtool coverage --backend PrivateU" PrivateUse1
check "dispatchtool coverage --format js" json
check "dispatchtool ops --tag view_c" view_copy
check "dispatchtool ops --profile torch-main --tag poin" pointwise
check "dispatchtool coverage --exclude-tag gener" generated
check "dispatchtool lint --ignore-tag generated,inplace_v" generated,inplace_view
# Rule ids for --select/--ignore, comma lists like --keys.
for rule in (dispatchtool lint --list-rules | string replace -r ' .*' '')
    check "dispatchtool lint --select " $rule
    check "dispatchtool lint --ignore duplicate-def,"(string sub -l 5 -- $rule) duplicate-def,$rule
end
check "dispatchtool lint --severity missing-a" missing-autograd=
check "dispatchtool lint --severity missing-autograd=i" missing-autograd=info
cd /
rm -r $tmp
echo "$pass passed, $fail failed"
# At least today's options (a changed --help format must not make the loop check nothing).
if test $pass -lt 90
    echo "FAIL: only $pass checks ran"
    set fail 1
end
test $fail -eq 0
