# Shell completion for esign, generated from the command tree by `npm run completions`: do not edit.
# Profile names come from `esign __complete profiles` (the local config file, never the network).
# Install: copy it to ~/.config/fish/completions/esign.fish (or a directory on $fish_complete_path).

# __esign_command COMMAND WORD: the command WORD names under COMMAND, if any.
function __esign_command
    switch "$argv[1] $argv[2]"
        case 'esign me'
            echo 'esign me'
        case 'esign profiles' 'esign profile'
            echo 'esign profiles'
        case 'esign config'
            echo 'esign config'
        case 'esign emulator'
            echo 'esign emulator'
        case 'esign envelopes' 'esign env'
            echo 'esign envelopes'
        case 'esign send'
            echo 'esign send'
        case 'esign participants' 'esign part'
            echo 'esign participants'
        case 'esign templates' 'esign template'
            echo 'esign templates'
        case 'esign documents' 'esign doc'
            echo 'esign documents'
        case 'esign fields' 'esign field'
            echo 'esign fields'
        case 'esign batch'
            echo 'esign batch'
        case 'esign anchors' 'esign anchor'
            echo 'esign anchors'
        case 'esign webhooks' 'esign webhook'
            echo 'esign webhooks'
        case 'esign contacts' 'esign contact'
            echo 'esign contacts'
        case 'esign folders' 'esign folder'
            echo 'esign folders'
        case 'esign team'
            echo 'esign team'
        case 'esign invites' 'esign invite'
            echo 'esign invites'
        case 'esign account'
            echo 'esign account'
        case 'esign reports' 'esign report'
            echo 'esign reports'
        case 'esign doctor'
            echo 'esign doctor'
        case 'esign completion'
            echo 'esign completion'
        case 'esign api'
            echo 'esign api'
        case 'esign profiles add'
            echo 'esign profiles add'
        case 'esign profiles list' 'esign profiles ls'
            echo 'esign profiles list'
        case 'esign profiles show'
            echo 'esign profiles show'
        case 'esign profiles use'
            echo 'esign profiles use'
        case 'esign profiles set'
            echo 'esign profiles set'
        case 'esign profiles remove' 'esign profiles rm'
            echo 'esign profiles remove'
        case 'esign profiles prune'
            echo 'esign profiles prune'
        case 'esign config trust'
            echo 'esign config trust'
        case 'esign config untrust'
            echo 'esign config untrust'
        case 'esign config trusted'
            echo 'esign config trusted'
        case 'esign emulator sign'
            echo 'esign emulator sign'
        case 'esign emulator approve'
            echo 'esign emulator approve'
        case 'esign emulator refuse'
            echo 'esign emulator refuse'
        case 'esign envelopes create'
            echo 'esign envelopes create'
        case 'esign envelopes get' 'esign envelopes show'
            echo 'esign envelopes get'
        case 'esign envelopes list' 'esign envelopes ls'
            echo 'esign envelopes list'
        case 'esign envelopes find' 'esign envelopes search'
            echo 'esign envelopes find'
        case 'esign envelopes settings'
            echo 'esign envelopes settings'
        case 'esign envelopes send'
            echo 'esign envelopes send'
        case 'esign envelopes wait'
            echo 'esign envelopes wait'
        case 'esign envelopes history'
            echo 'esign envelopes history'
        case 'esign envelopes download'
            echo 'esign envelopes download'
        case 'esign envelopes move'
            echo 'esign envelopes move'
        case 'esign envelopes void'
            echo 'esign envelopes void'
        case 'esign envelopes delete' 'esign envelopes rm'
            echo 'esign envelopes delete'
        case 'esign envelopes send-now'
            echo 'esign envelopes send-now'
        case 'esign participants set'
            echo 'esign participants set'
        case 'esign participants list' 'esign participants ls'
            echo 'esign participants list'
        case 'esign participants correct'
            echo 'esign participants correct'
        case 'esign participants approve'
            echo 'esign participants approve'
        case 'esign participants refuse'
            echo 'esign participants refuse'
        case 'esign participants remind'
            echo 'esign participants remind'
        case 'esign templates list' 'esign templates ls'
            echo 'esign templates list'
        case 'esign templates get' 'esign templates show'
            echo 'esign templates get'
        case 'esign templates use'
            echo 'esign templates use'
        case 'esign documents upload'
            echo 'esign documents upload'
        case 'esign documents list' 'esign documents ls'
            echo 'esign documents list'
        case 'esign documents confirm-conversion'
            echo 'esign documents confirm-conversion'
        case 'esign documents download-url'
            echo 'esign documents download-url'
        case 'esign documents validate'
            echo 'esign documents validate'
        case 'esign fields put'
            echo 'esign fields put'
        case 'esign fields list' 'esign fields ls'
            echo 'esign fields list'
        case 'esign fields check'
            echo 'esign fields check'
        case 'esign fields preview'
            echo 'esign fields preview'
        case 'esign batch validate'
            echo 'esign batch validate'
        case 'esign batch plan'
            echo 'esign batch plan'
        case 'esign batch run'
            echo 'esign batch run'
        case 'esign batch schema'
            echo 'esign batch schema'
        case 'esign batch convert-v2'
            echo 'esign batch convert-v2'
        case 'esign anchors find'
            echo 'esign anchors find'
        case 'esign webhooks create'
            echo 'esign webhooks create'
        case 'esign webhooks list' 'esign webhooks ls'
            echo 'esign webhooks list'
        case 'esign webhooks get' 'esign webhooks show'
            echo 'esign webhooks get'
        case 'esign webhooks update'
            echo 'esign webhooks update'
        case 'esign webhooks delete' 'esign webhooks rm'
            echo 'esign webhooks delete'
        case 'esign webhooks deliveries'
            echo 'esign webhooks deliveries'
        case 'esign webhooks delivery'
            echo 'esign webhooks delivery'
        case 'esign webhooks resend'
            echo 'esign webhooks resend'
        case 'esign webhooks rotate-secret'
            echo 'esign webhooks rotate-secret'
        case 'esign webhooks listen'
            echo 'esign webhooks listen'
        case 'esign contacts create'
            echo 'esign contacts create'
        case 'esign contacts list' 'esign contacts ls'
            echo 'esign contacts list'
        case 'esign contacts get' 'esign contacts show'
            echo 'esign contacts get'
        case 'esign contacts update'
            echo 'esign contacts update'
        case 'esign contacts patch'
            echo 'esign contacts patch'
        case 'esign contacts delete' 'esign contacts rm'
            echo 'esign contacts delete'
        case 'esign contacts envelopes'
            echo 'esign contacts envelopes'
        case 'esign contacts lists'
            echo 'esign contacts lists'
        case 'esign contacts list-get'
            echo 'esign contacts list-get'
        case 'esign folders list' 'esign folders ls'
            echo 'esign folders list'
        case 'esign folders create'
            echo 'esign folders create'
        case 'esign folders contents' 'esign folders content'
            echo 'esign folders contents'
        case 'esign folders access'
            echo 'esign folders access'
        case 'esign folders rename'
            echo 'esign folders rename'
        case 'esign folders move'
            echo 'esign folders move'
        case 'esign folders delete' 'esign folders rm'
            echo 'esign folders delete'
        case 'esign team groups'
            echo 'esign team groups'
        case 'esign team members'
            echo 'esign team members'
        case 'esign invites list' 'esign invites ls'
            echo 'esign invites list'
        case 'esign account get' 'esign account show'
            echo 'esign account get'
        case 'esign account capabilities' 'esign account caps'
            echo 'esign account capabilities'
        case 'esign account catalog'
            echo 'esign account catalog'
        case 'esign account calls'
            echo 'esign account calls'
        case 'esign reports voided'
            echo 'esign reports voided'
        case 'esign reports envelope'
            echo 'esign reports envelope'
        case 'esign reports usage'
            echo 'esign reports usage'
        case '*'
            return 1
    end
