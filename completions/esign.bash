# Shell completion for esign, generated from the command tree by `npm run completions`: do not edit.
# Profile names come from `esign __complete profiles` (the local config file, never the network).
# Install: source it from ~/.bashrc, or copy it to a bash-completion directory (/usr/share/bash-completion/completions
# or ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions) as `esign`.

# _esign_command COMMAND WORD: the command WORD names under COMMAND ("" for esign itself), if any.
_esign_command() {
  case "$1 $2" in
    " me") _esign_reply='me' ;;
    " profiles"|" profile") _esign_reply='profiles' ;;
    " config") _esign_reply='config' ;;
    " emulator") _esign_reply='emulator' ;;
    " envelopes"|" env") _esign_reply='envelopes' ;;
    " send") _esign_reply='send' ;;
    " participants"|" part") _esign_reply='participants' ;;
    " templates"|" template") _esign_reply='templates' ;;
    " documents"|" doc") _esign_reply='documents' ;;
    " fields"|" field") _esign_reply='fields' ;;
    " batch") _esign_reply='batch' ;;
    " anchors"|" anchor") _esign_reply='anchors' ;;
    " webhooks"|" webhook") _esign_reply='webhooks' ;;
    " contacts"|" contact") _esign_reply='contacts' ;;
    " folders"|" folder") _esign_reply='folders' ;;
    " team") _esign_reply='team' ;;
    " invites"|" invite") _esign_reply='invites' ;;
    " account") _esign_reply='account' ;;
    " reports"|" report") _esign_reply='reports' ;;
    " doctor") _esign_reply='doctor' ;;
    " completion") _esign_reply='completion' ;;
    " api") _esign_reply='api' ;;
    "profiles add") _esign_reply='profiles add' ;;
    "profiles list"|"profiles ls") _esign_reply='profiles list' ;;
    "profiles show") _esign_reply='profiles show' ;;
    "profiles use") _esign_reply='profiles use' ;;
    "profiles set") _esign_reply='profiles set' ;;
    "profiles remove"|"profiles rm") _esign_reply='profiles remove' ;;
    "profiles prune") _esign_reply='profiles prune' ;;
    "config trust") _esign_reply='config trust' ;;
    "config untrust") _esign_reply='config untrust' ;;
    "config trusted") _esign_reply='config trusted' ;;
    "emulator sign") _esign_reply='emulator sign' ;;
    "emulator approve") _esign_reply='emulator approve' ;;
    "emulator refuse") _esign_reply='emulator refuse' ;;
    "envelopes create") _esign_reply='envelopes create' ;;
    "envelopes get"|"envelopes show") _esign_reply='envelopes get' ;;
    "envelopes list"|"envelopes ls") _esign_reply='envelopes list' ;;
    "envelopes find"|"envelopes search") _esign_reply='envelopes find' ;;
    "envelopes settings") _esign_reply='envelopes settings' ;;
    "envelopes send") _esign_reply='envelopes send' ;;
    "envelopes wait") _esign_reply='envelopes wait' ;;
    "envelopes history") _esign_reply='envelopes history' ;;
    "envelopes download") _esign_reply='envelopes download' ;;
    "envelopes move") _esign_reply='envelopes move' ;;
    "envelopes void") _esign_reply='envelopes void' ;;
    "envelopes delete"|"envelopes rm") _esign_reply='envelopes delete' ;;
    "envelopes send-now") _esign_reply='envelopes send-now' ;;
    "participants set") _esign_reply='participants set' ;;
    "participants list"|"participants ls") _esign_reply='participants list' ;;
    "participants correct") _esign_reply='participants correct' ;;
    "participants approve") _esign_reply='participants approve' ;;
    "participants refuse") _esign_reply='participants refuse' ;;
    "participants remind") _esign_reply='participants remind' ;;
    "templates list"|"templates ls") _esign_reply='templates list' ;;
    "templates get"|"templates show") _esign_reply='templates get' ;;
    "templates use") _esign_reply='templates use' ;;
    "documents upload") _esign_reply='documents upload' ;;
    "documents list"|"documents ls") _esign_reply='documents list' ;;
    "documents confirm-conversion") _esign_reply='documents confirm-conversion' ;;
    "documents download-url") _esign_reply='documents download-url' ;;
    "documents validate") _esign_reply='documents validate' ;;
    "fields put") _esign_reply='fields put' ;;
    "fields list"|"fields ls") _esign_reply='fields list' ;;
    "fields check") _esign_reply='fields check' ;;
    "fields preview") _esign_reply='fields preview' ;;
    "batch validate") _esign_reply='batch validate' ;;
    "batch plan") _esign_reply='batch plan' ;;
    "batch run") _esign_reply='batch run' ;;
    "batch schema") _esign_reply='batch schema' ;;
    "batch convert-v2") _esign_reply='batch convert-v2' ;;
    "anchors find") _esign_reply='anchors find' ;;
    "webhooks create") _esign_reply='webhooks create' ;;
    "webhooks list"|"webhooks ls") _esign_reply='webhooks list' ;;
    "webhooks get"|"webhooks show") _esign_reply='webhooks get' ;;
    "webhooks update") _esign_reply='webhooks update' ;;
    "webhooks delete"|"webhooks rm") _esign_reply='webhooks delete' ;;
    "webhooks deliveries") _esign_reply='webhooks deliveries' ;;
    "webhooks delivery") _esign_reply='webhooks delivery' ;;
    "webhooks resend") _esign_reply='webhooks resend' ;;
    "webhooks rotate-secret") _esign_reply='webhooks rotate-secret' ;;
    "webhooks listen") _esign_reply='webhooks listen' ;;
    "contacts create") _esign_reply='contacts create' ;;
    "contacts list"|"contacts ls") _esign_reply='contacts list' ;;
    "contacts get"|"contacts show") _esign_reply='contacts get' ;;
    "contacts update") _esign_reply='contacts update' ;;
    "contacts patch") _esign_reply='contacts patch' ;;
    "contacts delete"|"contacts rm") _esign_reply='contacts delete' ;;
    "contacts envelopes") _esign_reply='contacts envelopes' ;;
    "contacts lists") _esign_reply='contacts lists' ;;
    "contacts list-get") _esign_reply='contacts list-get' ;;
    "folders list"|"folders ls") _esign_reply='folders list' ;;
    "folders create") _esign_reply='folders create' ;;
    "folders contents"|"folders content") _esign_reply='folders contents' ;;
    "folders access") _esign_reply='folders access' ;;
    "folders rename") _esign_reply='folders rename' ;;
    "folders move") _esign_reply='folders move' ;;
    "folders delete"|"folders rm") _esign_reply='folders delete' ;;
    "team groups") _esign_reply='team groups' ;;
    "team members") _esign_reply='team members' ;;
    "invites list"|"invites ls") _esign_reply='invites list' ;;
    "account get"|"account show") _esign_reply='account get' ;;
    "account capabilities"|"account caps") _esign_reply='account capabilities' ;;
    "account catalog") _esign_reply='account catalog' ;;
    "account calls") _esign_reply='account calls' ;;
    "reports voided") _esign_reply='reports voided' ;;
    "reports envelope") _esign_reply='reports envelope' ;;
    "reports usage") _esign_reply='reports usage' ;;
    *) return 1 ;;
  esac
}

