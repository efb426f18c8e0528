#!/bin/sh
# A complete plsim player program in POSIX shell with jq (docs/protocol.md): the builder.
# It reads one JSON message per line and answers each decision with an option's index:
# the first purchase it is offered, else pass when it may, else the first option.
#
#   plsim run --players exec:"sh examples/bots/builder.sh",random --games 4
while IFS= read -r message; do
    case "$message" in
        *'"type":"decision"'*)
            printf '%s\n' "$message" | jq -c '
                [.options[] | select(.type == "Buy") | .index] as $buys
                | [.options[] | select(.type == "Pass") | .index] as $passes
                | if ($buys | length) > 0 then $buys[0]
                  elif ($passes | length) > 0 then $passes[0]
                  else 0 end' || exit 1
            ;;
    esac
done