end

# __esign_takes_value COMMAND OPTION: succeeds when the option takes a value.
function __esign_takes_value
    switch "$argv[1] $argv[2]"
        case '* --profile'
            return 0
        case '* --timeout'
            return 0
        case '* --idempotency-key'
            return 0
        case 'esign profiles add --base-url'
            return 0
        case 'esign profiles add --sandbox-base-url'
            return 0
        case 'esign profiles set --base-url'
            return 0
        case 'esign profiles set --sandbox-base-url'
            return 0
        case 'esign emulator --port'
            return 0
        case 'esign emulator --host'
            return 0
        case 'esign emulator --environment'
            return 0
        case 'esign emulator --key'
            return 0
        case 'esign emulator --state'
            return 0
        case 'esign emulator --processing-delay'
            return 0
        case 'esign emulator --max-document-bytes'
            return 0
        case 'esign emulator --anchor-time-limit'
            return 0
        case 'esign emulator --message-limit'
            return 0
        case 'esign emulator --envelope-quota'
            return 0
        case 'esign emulator --rate-limit'
            return 0
        case 'esign emulator --faults'
            return 0
        case 'esign emulator --webhook-retry-delays'
            return 0
        case 'esign emulator --signed-address-ttl'
            return 0
        case 'esign emulator --preload-drafts'
            return 0
        case 'esign emulator --preload-contacts'
            return 0
        case 'esign emulator refuse --reason'
            return 0
        case 'esign envelopes create --title'
            return 0
        case 'esign envelopes create --message'
            return 0
        case 'esign envelopes create --deadline'
            return 0
        case 'esign envelopes create --folder'
            return 0
        case 'esign envelopes list --status'
            return 0
        case 'esign envelopes list --folder'
            return 0
        case 'esign envelopes list --title'
            return 0
        case 'esign envelopes list --participant'
            return 0
        case 'esign envelopes list --created-after'
            return 0
        case 'esign envelopes list --created-before'
            return 0
        case 'esign envelopes list --limit'
            return 0
        case 'esign envelopes list --cursor'
            return 0
        case 'esign envelopes find --limit'
            return 0
        case 'esign envelopes find --cursor'
            return 0
        case 'esign envelopes settings --title'
            return 0
        case 'esign envelopes settings --message'
            return 0
        case 'esign envelopes settings --deadline'
            return 0
        case 'esign envelopes send --wait-timeout'
            return 0
        case 'esign envelopes wait --until'
            return 0
        case 'esign envelopes wait --wait-timeout'
            return 0
        case 'esign envelopes history --limit'
            return 0
        case 'esign envelopes history --cursor'
            return 0
        case 'esign envelopes download -o' 'esign envelopes download --out'
            return 0
        case 'esign envelopes move --folder'
            return 0
        case 'esign envelopes void --reason'
            return 0
        case 'esign envelopes send-now -f' 'esign envelopes send-now --file'
            return 0
        case 'esign envelopes send-now --wait-timeout'
            return 0
        case 'esign envelopes send-now --run-id'
            return 0
        case 'esign send --wait-timeout'
            return 0
        case 'esign participants set -f' 'esign participants set --file'
            return 0
        case 'esign participants set --add'
            return 0
        case 'esign participants set --delivery'
            return 0
        case 'esign participants set --phone'
            return 0
        case 'esign participants set --role'
            return 0
        case 'esign participants list --limit'
            return 0
        case 'esign participants list --cursor'
            return 0
        case 'esign participants correct --name'
            return 0
        case 'esign participants correct --email'
            return 0
        case 'esign participants correct --phone'
            return 0
        case 'esign participants correct --delivery-method'
            return 0
        case 'esign participants refuse --reason'
            return 0
        case 'esign templates list --limit'
            return 0
        case 'esign templates list --cursor'
            return 0
        case 'esign templates use -p' 'esign templates use --participants'
            return 0
        case 'esign templates use --title'
            return 0
        case 'esign templates use --deadline'
            return 0
        case 'esign templates use --folder'
            return 0
        case 'esign documents upload --wait-timeout'
            return 0
        case 'esign documents list --limit'
            return 0
        case 'esign documents list --cursor'
            return 0
        case 'esign fields put -f' 'esign fields put --file'
            return 0
        case 'esign fields check --local'
            return 0
        case 'esign fields check -f' 'esign fields check --file'
            return 0
        case 'esign fields check --participants'
            return 0
        case 'esign fields preview --local'
            return 0
        case 'esign fields preview -f' 'esign fields preview --file'
            return 0
        case 'esign fields preview -o' 'esign fields preview --out'
            return 0
        case 'esign batch plan --shard'
            return 0
        case 'esign batch plan --run-id'
            return 0
        case 'esign batch run -c' 'esign batch run --concurrency'
            return 0
        case 'esign batch run --journal'
            return 0
        case 'esign batch run --report'
            return 0
        case 'esign batch run --shard'
            return 0
        case 'esign batch run --wait'
            return 0
        case 'esign batch run --wait-timeout'
            return 0
        case 'esign batch run --run-id'
            return 0
        case 'esign batch convert-v2 -o' 'esign batch convert-v2 --out'
            return 0
        case 'esign anchors find --text'
            return 0
        case 'esign anchors find --key'
            return 0
        case 'esign anchors find --occurrence'
            return 0
        case 'esign anchors find --offset'
            return 0
        case 'esign anchors find -f' 'esign anchors find --file'
            return 0
        case 'esign anchors find --template'
            return 0
        case 'esign anchors find --local'
            return 0
        case 'esign webhooks create --url'
            return 0
        case 'esign webhooks create --events'
            return 0
        case 'esign webhooks list --limit'
            return 0
        case 'esign webhooks list --cursor'
            return 0
        case 'esign webhooks update --url'
            return 0
        case 'esign webhooks update --events'
            return 0
        case 'esign webhooks deliveries --status'
            return 0
        case 'esign webhooks deliveries --limit'
            return 0
        case 'esign webhooks deliveries --cursor'
            return 0
        case 'esign webhooks listen --port'
            return 0
        case 'esign webhooks listen --endpoint'
            return 0
        case 'esign webhooks listen --secret'
            return 0
        case 'esign webhooks listen --forward-to'
            return 0
        case 'esign webhooks listen --events'
            return 0
        case 'esign contacts create --name'
            return 0
        case 'esign contacts create --email'
            return 0
        case 'esign contacts create --phone'
            return 0
        case 'esign contacts create --company'
            return 0
        case 'esign contacts list --search'
            return 0
        case 'esign contacts list --limit'
            return 0
        case 'esign contacts list --cursor'
            return 0
        case 'esign contacts update --name'
            return 0
        case 'esign contacts update --email'
            return 0
        case 'esign contacts update --phone'
            return 0
        case 'esign contacts update --company'
            return 0
        case 'esign contacts patch --name'
            return 0
        case 'esign contacts patch --email'
            return 0
        case 'esign contacts patch --phone'
            return 0
        case 'esign contacts patch --company'
            return 0
        case 'esign contacts envelopes --limit'
            return 0
        case 'esign contacts envelopes --cursor'
            return 0
        case 'esign contacts lists --limit'
            return 0
        case 'esign contacts lists --cursor'
            return 0
        case 'esign folders list --limit'
            return 0
        case 'esign folders list --cursor'
            return 0
        case 'esign folders create --parent'
            return 0
        case 'esign folders contents --limit'
            return 0
        case 'esign folders contents --cursor'
            return 0
        case 'esign folders rename --name'
            return 0
        case 'esign folders move --parent'
            return 0
        case 'esign team groups --limit'
            return 0
        case 'esign team groups --cursor'
            return 0
        case 'esign team members --group'
            return 0
        case 'esign team members --limit'
            return 0
        case 'esign team members --cursor'
            return 0
        case 'esign invites list --limit'
            return 0
        case 'esign invites list --cursor'
            return 0
        case 'esign account calls --limit'
            return 0
        case 'esign account calls --cursor'
            return 0
        case 'esign reports voided --limit'
            return 0
        case 'esign reports voided --cursor'
            return 0
        case 'esign reports usage --group'
            return 0
        case 'esign reports usage --from'
            return 0
        case 'esign reports usage --to'
            return 0
        case 'esign api -f' 'esign api --raw-field'
            return 0
        case 'esign api -F' 'esign api --field'
            return 0
        case 'esign api --input'
            return 0
        case 'esign api -H' 'esign api --header'
            return 0
    end
    return 1
