/*
 * The shell completion scripts in completions/, written from the command tree by `npm run completions`. All three
 * shells walk the command line the same way: words naming a subcommand descend the tree until the first positional
 * argument, an option that takes a value consumes the next word, and the word under the cursor is then an option, an
 * option's value, a subcommand or a positional argument. Profile names come from `esign __complete profiles`, which
 * reads the local config file and never the network.
 */
import type { Completion, OptionSpec } from '../cli/command.js';
import { helpOption, parseFlags, valueCompletion, walk, type CommandNode } from './tree.js';

type ValueKind = Completion | 'any';

const header = (comment: string) =>
  [
    `${comment} Shell completion for esign, generated from the command tree by \`npm run completions\`: do not edit.`,
    `${comment} Profile names come from \`esign __complete profiles\` (the local config file, never the network).`,
  ].join('\n');

/** Everything in a script comes from our own command specs; this keeps them to words no shell reads specially. */
function word(text: string): string {
  if (!/^[\w.:/@+-]+$/.test(text)) throw new Error(`"${text}" cannot go into a completion script unquoted.`);
  return text;
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const keyOf = (node: CommandNode) => node.path.join(' ');
const namesOf = (node: CommandNode) => [node.path[node.path.length - 1]!, ...node.aliases];
const optionNames = (option: OptionSpec) => {
  const { short, long } = parseFlags(option.flags);
  return short ? [short, long] : [long];
};
const HELP_DESCRIPTION = 'Show the help of a command (esign help envelopes list)';
/** `esign help <command…>` shows that command's help: offered with the top-level commands, followed by command names only. */
const helpCommandOf = (node: CommandNode) => (node.path.length === 0 ? ['help'] : []);

/** esign's own options are global: every command takes them, so they are offered everywhere. */
const ownOptions = (node: CommandNode) => (node.path.length ? [...node.options, helpOption] : [helpOption]);

function kindWord(kind: ValueKind): string {
  if (typeof kind === 'string') return kind;
  return `${kind.list ? 'list' : 'words'} ${kind.words.map(word).join(' ')}`;
}

/** The argument at `index` (variadic: that one and every later one), as a case pattern on "<command> <index>". */
function argumentPattern(node: CommandNode, index: number, variadic: boolean): string {
  const at = `${keyOf(node)} ${index}`;
  if (!variadic) return `"${at}"`;
  if (index === 0) return `"${keyOf(node)} "*`;
  if (index === 1) return `"${keyOf(node)} "[1-9]*`;
  throw new Error(`${keyOf(node)}: a variadic argument after the second is not supported by the completion scripts.`);
}

/**
 * The shell functions bash and zsh share (their `case` syntax is the same): each sets `_esign_reply` for the walk.
 */
function sharedFunctions(root: CommandNode): string {
  const nodes = walk(root);
  const commandCases = nodes.flatMap((node) =>
    node.subcommands.map((sub) => `    ${namesOf(sub).map((name) => `"${keyOf(node)} ${word(name)}"`).join('|')}) _esign_reply=${singleQuoted(keyOf(sub))} ;;`),
  );
  const globalValues = root.options.flatMap((option) => {
    const kind = valueCompletion(option);
    return kind ? [`    ${optionNames(option).join('|')}) _esign_reply=${singleQuoted(kindWord(kind))}; return 0 ;;`] : [];
  });
  const valueCases = nodes.flatMap((node) =>
    ownOptions(node).flatMap((option) => {
      const kind = valueCompletion(option);
      return kind ? [`    ${optionNames(option).map((name) => `"${keyOf(node)} ${name}"`).join('|')}) _esign_reply=${singleQuoted(kindWord(kind))} ;;`] : [];
    }),
  );
  const argumentCases = nodes.flatMap((node) =>
    node.arguments.flatMap((argument, index) =>
      argument.completion ? [`    ${argumentPattern(node, index, argument.variadic === true)}) _esign_reply=${singleQuoted(kindWord(argument.completion))} ;;`] : [],
    ),
  );
  return `# _esign_command COMMAND WORD: the command WORD names under COMMAND ("" for esign itself), if any.
_esign_command() {
  case "$1 $2" in
${commandCases.join('\n')}
    *) return 1 ;;
  esac
}

# _esign_value COMMAND OPTION: what the option's value completes to (file, profile, any, words …, list …); fails for
# an option that takes no value.
_esign_value() {
  case "$2" in
${globalValues.join('\n')}
  esac
  case "$1 $2" in
${valueCases.join('\n')}
    *) return 1 ;;
  esac
}

# _esign_argument COMMAND INDEX: what the command's positional argument at INDEX (from 0) completes to, if anything.
_esign_argument() {
  case "$1 $2" in
${argumentCases.join('\n')}
    *) return 1 ;;
  esac
}

# _esign_walk WORD…: the words before the cursor (the command name excluded) set _esign_at (the command),
# _esign_index (positional arguments seen), _esign_expecting (an option whose value is under the cursor) and
# _esign_help (\`esign help …\`: only command names follow).
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
}`;
}

export function bashCompletion(root: CommandNode): string {
  const nodes = walk(root);
  const globalNames = root.options.flatMap(optionNames);
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length)
    .map((node) => `    ${singleQuoted(keyOf(node))}) _esign_reply=${singleQuoted([...node.subcommands.flatMap(namesOf), ...helpCommandOf(node)].map(word).join(' '))} ;;`);
  const optionCases = nodes.map((node) => `    ${singleQuoted(keyOf(node))}) _esign_reply=${singleQuoted(ownOptions(node).flatMap(optionNames).join(' '))} ;;`);
  return `${header('#')}
# Install: source it from ~/.bashrc, or copy it to a bash-completion directory (/usr/share/bash-completion/completions
# or \${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions) as \`esign\`.

${sharedFunctions(root)}

# _esign_subcommands COMMAND: its subcommands and their aliases.
_esign_subcommands() {
  case "$1" in
${subcommandCases.join('\n')}
    *) _esign_reply="" ;;
  esac
}

# _esign_options COMMAND: the options it takes, esign's own included.
_esign_options() {
  case "$1" in
${optionCases.join('\n')}
  esac
  _esign_reply="$_esign_reply ${globalNames.join(' ')}"
}

# _esign_complete_value KIND: fills COMPREPLY for the word under the cursor ($cur).
_esign_complete_value() {
  local IFS=$'\\n'
  case $1 in
    file)
      compopt -o filenames 2>/dev/null
      COMPREPLY+=($(compgen -f -- "$cur"))
      ;;
    profile) COMPREPLY+=($(compgen -W "$("\${COMP_WORDS[0]}" __complete profiles 2>/dev/null)" -- "$cur")) ;;
    "words "*) COMPREPLY+=($(IFS=' '; compgen -W "\${1#words }" -- "$cur")) ;;
    "list "*)
      local head="" last=$cur
      if [[ $cur == *,* ]]; then head="\${cur%,*},"; last=\${cur##*,}; fi
      COMPREPLY+=($(IFS=' '; compgen -P "$head" -W "\${1#list }" -- "$last"))
      ;;
  esac
}

_esign() {
  local cur=\${COMP_WORDS[COMP_CWORD]} _esign_reply _esign_at _esign_index _esign_expecting _esign_help
  COMPREPLY=()
  _esign_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  [[ $cur == "=" ]] && cur=""
  if [[ -n $_esign_help ]]; then
    if ((_esign_index == 0)) && [[ $cur != -* ]]; then
      _esign_subcommands "$_esign_at"
      COMPREPLY=($(compgen -W "\${_esign_reply% help}" -- "$cur"))
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
`;
}