# _esign_value COMMAND OPTION: what the option's value completes to (file, profile, any, words …, list …); fails for
# an option that takes no value.
_esign_value() {
  case "$2" in
    --profile) _esign_reply='profile'; return 0 ;;
    --timeout) _esign_reply='any'; return 0 ;;
    --idempotency-key) _esign_reply='any'; return 0 ;;
  esac
  case "$1 $2" in
    "profiles add --base-url") _esign_reply='any' ;;
    "profiles add --sandbox-base-url") _esign_reply='any' ;;
    "profiles set --base-url") _esign_reply='any' ;;
    "profiles set --sandbox-base-url") _esign_reply='any' ;;
    "emulator --port") _esign_reply='any' ;;
    "emulator --host") _esign_reply='any' ;;
    "emulator --environment") _esign_reply='words sandbox production' ;;
    "emulator --key") _esign_reply='any' ;;
    "emulator --state") _esign_reply='file' ;;
    "emulator --processing-delay") _esign_reply='any' ;;
    "emulator --max-document-bytes") _esign_reply='any' ;;
    "emulator --anchor-time-limit") _esign_reply='any' ;;
    "emulator --message-limit") _esign_reply='any' ;;
    "emulator --envelope-quota") _esign_reply='any' ;;
    "emulator --rate-limit") _esign_reply='any' ;;
    "emulator --faults") _esign_reply='any' ;;
    "emulator --webhook-retry-delays") _esign_reply='any' ;;
    "emulator --signed-address-ttl") _esign_reply='any' ;;
    "emulator --preload-drafts") _esign_reply='any' ;;
    "emulator --preload-contacts") _esign_reply='any' ;;
    "emulator refuse --reason") _esign_reply='any' ;;
    "envelopes create --title") _esign_reply='any' ;;
    "envelopes create --message") _esign_reply='any' ;;
    "envelopes create --deadline") _esign_reply='any' ;;
    "envelopes create --folder") _esign_reply='any' ;;
    "envelopes list --status") _esign_reply='words DRAFT SENT COMPLETED VOIDED DECLINED EXPIRED' ;;
    "envelopes list --folder") _esign_reply='any' ;;
    "envelopes list --title") _esign_reply='any' ;;
    "envelopes list --participant") _esign_reply='any' ;;
    "envelopes list --created-after") _esign_reply='any' ;;
    "envelopes list --created-before") _esign_reply='any' ;;
    "envelopes list --limit") _esign_reply='any' ;;
    "envelopes list --cursor") _esign_reply='any' ;;
    "envelopes find --limit") _esign_reply='any' ;;
    "envelopes find --cursor") _esign_reply='any' ;;
    "envelopes settings --title") _esign_reply='any' ;;
    "envelopes settings --message") _esign_reply='any' ;;
    "envelopes settings --deadline") _esign_reply='any' ;;
    "envelopes send --wait-timeout") _esign_reply='any' ;;
    "envelopes wait --until") _esign_reply='words SENT COMPLETED VOIDED' ;;
    "envelopes wait --wait-timeout") _esign_reply='any' ;;
    "envelopes history --limit") _esign_reply='any' ;;
    "envelopes history --cursor") _esign_reply='any' ;;
    "envelopes download -o"|"envelopes download --out") _esign_reply='file' ;;
    "envelopes move --folder") _esign_reply='any' ;;
    "envelopes void --reason") _esign_reply='any' ;;
    "envelopes send-now -f"|"envelopes send-now --file") _esign_reply='file' ;;
    "envelopes send-now --wait-timeout") _esign_reply='any' ;;
    "envelopes send-now --run-id") _esign_reply='any' ;;
    "send --wait-timeout") _esign_reply='any' ;;
    "participants set -f"|"participants set --file") _esign_reply='file' ;;
    "participants set --add") _esign_reply='any' ;;
    "participants set --delivery") _esign_reply='words EMAIL SMS WHATSAPP' ;;
    "participants set --phone") _esign_reply='any' ;;
    "participants set --role") _esign_reply='words SIGNER APPROVER' ;;
    "participants list --limit") _esign_reply='any' ;;
    "participants list --cursor") _esign_reply='any' ;;
    "participants correct --name") _esign_reply='any' ;;
    "participants correct --email") _esign_reply='any' ;;
    "participants correct --phone") _esign_reply='any' ;;
    "participants correct --delivery-method") _esign_reply='words EMAIL SMS WHATSAPP' ;;
    "participants refuse --reason") _esign_reply='any' ;;
    "templates list --limit") _esign_reply='any' ;;
    "templates list --cursor") _esign_reply='any' ;;
    "templates use -p"|"templates use --participants") _esign_reply='file' ;;
    "templates use --title") _esign_reply='any' ;;
    "templates use --deadline") _esign_reply='any' ;;
    "templates use --folder") _esign_reply='any' ;;
    "documents upload --wait-timeout") _esign_reply='any' ;;
    "documents list --limit") _esign_reply='any' ;;
    "documents list --cursor") _esign_reply='any' ;;
    "fields put -f"|"fields put --file") _esign_reply='file' ;;
    "fields check --local") _esign_reply='file' ;;
    "fields check -f"|"fields check --file") _esign_reply='file' ;;
    "fields check --participants") _esign_reply='file' ;;
    "fields preview --local") _esign_reply='file' ;;
    "fields preview -f"|"fields preview --file") _esign_reply='file' ;;
    "fields preview -o"|"fields preview --out") _esign_reply='file' ;;
    "batch plan --shard") _esign_reply='any' ;;
    "batch plan --run-id") _esign_reply='any' ;;
    "batch run -c"|"batch run --concurrency") _esign_reply='any' ;;
    "batch run --journal") _esign_reply='file' ;;
    "batch run --report") _esign_reply='file' ;;
    "batch run --shard") _esign_reply='any' ;;
    "batch run --wait") _esign_reply='words sent completed' ;;
    "batch run --wait-timeout") _esign_reply='any' ;;
    "batch run --run-id") _esign_reply='any' ;;
    "batch convert-v2 -o"|"batch convert-v2 --out") _esign_reply='file' ;;
    "anchors find --text") _esign_reply='any' ;;
    "anchors find --key") _esign_reply='any' ;;
    "anchors find --occurrence") _esign_reply='words first all' ;;
    "anchors find --offset") _esign_reply='any' ;;
    "anchors find -f"|"anchors find --file") _esign_reply='file' ;;
    "anchors find --template") _esign_reply='any' ;;
    "anchors find --local") _esign_reply='file' ;;
    "webhooks create --url") _esign_reply='any' ;;
    "webhooks create --events") _esign_reply='list ENVELOPE_SENT ENVELOPE_COMPLETED ENVELOPE_VOIDED ENVELOPE_DECLINED' ;;
    "webhooks list --limit") _esign_reply='any' ;;
    "webhooks list --cursor") _esign_reply='any' ;;
    "webhooks update --url") _esign_reply='any' ;;
    "webhooks update --events") _esign_reply='list ENVELOPE_SENT ENVELOPE_COMPLETED ENVELOPE_VOIDED ENVELOPE_DECLINED' ;;
    "webhooks deliveries --status") _esign_reply='words pending succeeded failed' ;;
    "webhooks deliveries --limit") _esign_reply='any' ;;
    "webhooks deliveries --cursor") _esign_reply='any' ;;
    "webhooks listen --port") _esign_reply='any' ;;
    "webhooks listen --endpoint") _esign_reply='any' ;;
    "webhooks listen --secret") _esign_reply='any' ;;
    "webhooks listen --forward-to") _esign_reply='any' ;;
    "webhooks listen --events") _esign_reply='list ENVELOPE_SENT ENVELOPE_COMPLETED ENVELOPE_VOIDED ENVELOPE_DECLINED' ;;
    "contacts create --name") _esign_reply='any' ;;
    "contacts create --email") _esign_reply='any' ;;
    "contacts create --phone") _esign_reply='any' ;;
    "contacts create --company") _esign_reply='any' ;;
    "contacts list --search") _esign_reply='any' ;;
    "contacts list --limit") _esign_reply='any' ;;
    "contacts list --cursor") _esign_reply='any' ;;
    "contacts update --name") _esign_reply='any' ;;
    "contacts update --email") _esign_reply='any' ;;
    "contacts update --phone") _esign_reply='any' ;;
    "contacts update --company") _esign_reply='any' ;;
    "contacts patch --name") _esign_reply='any' ;;
    "contacts patch --email") _esign_reply='any' ;;
    "contacts patch --phone") _esign_reply='any' ;;
    "contacts patch --company") _esign_reply='any' ;;
    "contacts envelopes --limit") _esign_reply='any' ;;
    "contacts envelopes --cursor") _esign_reply='any' ;;
    "contacts lists --limit") _esign_reply='any' ;;
    "contacts lists --cursor") _esign_reply='any' ;;
    "folders list --limit") _esign_reply='any' ;;
    "folders list --cursor") _esign_reply='any' ;;
    "folders create --parent") _esign_reply='any' ;;
    "folders contents --limit") _esign_reply='any' ;;
    "folders contents --cursor") _esign_reply='any' ;;
    "folders rename --name") _esign_reply='any' ;;
    "folders move --parent") _esign_reply='any' ;;
    "team groups --limit") _esign_reply='any' ;;
    "team groups --cursor") _esign_reply='any' ;;
    "team members --group") _esign_reply='any' ;;
    "team members --limit") _esign_reply='any' ;;
    "team members --cursor") _esign_reply='any' ;;
    "invites list --limit") _esign_reply='any' ;;
    "invites list --cursor") _esign_reply='any' ;;
    "account calls --limit") _esign_reply='any' ;;
    "account calls --cursor") _esign_reply='any' ;;
    "reports voided --limit") _esign_reply='any' ;;
    "reports voided --cursor") _esign_reply='any' ;;
    "reports usage --group") _esign_reply='any' ;;
    "reports usage --from") _esign_reply='any' ;;
    "reports usage --to") _esign_reply='any' ;;
    "api -f"|"api --raw-field") _esign_reply='any' ;;
    "api -F"|"api --field") _esign_reply='any' ;;
    "api --input") _esign_reply='file' ;;
    "api -H"|"api --header") _esign_reply='any' ;;
    *) return 1 ;;
  esac
}