end

# __esign_state: the command the words before the cursor name, the positional arguments seen, whether an option
# waits for its value, and whether the line is `esign help …` (only command names follow), one per line.
function __esign_state
    set -l command esign
    set -l index 0
    set -l expecting 0
    set -l help 0
    set -l words (commandline -opc)
    set -e words[1]
    for word in $words
        if test $expecting = 1
            set expecting 0
            continue
        end
        switch $word
            case '-*=*'
            case '-*'
                __esign_takes_value $command $word; and set expecting 1
            case '*'
                if test $index = 0 -a $command = esign -a $help = 0 -a $word = help
                    set help 1
                else if test $index = 0; and set -l next (__esign_command $command $word)
                    set command $next
                else
                    set index (math $index + 1)
                end
        end
    end
    printf '%s\n' $command $index $expecting $help
end

# __esign_in COMMAND: the cursor is in that command's options (none after `esign help`).
function __esign_in
    set -l state (__esign_state)
    test "$state[1]" = "$argv[1]"; and test "$state[4]" = 0
end

# __esign_helping: the line is `esign help …`.
function __esign_helping
    test (__esign_state)[4] = 1
end

# __esign_at COMMAND INDEX [+]: the cursor is on that positional argument (+: or a later one), not an option's value.
function __esign_at
    set -l state (__esign_state)
    test "$state[1]" = "$argv[1]"; and test "$state[3]" = 0; or return 1
    if set -q argv[3]
        test "$state[2]" -ge "$argv[2]"
    else
        test "$state[2]" = "$argv[2]"
    end
end

function __esign_profiles
    set -l esign (commandline -opc)[1]
    $esign __complete profiles 2>/dev/null
end

function __esign_list_1
    printf '%s\n' ENVELOPE_SENT ENVELOPE_COMPLETED ENVELOPE_VOIDED ENVELOPE_DECLINED
end