function describedList(items: readonly (readonly [string, string])[]): string {
  return items.map(([name, description]) => singleQuoted(`${name.replace(/:/g, '\\:')}:${description}`)).join(' ');
}

export function zshCompletion(root: CommandNode): string {
  const nodes = walk(root);
  const describedOptions = (options: readonly OptionSpec[]) => options.flatMap((option) => optionNames(option).map((name) => [name, option.description] as const));
  const subcommandCases = nodes
    .filter((node) => node.subcommands.length)
    .map(
      (node) =>
        `    ${singleQuoted(keyOf(node))}) reply=(${describedList([
          ...node.subcommands.flatMap((sub) => namesOf(sub).map((name) => [word(name), sub.description] as const)),
          ...helpCommandOf(node).map((name) => [name, HELP_DESCRIPTION] as const),
        ])}) ;;`,
    );
  const optionCases = nodes.map((node) => `    ${singleQuoted(keyOf(node))}) reply=(${describedList(describedOptions(ownOptions(node)))}) ;;`);
  return `#compdef esign
${header('#')}
# Install: put this file, named _esign, in a directory on $fpath (for example /usr/local/share/zsh/site-functions or
# ~/.zfunc with \`fpath=(~/.zfunc $fpath)\` before \`compinit\` in ~/.zshrc); or \`source <(esign completion zsh)\`.

${sharedFunctions(root)}

# _esign_subcommands COMMAND: sets reply to its subcommands and aliases, as name:description.
_esign_subcommands() {
  reply=()
  case "$1" in
${subcommandCases.join('\n')}
  esac
}

# _esign_options COMMAND: sets reply to the options it takes, esign's own included, as name:description.
_esign_options() {
  reply=()
  case "$1" in
${optionCases.join('\n')}
  esac
  reply+=(${describedList(describedOptions(root.options))})
}

# _esign_complete_value KIND: offers the values of that kind for the word under the cursor.
_esign_complete_value() {
  case $1 in
    file) _files ;;
    profile)
      local -a profiles
      profiles=(\${(f)"$("\${words[1]}" __complete profiles 2>/dev/null)"})
      compadd -a profiles
      ;;
    "words "*) compadd -- \${=\${1#words }} ;;
    "list "*) _values -s , value \${=\${1#list }} ;;
    *) _message value ;;
  esac
}

_esign() {
  local _esign_reply _esign_at _esign_index _esign_expecting _esign_help
  local -a reply
  _esign_walk "\${(@)words[2,CURRENT-1]}"
  if [[ -n $_esign_help ]]; then
    if ((_esign_index == 0)) && [[ \${words[CURRENT]} != -* ]]; then
      _esign_subcommands "$_esign_at"
      reply=(\${reply:#help:*})
      ((\${#reply})) && _describe -t commands command reply
    fi
    return
  fi
  if [[ -n $_esign_expecting ]]; then
    _esign_value "$_esign_at" "$_esign_expecting"
    _esign_complete_value "$_esign_reply"
    return
  fi
  # --option=value in one word: the value after the = completes as the option's value.
  if [[ \${words[CURRENT]} == -*=* ]]; then
    _esign_value "$_esign_at" "\${words[CURRENT]%%=*}" || return
    compset -P '*='
    _esign_complete_value "$_esign_reply"
    return
  fi
  if [[ \${words[CURRENT]} == -* ]]; then
    _esign_options "$_esign_at"
    _describe -t options option reply
    return
  fi
  if ((_esign_index == 0)); then
    _esign_subcommands "$_esign_at"
    ((\${#reply})) && _describe -t commands command reply
  fi
  if _esign_argument "$_esign_at" "$_esign_index"; then
    _esign_complete_value "$_esign_reply"
  fi
}

if [[ $funcstack[1] == _esign ]]; then
  _esign "$@"
else
  compdef _esign esign
fi
`;
}