# _esign_argument COMMAND INDEX: what the command's positional argument at INDEX (from 0) completes to, if anything.
_esign_argument() {
  case "$1 $2" in
    "profiles show 0") _esign_reply='profile' ;;
    "profiles use 0") _esign_reply='profile' ;;
    "profiles set 0") _esign_reply='profile' ;;
    "profiles remove 0") _esign_reply='profile' ;;
    "config trust 0") _esign_reply='file' ;;
    "config untrust 0") _esign_reply='file' ;;
    "documents upload "[1-9]*) _esign_reply='file' ;;
    "documents validate 0") _esign_reply='file' ;;
    "batch validate "*) _esign_reply='file' ;;
    "batch plan "*) _esign_reply='file' ;;
    "batch run "*) _esign_reply='file' ;;
    "batch convert-v2 0") _esign_reply='file' ;;
    "completion 0") _esign_reply='words bash zsh fish' ;;
    *) return 1 ;;
  esac
}

# _esign_walk WORD…: the words before the cursor (the command name excluded) set _esign_at (the command),
# _esign_index (positional arguments seen), _esign_expecting (an option whose value is under the cursor) and
# _esign_help (`esign help …`: only command names follow).
_esign_walk() {
  _esign_at="" _esign_index=0 _esign_expecting="" _esign_help=""
  local word
  for word in "$@"; do
    if [[ -n $_esign_expecting ]]; then
      [[ $word == "=" ]] || _esign_expecting=""
      continue
    fi
    case $word in
      -*=*) ;;
      -*) _esign_value "$_esign_at" "$word" && _esign_expecting=$word ;;
      *)
        if [[ -z $_esign_at && -z $_esign_help && $word == help ]] && ((_esign_index == 0)); then
          _esign_help=1
        elif ((_esign_index == 0)) && _esign_command "$_esign_at" "$word"; then
          _esign_at=$_esign_reply
        else
          ((_esign_index++))
        fi
        ;;
    esac
  done
}