complete -c esign -f
complete -c esign -n 'not __esign_helping' -s v -l version -d 'print the version'
complete -c esign -n 'not __esign_helping' -l profile -d 'profile to use (else ESIGN_PROFILE, project config, default profile)' -x -a '(__esign_profiles)'
complete -c esign -n 'not __esign_helping' -l live -d 'production: use the live key and the production base URL'
complete -c esign -n 'not __esign_helping' -l json -d 'print one JSON document on stdout; errors as JSON on stderr'
complete -c esign -n 'not __esign_helping' -s q -l quiet -d 'print only the result'\''s ids, one per line (for scripts: id=$(esign env create -q))'
complete -c esign -n 'not __esign_helping' -l debug -d 'trace requests and responses on stderr (keys redacted)'
complete -c esign -n 'not __esign_helping' -l no-color -d 'no colour (also NO_COLOR)'
complete -c esign -n 'not __esign_helping' -l wide -d 'tables show every column and whole ids, however narrow the terminal'
complete -c esign -n 'not __esign_helping' -s y -l yes -d 'assume yes for confirmations'
complete -c esign -n 'not __esign_helping' -l dry-run -d 'print the request a change would send (method, URL, headers, body; key redacted) and send nothing; a change to profiles, trusted configs or an --out file is described, not made'
complete -c esign -n 'not __esign_helping' -l timeout -d 'time limit for each request' -x
complete -c esign -n 'not __esign_helping' -l idempotency-key -d 'Idempotency-Key for the POST this command makes' -x
complete -c esign -n '__esign_in '\''esign'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a me -d 'Validate the API key and show the account, integration and responsible user it acts for'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a profiles -d 'Manage profiles: named pairs of test and live keys with their base URLs'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a profile -d 'Manage profiles: named pairs of test and live keys with their base URLs'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a config -d 'Trust project config files (.esignrc*, esign.config.js, package.json#esign) before esign uses their base URLs or code'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a emulator -d 'Run a local, stateful emulator of the whole v4 API (no key or network needed)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a envelopes -d 'Create, configure, send, follow and void envelopes'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a env -d 'Create, configure, send, follow and void envelopes'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a send -d 'Send an envelope to its participants (waits while its documents are still processing)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a participants -d 'Set, list and correct an envelope'\''s participants; approve, refuse, remind'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a part -d 'Set, list and correct an envelope'\''s participants; approve, refuse, remind'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a templates -d 'List templates and create envelopes from them'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a template -d 'List templates and create envelopes from them'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a documents -d 'Upload documents to an envelope, list them, confirm .docx conversions, validate sealed PDFs'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a doc -d 'Upload documents to an envelope, list them, confirm .docx conversions, validate sealed PDFs'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a fields -d 'Place fields on a document (by position or anchor text), list them, check and preview them offline'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a field -d 'Place fields on a document (by position or anchor text), list them, check and preview them offline'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a batch -d 'Many envelopes from YAML specs: validate offline, plan, run (resumable, exactly once), report'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a anchors -d 'Find anchor texts in a document: in an envelope, in a template, or offline in a local PDF'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a anchor -d 'Find anchor texts in a document: in an envelope, in a template, or offline in a local PDF'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a webhooks -d 'Manage webhook endpoints and deliveries; listen locally with signature checks (like `stripe listen`)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a webhook -d 'Manage webhook endpoints and deliveries; listen locally with signature checks (like `stripe listen`)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a contacts -d 'Manage contacts, see a contact'\''s envelopes, read contact lists'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a contact -d 'Manage contacts, see a contact'\''s envelopes, read contact lists'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a folders -d 'List, create, rename, move and delete folders; see their contents and access'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a folder -d 'List, create, rename, move and delete folders; see their contents and access'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a team -d 'List the team: groups and members'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a invites -d 'List the pending invitations to the team'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a invite -d 'List the pending invitations to the team'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a account -d 'Show the account: limits and usage, capabilities in effect, the capability catalog, API calls made'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a reports -d 'Audit reports: voided envelopes, one envelope in full, usage by group'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a report -d 'Audit reports: voided envelopes, one envelope in full, usage by group'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a doctor -d 'Check the set-up, one line per check with a fix for each failure; exit 0 when all pass, else the first failure'\''s code (2, 3 or 7)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a completion -d 'Print the shell completion script for bash, zsh or fish (commands, options, values, files, profiles)'
complete -c esign -n '__esign_at '\''esign'\'' 0' -a api -d 'Call any operation of the API by operationId or METHOD /path (like `gh api`); --list shows them all'
complete -c esign -n '__esign_at '\''esign'\'' 0; and not __esign_helping' -a help -d 'Show the help of a command (esign help envelopes list)'
complete -c esign -n '__esign_in '\''esign me'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign profiles'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a add -d 'Add or update a profile: its test and live keys (stored in the OS keychain) and base URLs'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a list -d 'List profiles: default, base URLs, masked keys and where each key is stored'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a ls -d 'List profiles: default, base URLs, masked keys and where each key is stored'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a show -d 'Show one profile (keys masked)'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a use -d 'Make a profile the default'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a set -d 'Change a profile'\''s base URLs'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a remove -d 'Remove a profile and delete its keys from the keychain or credentials file'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a rm -d 'Remove a profile and delete its keys from the keychain or credentials file'
complete -c esign -n '__esign_at '\''esign profiles'\'' 0' -a prune -d 'Delete the keys in the credentials file that no profile uses (asks first; --yes without a terminal)'
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l test-key-stdin -d 'read the test key from standard input (never pass a key as an argument)'
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l live-key-stdin -d 'read the live key from standard input (after the test key when both are given)'
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l base-url -d 'production API base URL' -x
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l sandbox-base-url -d 'sandbox API base URL' -x
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l verify -d 'call `me` with each key before storing it'
complete -c esign -n '__esign_in '\''esign profiles add'\''' -l default -d 'make this the default profile (the first profile always is)'
complete -c esign -n '__esign_in '\''esign profiles add'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign profiles list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign profiles show'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign profiles show'\'' 0; and not __esign_helping' -a '(__esign_profiles)'
complete -c esign -n '__esign_in '\''esign profiles use'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign profiles use'\'' 0; and not __esign_helping' -a '(__esign_profiles)'
complete -c esign -n '__esign_in '\''esign profiles set'\''' -l base-url -d 'production API base URL' -x
complete -c esign -n '__esign_in '\''esign profiles set'\''' -l sandbox-base-url -d 'sandbox API base URL' -x
complete -c esign -n '__esign_in '\''esign profiles set'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign profiles set'\'' 0; and not __esign_helping' -a '(__esign_profiles)'
complete -c esign -n '__esign_in '\''esign profiles remove'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign profiles remove'\'' 0; and not __esign_helping' -a '(__esign_profiles)'
complete -c esign -n '__esign_in '\''esign profiles prune'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign config'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign config'\'' 0' -a trust -d 'Trust a project config file as it is now: esign then uses its base URLs (and runs it, if it is code)'
complete -c esign -n '__esign_at '\''esign config'\'' 0' -a untrust -d 'Withdraw the trust in a project config file'
complete -c esign -n '__esign_at '\''esign config'\'' 0' -a trusted -d 'List the trusted project config files, and whether each is still as it was trusted'
complete -c esign -n '__esign_in '\''esign config trust'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign config trust'\'' 0; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign config untrust'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign config untrust'\'' 0; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign config trusted'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign emulator'\''' -l port -d 'port (0 picks a free one)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l host -d 'loopback address to listen on' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l environment -d 'which environment it plays' -x -a 'sandbox production'
complete -c esign -n '__esign_in '\''esign emulator'\''' -l key -d 'accepted API key (repeatable; default: one generated and printed)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l print-env -d 'print `export ESIGN_..._BASE_URL=... ESIGN_API_KEY=...` for eval, then keep serving'
complete -c esign -n '__esign_in '\''esign emulator'\''' -l state -d 'keep state in this file across restarts (written atomically)' -r -F
complete -c esign -n '__esign_in '\''esign emulator'\''' -l processing-delay -d 'how long an uploaded document stays PROCESSING' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l max-document-bytes -d 'documents larger than this get 413 DOCUMENT_TOO_LARGE' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l no-anchor-search -d 'disable anchor search (503 ANCHOR_SEARCH_UNAVAILABLE)'
complete -c esign -n '__esign_in '\''esign emulator'\''' -l anchor-time-limit -d 'anchor search time limit (422 DOCUMENT_TEXT_UNREADABLE past it)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l message-limit -d 'account'\''s message limit (invitations and reminders)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l envelope-quota -d 'envelopes the account may create (403 ENVELOPES_QUOTA_EXCEEDED past it)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l rate-limit -d 'account request ceiling, e.g. 50/s (429 with rate-limit headers)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l faults -d 'inject faults on API routes, e.g. reset=0.1,503=0.05,429=0.05,latency=20' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l webhook-retry-delays -d 'webhook retry schedule in ms, e.g. 100,200 (tests)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l signed-address-ttl -d 'how long upload and download addresses stay valid (tests)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l preload-drafts -d 'start with this many draft envelopes (bench)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l preload-contacts -d 'start with this many contacts (bench)' -x
complete -c esign -n '__esign_in '\''esign emulator'\''' -l no-seed -d 'start with an empty account (no folders, team or templates)'
complete -c esign -n '__esign_in '\''esign emulator'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign emulator'\'' 0' -a sign -d 'Act as a participant of an envelope in the emulator: sign (default: whoever'\''s turn it is)'
complete -c esign -n '__esign_at '\''esign emulator'\'' 0' -a approve -d 'Act as a participant of an envelope in the emulator: approve (default: whoever'\''s turn it is)'
complete -c esign -n '__esign_at '\''esign emulator'\'' 0' -a refuse -d 'Act as a participant of an envelope in the emulator: refuse (default: whoever'\''s turn it is)'
complete -c esign -n '__esign_in '\''esign emulator sign'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign emulator approve'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign emulator refuse'\''' -l reason -d 'why they refuse' -x
complete -c esign -n '__esign_in '\''esign emulator refuse'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a create -d 'Create a draft envelope'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a get -d 'Show an envelope with its participants (and whose turn it is) and its documents with their status'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a show -d 'Show an envelope with its participants (and whose turn it is) and its documents with their status'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a list -d 'List envelopes, newest first; filter by status, folder, title, participant, creation time'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a ls -d 'List envelopes, newest first; filter by status, folder, title, participant, creation time'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a find -d 'Find envelopes by title, participant name or e-mail, or id (a unique id prefix of 8+ characters names one)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a search -d 'Find envelopes by title, participant name or e-mail, or id (a unique id prefix of 8+ characters names one)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a settings -d 'Change an envelope'\''s title, message or deadline'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a send -d 'Send an envelope to its participants (waits while its documents are still processing)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a wait -d 'Wait until envelopes reach a status (exit 0; 5 if one ended in another final state; 7 on timeout)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a history -d 'Show an envelope'\''s history: who did what, when, to the second (API actions name the integration)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a download -d 'Get the ZIP of an envelope: its signed address, or the file itself with --out (COMPLETED ones only, unless --unsigned)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a move -d 'Move an envelope to another folder'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a void -d 'Void a sent envelope (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a delete -d 'Delete a draft envelope (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a rm -d 'Delete a draft envelope (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign envelopes'\'' 0' -a send-now -d 'Create and send an envelope in one call from envelope.yaml: checked offline first, then documents uploaded'
complete -c esign -n '__esign_in '\''esign envelopes create'\''' -l title -d 'title' -x
complete -c esign -n '__esign_in '\''esign envelopes create'\''' -l message -d 'message the participants receive' -x
complete -c esign -n '__esign_in '\''esign envelopes create'\''' -l deadline -d 'signing deadline: ISO 8601 date-time (UTC unless a zone is given) or a duration from now (7d, 12h, 30m)' -x
complete -c esign -n '__esign_in '\''esign envelopes create'\''' -l folder -d 'folder to create it in' -x
complete -c esign -n '__esign_in '\''esign envelopes create'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l status -d 'only this status (DRAFT, SENT, COMPLETED, VOIDED, DECLINED, EXPIRED)' -x -a 'DRAFT SENT COMPLETED VOIDED DECLINED EXPIRED'
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l folder -d 'only this folder: its id, name or path (Sales/2026)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l title -d 'title contains this (any case)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l participant -d 'a participant'\''s e-mail or name contains this (any case)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l created-after -d 'created at or after: 2026-01-31, a date-time, or a time ago (7d)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l created-before -d 'created before: 2026-01-31, a date-time, or a time ago (7d)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign envelopes list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes find'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign envelopes find'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign envelopes find'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign envelopes find'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign envelopes find'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes settings'\''' -l title -d 'new title' -x
complete -c esign -n '__esign_in '\''esign envelopes settings'\''' -l message -d 'new message' -x
complete -c esign -n '__esign_in '\''esign envelopes settings'\''' -l deadline -d 'signing deadline: ISO 8601 date-time (UTC unless a zone is given) or a duration from now (7d, 12h, 30m)' -x
complete -c esign -n '__esign_in '\''esign envelopes settings'\''' -l no-deadline -d 'remove the deadline'
complete -c esign -n '__esign_in '\''esign envelopes settings'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes send'\''' -l wait-timeout -d 'how long to keep retrying while documents process (e.g. 30s, 5m; default 2m)' -x
complete -c esign -n '__esign_in '\''esign envelopes send'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes wait'\''' -l until -d 'status to wait for: SENT, COMPLETED, VOIDED (required)' -x -a 'SENT COMPLETED VOIDED'
complete -c esign -n '__esign_in '\''esign envelopes wait'\''' -l wait-timeout -d 'give up after this long (e.g. 90s, 30m, 2h; default 10m)' -x
complete -c esign -n '__esign_in '\''esign envelopes wait'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -l utc -d 'times in UTC instead of the local time zone'
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -l limit -d 'show one page of this size, 1 to 100 (default: every entry)' -x
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign envelopes history'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes download'\''' -s o -l out -d 'save the ZIP to this file (- for stdout is not supported: it is binary)' -r -F
complete -c esign -n '__esign_in '\''esign envelopes download'\''' -l force -d 'replace the --out file if it exists'
complete -c esign -n '__esign_in '\''esign envelopes download'\''' -l unsigned -d 'an envelope not COMPLETED: download its unsigned documents anyway (saved as NAME.unsigned.zip)'
complete -c esign -n '__esign_in '\''esign envelopes download'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes move'\''' -l folder -d 'destination folder (picked on a terminal when left out)' -x
complete -c esign -n '__esign_in '\''esign envelopes move'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes void'\''' -l reason -d 'why (required; kept as cancellationReason and in the history)' -x
complete -c esign -n '__esign_in '\''esign envelopes void'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes delete'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -s f -l file -d 'envelope.yaml (title, participants, documents, fields); - reads standard input' -r -F
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -l wait -d 'follow the envelope until it is SENT (exit 0) or VOIDED (exit 5, with the reason)'
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -l wait-timeout -d 'with --wait, give up after this long (default 10m)' -x
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -l confirm-conversion -d 'with --wait, accept the converted PDF of each .docx without asking'
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -l run-id -d 'this run'\''s id (else ESIGN_RUN_ID): the same id finds the envelope it sent, a new one sends anew' -x
complete -c esign -n '__esign_in '\''esign envelopes send-now'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign send'\''' -l wait-timeout -d 'how long to keep retrying while documents process (e.g. 30s, 5m; default 2m)' -x
complete -c esign -n '__esign_in '\''esign send'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a set -d 'Replace an envelope'\''s participants (from a YAML/JSON file, or with --add)'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a list -d 'List an envelope'\''s participants, their status and whose turn it is'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a ls -d 'List an envelope'\''s participants, their status and whose turn it is'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a correct -d 'Correct a participant who has not signed yet, also after sending (asks which one on a terminal)'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a approve -d 'Approve an envelope as one of its approvers'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a refuse -d 'Refuse an envelope as one of its approvers'
complete -c esign -n '__esign_at '\''esign participants'\'' 0' -a remind -d 'Send a reminder to whoever'\''s turn it is, or to one participant (counts toward the account message limit)'
complete -c esign -n '__esign_in '\''esign participants set'\''' -s f -l file -d 'participants.yaml or .json (- for stdin): `participants: [{name, email, phoneNumber?, deliveryMethod?, role?, signingOrder?}]`' -r -F
complete -c esign -n '__esign_in '\''esign participants set'\''' -l add -d 'a participant (repeatable; no signingOrder is sent, the service orders them)' -x
complete -c esign -n '__esign_in '\''esign participants set'\''' -l delivery -d 'with --add: EMAIL, SMS, WHATSAPP (default EMAIL)' -x -a 'EMAIL SMS WHATSAPP'
complete -c esign -n '__esign_in '\''esign participants set'\''' -l phone -d 'with --add: phone number in E.164 (+33612345678), required for SMS and WHATSAPP' -x
complete -c esign -n '__esign_in '\''esign participants set'\''' -l role -d 'with --add: SIGNER, APPROVER (default SIGNER)' -x -a 'SIGNER APPROVER'
complete -c esign -n '__esign_in '\''esign participants set'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants list'\''' -l limit -d 'show one page of this size, 1 to 100 (default: every entry)' -x
complete -c esign -n '__esign_in '\''esign participants list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign participants list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign participants list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign participants list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants correct'\''' -l name -d 'new name' -x
complete -c esign -n '__esign_in '\''esign participants correct'\''' -l email -d 'new e-mail (resends the invitation if it is their turn)' -x
complete -c esign -n '__esign_in '\''esign participants correct'\''' -l phone -d 'new phone number in E.164, e.g. +33612345678 (resends the invitation if it is their turn)' -x
complete -c esign -n '__esign_in '\''esign participants correct'\''' -l delivery-method -d 'new delivery method: EMAIL, SMS, WHATSAPP' -x -a 'EMAIL SMS WHATSAPP'
complete -c esign -n '__esign_in '\''esign participants correct'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants approve'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants refuse'\''' -l reason -d 'why (required; recorded in the history)' -x
complete -c esign -n '__esign_in '\''esign participants refuse'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign participants remind'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign templates'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign templates'\'' 0' -a list -d 'List the templates of the account, with the roles each one needs'
complete -c esign -n '__esign_at '\''esign templates'\'' 0' -a ls -d 'List the templates of the account, with the roles each one needs'
complete -c esign -n '__esign_at '\''esign templates'\'' 0' -a get -d 'Show a template: its documents and the roles a participants file fills'
complete -c esign -n '__esign_at '\''esign templates'\'' 0' -a show -d 'Show a template: its documents and the roles a participants file fills'
complete -c esign -n '__esign_at '\''esign templates'\'' 0' -a use -d 'Create an envelope from a template, as a draft or sent at once (--send)'
complete -c esign -n '__esign_in '\''esign templates list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign templates list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign templates list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign templates list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign templates list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign templates get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign templates use'\''' -s p -l participants -d 'participants.yaml (required): each with templateRole (the label) or templateParticipantId, name, email, phoneNumber?, deliveryMethod?' -r -F
complete -c esign -n '__esign_in '\''esign templates use'\''' -l title -d 'envelope title' -x
complete -c esign -n '__esign_in '\''esign templates use'\''' -l deadline -d 'signing deadline: ISO 8601 date-time (UTC unless a zone is given) or a duration from now (7d, 12h, 30m)' -x
complete -c esign -n '__esign_in '\''esign templates use'\''' -l folder -d 'folder of the new envelope' -x
complete -c esign -n '__esign_in '\''esign templates use'\''' -l send -d 'send it now instead of leaving a draft'
complete -c esign -n '__esign_in '\''esign templates use'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign documents'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a upload -d 'Register documents (.pdf, .docx) in a draft envelope, upload them and wait until they are processed'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a list -d 'List an envelope'\''s documents with their processing status and page count'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a ls -d 'List an envelope'\''s documents with their processing status and page count'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a confirm-conversion -d 'Accept the PDF converted from a .docx, so the envelope can be sent'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a download-url -d 'Print a short-lived download address of a document (no key needed to fetch it)'
complete -c esign -n '__esign_at '\''esign documents'\'' 0' -a validate -d 'Ask the service whether a PDF is an untouched sealed document it produced'
complete -c esign -n '__esign_in '\''esign documents upload'\''' -l no-wait -d 'return once uploaded, without waiting for processing'
complete -c esign -n '__esign_in '\''esign documents upload'\''' -l confirm-conversion -d 'accept the converted PDF of each .docx without asking, during the wait'
complete -c esign -n '__esign_in '\''esign documents upload'\''' -l wait-timeout -d 'give up waiting after this long (default 2m)' -x
complete -c esign -n '__esign_in '\''esign documents upload'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign documents upload'\'' 1 +; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign documents list'\''' -l limit -d 'show one page of this size, 1 to 100 (default: every entry)' -x
complete -c esign -n '__esign_in '\''esign documents list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign documents list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign documents list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign documents list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign documents confirm-conversion'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign documents download-url'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign documents validate'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign documents validate'\'' 0; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign fields'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign fields'\'' 0' -a put -d 'Replace a document'\''s fields with the ones in a YAML or JSON file (ids left out are derived, so a re-run updates)'
complete -c esign -n '__esign_at '\''esign fields'\'' 0' -a list -d 'List a document'\''s fields with their resolved positions (anchors already turned into coordinates)'
complete -c esign -n '__esign_at '\''esign fields'\'' 0' -a ls -d 'List a document'\''s fields with their resolved positions (anchors already turned into coordinates)'
complete -c esign -n '__esign_at '\''esign fields'\'' 0' -a check -d 'Check a fields file against a local PDF, offline: what the service would refuse (exit 5) and what looks wrong'
complete -c esign -n '__esign_at '\''esign fields'\'' 0' -a preview -d 'Write a copy of a local PDF with each field of a fields file drawn as a labelled box (offline)'
complete -c esign -n '__esign_in '\''esign fields put'\''' -s f -l file -d 'fields.yaml or fields.json (a `fields` list); - reads standard input' -r -F
complete -c esign -n '__esign_in '\''esign fields put'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign fields list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign fields check'\''' -l local -d 'the PDF the fields are for (required: the check runs offline)' -r -F
complete -c esign -n '__esign_in '\''esign fields check'\''' -s f -l file -d 'fields.yaml or fields.json, as for `fields put`; - reads standard input' -r -F
complete -c esign -n '__esign_in '\''esign fields check'\''' -l participants -d 'participants.yaml with ids and roles, to find signers without a SIGNATURE field' -r -F
complete -c esign -n '__esign_in '\''esign fields check'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign fields preview'\''' -l local -d 'the PDF the fields are for (required)' -r -F
complete -c esign -n '__esign_in '\''esign fields preview'\''' -s f -l file -d 'fields.yaml or fields.json, as for `fields put`; - reads standard input' -r -F
complete -c esign -n '__esign_in '\''esign fields preview'\''' -s o -l out -d 'where to write the preview (required)' -r -F
complete -c esign -n '__esign_in '\''esign fields preview'\''' -l force -d 'replace the --out file if it exists'
complete -c esign -n '__esign_in '\''esign fields preview'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign batch'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign batch'\'' 0' -a validate -d 'Check batch specs offline (schema, refs, files, field rules, anchors on the PDFs); exit 2 on any problem'
complete -c esign -n '__esign_at '\''esign batch'\'' 0' -a plan -d 'Validate, then print every request a run would send, in order, with the Idempotency-Key of each POST'
complete -c esign -n '__esign_at '\''esign batch'\'' 0' -a run -d 'Send every envelope of the specs, a few at a time, exactly once: journalled, resumable, with a CI report'
complete -c esign -n '__esign_at '\''esign batch'\'' 0' -a schema -d 'Print the JSON Schema of batch files and envelope specs (for editors: yaml-language-server)'
complete -c esign -n '__esign_at '\''esign batch'\'' 0' -a convert-v2 -d 'Turn a legacy POST /v2/envelopes/ body into a v4 envelope spec (YAML), listing what has no v4 counterpart'
complete -c esign -n '__esign_in '\''esign batch validate'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign batch validate'\'' 0 +; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign batch plan'\''' -l shard -d 'only the i-th of n stable shares of the envelopes, as batch run --shard sends them' -x
complete -c esign -n '__esign_in '\''esign batch plan'\''' -l run-id -d 'the run id the run will have (else ESIGN_RUN_ID): the keys derive from it' -x
complete -c esign -n '__esign_in '\''esign batch plan'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign batch plan'\'' 0 +; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign batch run'\''' -s c -l concurrency -d 'envelopes in flight at once' -x
complete -c esign -n '__esign_in '\''esign batch run'\''' -l journal -d 'where each completed step is recorded (default: <first spec>.journal.jsonl)' -r -F
complete -c esign -n '__esign_in '\''esign batch run'\''' -l resume -d 'continue from the journal of an interrupted or failed run'
complete -c esign -n '__esign_in '\''esign batch run'\''' -l report -d 'write a JUnit XML report (one test case per envelope)' -r -F
complete -c esign -n '__esign_in '\''esign batch run'\''' -l shard -d 'run only the i-th of n stable shares of the envelopes (by ref), for CI matrices' -x
complete -c esign -n '__esign_in '\''esign batch run'\''' -l wait -d 'after sending, wait until each envelope is sent or completed' -x -a 'sent completed'
complete -c esign -n '__esign_in '\''esign batch run'\''' -l wait-timeout -d 'give up waiting after this long (default 30m)' -x
complete -c esign -n '__esign_in '\''esign batch run'\''' -l fail-fast -d 'stop starting envelopes after the first failure'
complete -c esign -n '__esign_in '\''esign batch run'\''' -l confirm-conversion -d 'accept the converted PDF of each .docx without asking'
complete -c esign -n '__esign_in '\''esign batch run'\''' -l force -d 'replace an existing journal (starting over) or report'
complete -c esign -n '__esign_in '\''esign batch run'\''' -l run-id -d 'this run'\''s id (else ESIGN_RUN_ID): the same id finds the envelopes it sent, a new one sends anew' -x
complete -c esign -n '__esign_in '\''esign batch run'\''' -l verbose -d 'on failure, print every envelope'\''s outcome, not one line per failed envelope'
complete -c esign -n '__esign_in '\''esign batch run'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign batch run'\'' 0 +; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign batch schema'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign batch convert-v2'\''' -s o -l out -d 'write the spec to this file instead of standard output' -r -F
complete -c esign -n '__esign_in '\''esign batch convert-v2'\''' -l force -d 'replace --out if it exists'
complete -c esign -n '__esign_in '\''esign batch convert-v2'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign batch convert-v2'\'' 0; and not __esign_helping' -F
complete -c esign -n '__esign_in '\''esign anchors'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign anchors'\'' 0' -a find -d 'Find where anchor texts are (page, x, y, width, height): in an envelope document, a template document (--template), or a local PDF (--local)'
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l text -d 'text to find (repeatable)' -x
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l key -d 'key of each --text, in order (default: the text itself)' -x
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l occurrence -d 'first, all (default) or N (the N-th in the whole document)' -x -a 'first all'
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l case-sensitive -d 'match letter case exactly'
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l whole-word -d 'no letter or digit directly before or after the text'
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l offset -d 'points added to the top-left of each match (x right, y down), e.g. 0,-12' -x
complete -c esign -n '__esign_in '\''esign anchors find'\''' -s f -l file -d 'searches.yaml: a list of {key?, text, occurrence?, caseSensitive?, matchWholeWord?, offset?}' -r -F
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l template -d 'search a template document: esign anchors find --template <templateId> <documentId>' -x
complete -c esign -n '__esign_in '\''esign anchors find'\''' -l local -d 'search a local PDF offline (no key needed), with the same matcher as the service' -r -F
complete -c esign -n '__esign_in '\''esign anchors find'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a create -d 'Create a webhook endpoint; prints its signing secret once and stores it for `webhooks listen`'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a list -d 'List webhook endpoints (their secrets are never shown again)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a ls -d 'List webhook endpoints (their secrets are never shown again)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a get -d 'Show a webhook endpoint (found in the list: the API has no single read)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a show -d 'Show a webhook endpoint (found in the list: the API has no single read)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a update -d 'Change a webhook endpoint'\''s URL, events, or switch it on (--active) or off (--inactive)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a delete -d 'Delete a webhook endpoint and its deliveries (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a rm -d 'Delete a webhook endpoint and its deliveries (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a deliveries -d 'List an endpoint'\''s deliveries, newest first (--status failed for the ones to look at)'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a delivery -d 'Show one delivery: the request body, each attempt and the answers received'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a resend -d 'Deliver an event again, with the same webhook-id so the receiver can tell it is a repeat; exit 6 if the receiver does not accept it'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a rotate-secret -d 'Replace an endpoint'\''s signing secret (used from the next delivery attempt on); prints it once and stores it'
complete -c esign -n '__esign_at '\''esign webhooks'\'' 0' -a listen -d 'Receive deliveries locally: verify each signature, print one line per event, forward verified ones'
complete -c esign -n '__esign_in '\''esign webhooks create'\''' -l url -d 'HTTPS address that receives the deliveries (http:// only to localhost)' -x
complete -c esign -n '__esign_in '\''esign webhooks create'\''' -l events -d 'comma-separated event kinds, e.g. ENVELOPE_COMPLETED,ENVELOPE_VOIDED' -x -a '(__fish_complete_list , __esign_list_1)'
complete -c esign -n '__esign_in '\''esign webhooks create'\''' -l inactive -d 'create it switched off (no deliveries until `webhooks update --active`)'
complete -c esign -n '__esign_in '\''esign webhooks create'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign webhooks list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign webhooks list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign webhooks list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign webhooks list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks update'\''' -l url -d 'new HTTPS address' -x
complete -c esign -n '__esign_in '\''esign webhooks update'\''' -l events -d 'new comma-separated event kinds (replaces the list)' -x -a '(__fish_complete_list , __esign_list_1)'
complete -c esign -n '__esign_in '\''esign webhooks update'\''' -l active -d 'switch deliveries on'
complete -c esign -n '__esign_in '\''esign webhooks update'\''' -l inactive -d 'switch deliveries off'
complete -c esign -n '__esign_in '\''esign webhooks update'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks delete'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -l status -d 'only this status (pending, succeeded, failed)' -x -a 'pending succeeded failed'
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign webhooks deliveries'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks delivery'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks resend'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks rotate-secret'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l port -d 'local port (127.0.0.1); 0 picks a free one' -x
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l endpoint -d 'use the signing secret stored for this endpoint by `webhooks create` or `rotate-secret`' -x
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l secret-stdin -d 'read the signing secret (whsec_…) from standard input'
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l secret -d 'the signing secret (shows in the process list and history; prefer the two above)' -x
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l forward-to -d 'forward each verified delivery (same headers and body) here; its answer decides ours' -x
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -l events -d 'only these event kinds are printed and forwarded' -x -a '(__fish_complete_list , __esign_list_1)'
complete -c esign -n '__esign_in '\''esign webhooks listen'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a create -d 'Create a contact (409 CONTACT_EMAIL_EXISTS if one has that e-mail)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a list -d 'List contacts (one page; --all follows every page, streaming)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a ls -d 'List contacts (one page; --all follows every page, streaming)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a get -d 'Show a contact (asks which one on a terminal)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a show -d 'Show a contact (asks which one on a terminal)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a update -d 'Replace a contact: fields left out (--phone, --company) are cleared; `patch` changes only what is given'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a patch -d 'Change some fields of a contact, leaving the others as they are'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a delete -d 'Delete a contact, also from its contact lists (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a rm -d 'Delete a contact, also from its contact lists (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a envelopes -d 'List the envelopes a contact takes part in, newest first'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a lists -d 'List the contact lists'
complete -c esign -n '__esign_at '\''esign contacts'\'' 0' -a list-get -d 'Show a contact list with its contacts'
complete -c esign -n '__esign_in '\''esign contacts create'\''' -l name -d 'full name' -x
complete -c esign -n '__esign_in '\''esign contacts create'\''' -l email -d 'e-mail address (one contact per address)' -x
complete -c esign -n '__esign_in '\''esign contacts create'\''' -l phone -d 'phone number in E.164, e.g. +33612345678' -x
complete -c esign -n '__esign_in '\''esign contacts create'\''' -l company -d 'company' -x
complete -c esign -n '__esign_in '\''esign contacts create'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts list'\''' -l search -d 'only contacts whose name, e-mail or company contains this' -x
complete -c esign -n '__esign_in '\''esign contacts list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign contacts list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign contacts list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign contacts list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign contacts list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts update'\''' -l name -d 'full name' -x
complete -c esign -n '__esign_in '\''esign contacts update'\''' -l email -d 'e-mail address (one contact per address)' -x
complete -c esign -n '__esign_in '\''esign contacts update'\''' -l phone -d 'phone number in E.164, e.g. +33612345678' -x
complete -c esign -n '__esign_in '\''esign contacts update'\''' -l company -d 'company' -x
complete -c esign -n '__esign_in '\''esign contacts update'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l name -d 'full name' -x
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l email -d 'e-mail address (one contact per address)' -x
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l phone -d 'phone number in E.164, e.g. +33612345678' -x
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l company -d 'company' -x
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l clear-phone -d 'remove the phone number'
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -l clear-company -d 'remove the company'
complete -c esign -n '__esign_in '\''esign contacts patch'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts delete'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts envelopes'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign contacts envelopes'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign contacts envelopes'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign contacts envelopes'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign contacts envelopes'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts lists'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign contacts lists'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign contacts lists'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign contacts lists'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign contacts lists'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign contacts list-get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a list -d 'List every folder with its id and path (the ids `envelopes move` and `envelopes list --folder` take)'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a ls -d 'List every folder with its id and path (the ids `envelopes move` and `envelopes list --folder` take)'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a create -d 'Create a folder, at the root or under --parent'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a contents -d 'List what a folder holds: its subfolders, then its envelopes'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a content -d 'List what a folder holds: its subfolders, then its envelopes'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a access -d 'Show who can see and change a folder (an API key sees every folder whatever this says)'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a rename -d 'Rename a folder'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a move -d 'Move a folder under another folder (--parent) or to the root (--root)'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a delete -d 'Delete an empty folder (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_at '\''esign folders'\'' 0' -a rm -d 'Delete an empty folder (asks for confirmation; --yes without a terminal)'
complete -c esign -n '__esign_in '\''esign folders list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign folders list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign folders list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign folders list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign folders list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders create'\''' -l parent -d 'parent folder id (default: the root)' -x
complete -c esign -n '__esign_in '\''esign folders create'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders contents'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign folders contents'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign folders contents'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign folders contents'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign folders contents'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders access'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders rename'\''' -l name -d 'the new name (required)' -x
complete -c esign -n '__esign_in '\''esign folders rename'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders move'\''' -l parent -d 'the new parent folder' -x
complete -c esign -n '__esign_in '\''esign folders move'\''' -l root -d 'move to the root'
complete -c esign -n '__esign_in '\''esign folders move'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign folders delete'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign team'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign team'\'' 0' -a groups -d 'List the team groups'
complete -c esign -n '__esign_at '\''esign team'\'' 0' -a members -d 'List the team members (of one group with --group)'
complete -c esign -n '__esign_in '\''esign team groups'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign team groups'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign team groups'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign team groups'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign team groups'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign team members'\''' -l group -d 'only the members of this group (its id or name)' -x
complete -c esign -n '__esign_in '\''esign team members'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign team members'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign team members'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign team members'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign team members'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign invites'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign invites'\'' 0' -a list -d 'List the invitations to join the team'
complete -c esign -n '__esign_at '\''esign invites'\'' 0' -a ls -d 'List the invitations to join the team'
complete -c esign -n '__esign_in '\''esign invites list'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign invites list'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign invites list'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign invites list'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign invites list'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign account'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a get -d 'Show the account the key belongs to: plan limits and usage'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a show -d 'Show the account the key belongs to: plan limits and usage'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a capabilities -d 'Show the capabilities in effect for this key (what the plan and environment allow)'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a caps -d 'Show the capabilities in effect for this key (what the plan and environment allow)'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a catalog -d 'Show every capability the service knows, with what it does'
complete -c esign -n '__esign_at '\''esign account'\'' 0' -a calls -d 'List the API calls made with this key, newest first'
complete -c esign -n '__esign_in '\''esign account get'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign account capabilities'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign account catalog'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign account calls'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign account calls'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign account calls'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign account calls'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign account calls'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign reports'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign reports'\'' 0' -a voided -d 'List voided envelopes with why, most recently voided first'
complete -c esign -n '__esign_at '\''esign reports'\'' 0' -a envelope -d 'Show an envelope'\''s report: timestamps, participants'\'' progress, documents, history and messages counted'
complete -c esign -n '__esign_at '\''esign reports'\'' 0' -a usage -d 'Show envelopes sent per team group (--from/--to bound the sending time)'
complete -c esign -n '__esign_in '\''esign reports voided'\''' -l limit -d 'page size, 1 to 100 (default 20)' -x
complete -c esign -n '__esign_in '\''esign reports voided'\''' -l cursor -d 'start at this page (the nextCursor of a previous --json answer)' -x
complete -c esign -n '__esign_in '\''esign reports voided'\''' -l all -d 'follow every page, printing rows as they arrive'
complete -c esign -n '__esign_in '\''esign reports voided'\''' -l jsonl -d 'one JSON object per line (with --all, streamed)'
complete -c esign -n '__esign_in '\''esign reports voided'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign reports envelope'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign reports usage'\''' -l group -d 'only this group (its id or name)' -x
complete -c esign -n '__esign_in '\''esign reports usage'\''' -l from -d 'sent at or after (a date, or a time ago such as 30d)' -x
complete -c esign -n '__esign_in '\''esign reports usage'\''' -l to -d 'sent before' -x
complete -c esign -n '__esign_in '\''esign reports usage'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign doctor'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_in '\''esign completion'\''' -s h -l help -d 'display help for command'
complete -c esign -n '__esign_at '\''esign completion'\'' 0; and not __esign_helping' -a 'bash zsh fish'
complete -c esign -n '__esign_in '\''esign api'\''' -s f -l raw-field -d 'a string parameter (repeatable): fills {key} in the path, else the query (GET, DELETE) or the JSON body, where key[]=value appends to an array and key[member]=value builds an object' -x
complete -c esign -n '__esign_in '\''esign api'\''' -s F -l field -d 'a typed parameter: numbers, true, false, null, @file for a file'\''s text, @- for standard input'\''s (repeatable)' -x
complete -c esign -n '__esign_in '\''esign api'\''' -l input -d 'the request body from a file (JSON, or a PDF) or - for standard input; fields then go to the query' -r -F
complete -c esign -n '__esign_in '\''esign api'\''' -s H -l header -d 'an extra request header '\''Name: value'\'' (repeatable; not one esign sets or that picks the host, e.g. Authorization, Host)' -x
complete -c esign -n '__esign_in '\''esign api'\''' -l paginate -d 'follow nextCursor through every page; prints the rows as one JSON array once the last page is in (nothing if a page fails)'
complete -c esign -n '__esign_in '\''esign api'\''' -l include -d 'print the HTTP status and response headers before the body'
complete -c esign -n '__esign_in '\''esign api'\''' -l list -d 'list every operation: operationId, method, path, whether it needs an Idempotency-Key'
complete -c esign -n '__esign_in '\''esign api'\''' -l openapi -d 'print the OpenAPI 3.1 document of the contract (JSON), for SDK generators, fuzzers and mocks'
complete -c esign -n '__esign_in '\''esign api'\''' -s h -l help -d 'display help for command'