export function fishCompletion(root: CommandNode): string {
  const nodes = walk(root);
  const fishKey = (node: CommandNode) => `esign${node.path.map((part) => ` ${part}`).join('')}`;
  const commandCases = nodes.flatMap((node) =>
    node.subcommands.map((sub) => `        case ${namesOf(sub).map((name) => singleQuoted(`${fishKey(node)} ${word(name)}`)).join(' ')}\n            echo ${singleQuoted(fishKey(sub))}`),
  );
  const valueCases: string[] = [];
  const lists = new Map<string, string>();
  const listFunction = (words: readonly string[]) => {
    const key = words.map(word).join(' ');
    if (!lists.has(key)) lists.set(key, `__esign_list_${lists.size + 1}`);
    return lists.get(key)!;
  };
  const optionLines: string[] = [];
  const optionLine = (condition: string, option: OptionSpec) => {
    const { short, long } = parseFlags(option.flags);
    const kind = valueCompletion(option);
    const value =
      kind === undefined
        ? ''
        : kind === 'file'
          ? ' -r -F'
          : kind === 'profile'
            ? " -x -a '(__esign_profiles)'"
            : kind === 'any'
              ? ' -x'
              : kind.list
                ? ` -x -a '(__fish_complete_list , ${listFunction(kind.words)})'`
                : ` -x -a ${singleQuoted(kind.words.map(word).join(' '))}`;
    return `complete -c esign${condition} ${short ? `-s ${short.slice(1)} ` : ''}-l ${long.slice(2)} -d ${singleQuoted(option.description)}${value}`;
  };
  for (const option of root.options) {
    optionLines.push(optionLine(` -n ${singleQuoted('not __esign_helping')}`, option));
    if (valueCompletion(option)) valueCases.push(`        case ${optionNames(option).map((name) => singleQuoted(`* ${name}`)).join(' ')}\n            return 0`);
  }
  for (const node of nodes) {
    const condition = ` -n ${singleQuoted(`__esign_in ${singleQuoted(fishKey(node))}`)}`;
    for (const option of ownOptions(node)) {
      optionLines.push(optionLine(condition, option));
      if (valueCompletion(option)) valueCases.push(`        case ${optionNames(option).map((name) => singleQuoted(`${fishKey(node)} ${name}`)).join(' ')}\n            return 0`);
    }
    for (const sub of node.subcommands) {
      for (const name of namesOf(sub)) {
        optionLines.push(`complete -c esign -n ${singleQuoted(`__esign_at ${singleQuoted(fishKey(node))} 0`)} -a ${word(name)} -d ${singleQuoted(sub.description)}`);
      }
    }
    for (const name of helpCommandOf(node)) {
      optionLines.push(`complete -c esign -n ${singleQuoted(`__esign_at ${singleQuoted(fishKey(node))} 0; and not __esign_helping`)} -a ${name} -d ${singleQuoted(HELP_DESCRIPTION)}`);
    }
    node.arguments.forEach((argument, index) => {
      if (!argument.completion) return;
      const at = `__esign_at ${singleQuoted(fishKey(node))} ${index}${argument.variadic ? ' +' : ''}; and not __esign_helping`;
      const kind = argument.completion;
      const values = kind === 'file' ? '-F' : kind === 'profile' ? "-a '(__esign_profiles)'" : `-a ${singleQuoted(kind.words.map(word).join(' '))}`;
      optionLines.push(`complete -c esign -n ${singleQuoted(at)} ${values}`);
    });
  }
  const listFunctions = [...lists].map(([words, name]) => `function ${name}\n    printf '%s\\n' ${words}\nend`);
  return `${header('#')}
# Install: copy it to ~/.config/fish/completions/esign.fish (or a directory on $fish_complete_path).

# __esign_command COMMAND WORD: the command WORD names under COMMAND, if any.
function __esign_command
    switch "$argv[1] $argv[2]"
${commandCases.join('\n')}
        case '*'
            return 1
    end
end

# __esign_takes_value COMMAND OPTION: succeeds when the option takes a value.
function __esign_takes_value
    switch "$argv[1] $argv[2]"
${valueCases.join('\n')}
    end
    return 1
end

# __esign_state: the command the words before the cursor name, the positional arguments seen, whether an option
# waits for its value, and whether the line is \`esign help …\` (only command names follow), one per line.
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
    printf '%s\\n' $command $index $expecting $help
end

# __esign_in COMMAND: the cursor is in that command's options (none after \`esign help\`).
function __esign_in
    set -l state (__esign_state)
    test "$state[1]" = "$argv[1]"; and test "$state[4]" = 0
end

# __esign_helping: the line is \`esign help …\`.
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

${listFunctions.join('\n\n')}

complete -c esign -f
${optionLines.join('\n')}
`;
}

export const completionFiles = {
  'completions/esign.bash': bashCompletion,
  'completions/_esign': zshCompletion,
  'completions/esign.fish': fishCompletion,
} as const;