# _esign_subcommands COMMAND: its subcommands and their aliases.
_esign_subcommands() {
  case "$1" in
    '') _esign_reply='me profiles profile config emulator envelopes env send participants part templates template documents doc fields field batch anchors anchor webhooks webhook contacts contact folders folder team invites invite account reports report doctor completion api help' ;;
    'profiles') _esign_reply='add list ls show use set remove rm prune' ;;
    'config') _esign_reply='trust untrust trusted' ;;
    'emulator') _esign_reply='sign approve refuse' ;;
    'envelopes') _esign_reply='create get show list ls find search settings send wait history download move void delete rm send-now' ;;
    'participants') _esign_reply='set list ls correct approve refuse remind' ;;
    'templates') _esign_reply='list ls get show use' ;;
    'documents') _esign_reply='upload list ls confirm-conversion download-url validate' ;;
    'fields') _esign_reply='put list ls check preview' ;;
    'batch') _esign_reply='validate plan run schema convert-v2' ;;
    'anchors') _esign_reply='find' ;;
    'webhooks') _esign_reply='create list ls get show update delete rm deliveries delivery resend rotate-secret listen' ;;
    'contacts') _esign_reply='create list ls get show update patch delete rm envelopes lists list-get' ;;
    'folders') _esign_reply='list ls create contents content access rename move delete rm' ;;
    'team') _esign_reply='groups members' ;;
    'invites') _esign_reply='list ls' ;;
    'account') _esign_reply='get show capabilities caps catalog calls' ;;
    'reports') _esign_reply='voided envelope usage' ;;
    *) _esign_reply="" ;;
  esac
}

# _esign_options COMMAND: the options it takes, esign's own included.
_esign_options() {
  case "$1" in
    '') _esign_reply='-h --help' ;;
    'me') _esign_reply='-h --help' ;;
    'profiles') _esign_reply='-h --help' ;;
    'profiles add') _esign_reply='--test-key-stdin --live-key-stdin --base-url --sandbox-base-url --verify --default -h --help' ;;
    'profiles list') _esign_reply='-h --help' ;;
    'profiles show') _esign_reply='-h --help' ;;
    'profiles use') _esign_reply='-h --help' ;;
    'profiles set') _esign_reply='--base-url --sandbox-base-url -h --help' ;;
    'profiles remove') _esign_reply='-h --help' ;;
    'profiles prune') _esign_reply='-h --help' ;;
    'config') _esign_reply='-h --help' ;;
    'config trust') _esign_reply='-h --help' ;;
    'config untrust') _esign_reply='-h --help' ;;
    'config trusted') _esign_reply='-h --help' ;;
    'emulator') _esign_reply='--port --host --environment --key --print-env --state --processing-delay --max-document-bytes --no-anchor-search --anchor-time-limit --message-limit --envelope-quota --rate-limit --faults --webhook-retry-delays --signed-address-ttl --preload-drafts --preload-contacts --no-seed -h --help' ;;
    'emulator sign') _esign_reply='-h --help' ;;
    'emulator approve') _esign_reply='-h --help' ;;
    'emulator refuse') _esign_reply='--reason -h --help' ;;
    'envelopes') _esign_reply='-h --help' ;;
    'envelopes create') _esign_reply='--title --message --deadline --folder -h --help' ;;
    'envelopes get') _esign_reply='-h --help' ;;
    'envelopes list') _esign_reply='--status --folder --title --participant --created-after --created-before --limit --cursor --all --jsonl -h --help' ;;
    'envelopes find') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'envelopes settings') _esign_reply='--title --message --deadline --no-deadline -h --help' ;;
    'envelopes send') _esign_reply='--wait-timeout -h --help' ;;
    'envelopes wait') _esign_reply='--until --wait-timeout -h --help' ;;
    'envelopes history') _esign_reply='--utc --limit --cursor --all --jsonl -h --help' ;;
    'envelopes download') _esign_reply='-o --out --force --unsigned -h --help' ;;
    'envelopes move') _esign_reply='--folder -h --help' ;;
    'envelopes void') _esign_reply='--reason -h --help' ;;
    'envelopes delete') _esign_reply='-h --help' ;;
    'envelopes send-now') _esign_reply='-f --file --wait --wait-timeout --confirm-conversion --run-id -h --help' ;;
    'send') _esign_reply='--wait-timeout -h --help' ;;
    'participants') _esign_reply='-h --help' ;;
    'participants set') _esign_reply='-f --file --add --delivery --phone --role -h --help' ;;
    'participants list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'participants correct') _esign_reply='--name --email --phone --delivery-method -h --help' ;;
    'participants approve') _esign_reply='-h --help' ;;
    'participants refuse') _esign_reply='--reason -h --help' ;;
    'participants remind') _esign_reply='-h --help' ;;
    'templates') _esign_reply='-h --help' ;;
    'templates list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'templates get') _esign_reply='-h --help' ;;
    'templates use') _esign_reply='-p --participants --title --deadline --folder --send -h --help' ;;
    'documents') _esign_reply='-h --help' ;;
    'documents upload') _esign_reply='--no-wait --confirm-conversion --wait-timeout -h --help' ;;
    'documents list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'documents confirm-conversion') _esign_reply='-h --help' ;;
    'documents download-url') _esign_reply='-h --help' ;;
    'documents validate') _esign_reply='-h --help' ;;
    'fields') _esign_reply='-h --help' ;;
    'fields put') _esign_reply='-f --file -h --help' ;;
    'fields list') _esign_reply='-h --help' ;;
    'fields check') _esign_reply='--local -f --file --participants -h --help' ;;
    'fields preview') _esign_reply='--local -f --file -o --out --force -h --help' ;;
    'batch') _esign_reply='-h --help' ;;
    'batch validate') _esign_reply='-h --help' ;;
    'batch plan') _esign_reply='--shard --run-id -h --help' ;;
    'batch run') _esign_reply='-c --concurrency --journal --resume --report --shard --wait --wait-timeout --fail-fast --confirm-conversion --force --run-id --verbose -h --help' ;;
    'batch schema') _esign_reply='-h --help' ;;
    'batch convert-v2') _esign_reply='-o --out --force -h --help' ;;
    'anchors') _esign_reply='-h --help' ;;
    'anchors find') _esign_reply='--text --key --occurrence --case-sensitive --whole-word --offset -f --file --template --local -h --help' ;;
    'webhooks') _esign_reply='-h --help' ;;
    'webhooks create') _esign_reply='--url --events --inactive -h --help' ;;
    'webhooks list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'webhooks get') _esign_reply='-h --help' ;;
    'webhooks update') _esign_reply='--url --events --active --inactive -h --help' ;;
    'webhooks delete') _esign_reply='-h --help' ;;
    'webhooks deliveries') _esign_reply='--status --limit --cursor --all --jsonl -h --help' ;;
    'webhooks delivery') _esign_reply='-h --help' ;;
    'webhooks resend') _esign_reply='-h --help' ;;
    'webhooks rotate-secret') _esign_reply='-h --help' ;;
    'webhooks listen') _esign_reply='--port --endpoint --secret-stdin --secret --forward-to --events -h --help' ;;
    'contacts') _esign_reply='-h --help' ;;
    'contacts create') _esign_reply='--name --email --phone --company -h --help' ;;
    'contacts list') _esign_reply='--search --limit --cursor --all --jsonl -h --help' ;;
    'contacts get') _esign_reply='-h --help' ;;
    'contacts update') _esign_reply='--name --email --phone --company -h --help' ;;
    'contacts patch') _esign_reply='--name --email --phone --company --clear-phone --clear-company -h --help' ;;
    'contacts delete') _esign_reply='-h --help' ;;
    'contacts envelopes') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'contacts lists') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'contacts list-get') _esign_reply='-h --help' ;;
    'folders') _esign_reply='-h --help' ;;
    'folders list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'folders create') _esign_reply='--parent -h --help' ;;
    'folders contents') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'folders access') _esign_reply='-h --help' ;;
    'folders rename') _esign_reply='--name -h --help' ;;
    'folders move') _esign_reply='--parent --root -h --help' ;;
    'folders delete') _esign_reply='-h --help' ;;
    'team') _esign_reply='-h --help' ;;
    'team groups') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'team members') _esign_reply='--group --limit --cursor --all --jsonl -h --help' ;;
    'invites') _esign_reply='-h --help' ;;
    'invites list') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'account') _esign_reply='-h --help' ;;
    'account get') _esign_reply='-h --help' ;;
    'account capabilities') _esign_reply='-h --help' ;;
    'account catalog') _esign_reply='-h --help' ;;
    'account calls') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'reports') _esign_reply='-h --help' ;;
    'reports voided') _esign_reply='--limit --cursor --all --jsonl -h --help' ;;
    'reports envelope') _esign_reply='-h --help' ;;
    'reports usage') _esign_reply='--group --from --to -h --help' ;;
    'doctor') _esign_reply='-h --help' ;;
    'completion') _esign_reply='-h --help' ;;
    'api') _esign_reply='-f --raw-field -F --field --input -H --header --paginate --include --list --openapi -h --help' ;;
  esac
  _esign_reply="$_esign_reply -v --version --profile --live --json -q --quiet --debug --no-color --wide -y --yes --dry-run --timeout --idempotency-key"
}

# _esign_complete_value KIND: fills COMPREPLY for the word under the cursor ($cur).
_esign_complete_value() {
  local IFS=$'\n'
  case $1 in
    file)
      compopt -o filenames 2>/dev/null
      COMPREPLY+=($(compgen -f -- "$cur"))
      ;;
    profile) COMPREPLY+=($(compgen -W "$("${COMP_WORDS[0]}" __complete profiles 2>/dev/null)" -- "$cur")) ;;
    "words "*) COMPREPLY+=($(IFS=' '; compgen -W "${1#words }" -- "$cur")) ;;
    "list "*)
      local head="" last=$cur
      if [[ $cur == *,* ]]; then head="${cur%,*},"; last=${cur##*,}; fi
      COMPREPLY+=($(IFS=' '; compgen -P "$head" -W "${1#list }" -- "$last"))
      ;;
  esac
}

_esign() {
  local cur=${COMP_WORDS[COMP_CWORD]} _esign_reply _esign_at _esign_index _esign_expecting _esign_help
  COMPREPLY=()
  _esign_walk "${COMP_WORDS[@]:1:COMP_CWORD-1}"
  [[ $cur == "=" ]] && cur=""
  if [[ -n $_esign_help ]]; then
    if ((_esign_index == 0)) && [[ $cur != -* ]]; then
      _esign_subcommands "$_esign_at"
      COMPREPLY=($(compgen -W "${_esign_reply% help}" -- "$cur"))
    fi
    return 0
  fi
  if [[ -n $_esign_expecting ]]; then
    _esign_value "$_esign_at" "$_esign_expecting"
    _esign_complete_value "$_esign_reply"
    return 0
  fi
  if [[ $cur == -* ]]; then
    _esign_options "$_esign_at"
    COMPREPLY=($(compgen -W "$_esign_reply" -- "$cur"))
    return 0
  fi
  if ((_esign_index == 0)); then
    _esign_subcommands "$_esign_at"
    COMPREPLY=($(compgen -W "$_esign_reply" -- "$cur"))
  fi
  if _esign_argument "$_esign_at" "$_esign_index"; then
    _esign_complete_value "$_esign_reply"
  fi
  return 0
}

complete -F _esign esign
