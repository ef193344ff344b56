/**
 * Enough of the shell's grammar to find the commands a documented command line runs: words with their quotes removed,
 * split at `|`, `&&`, `||`, `;` and `&`, redirections and comments dropped, and each `$(…)` read as commands of its
 * own (its place in the outer command keeps its source text). Variables are left as written.
 */
export function shellCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let redirect = false;
  const endWord = () => {
    if (word === undefined) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  /** `$(` at `start`: its commands are collected, and the index after the closing `)` is returned. */
  const substitution = (start: number): number => {
    let depth = 1;
    let index = start + 2;
    let quote: string | undefined;
    for (; index < line.length && depth > 0; index++) {
      const char = line[index]!;
      if (quote) {
        if (char === quote) quote = undefined;
      } else if (char === "'" || char === '"') quote = char;
      else if (char === '(') depth++;
      else if (char === ')') depth--;
    }
    commands.push(...shellCommands(line.slice(start + 2, index - 1)));
    return index;
  };
  for (let index = 0; index < line.length; ) {
    const char = line[index]!;
    if (char === '\\') {
      word = (word ?? '') + (line[index + 1] ?? '');
      index += 2;
    } else if (char === "'") {
      const end = line.indexOf("'", index + 1);
      word = (word ?? '') + line.slice(index + 1, end);
      index = end + 1;
    } else if (char === '"') {
      let text = '';
      index++;
      while (index < line.length && line[index] !== '"') {
        if (line[index] === '\\') {
          text += line[index + 1];
          index += 2;
        } else if (line.startsWith('$(', index)) {
          const end = substitution(index);
          text += line.slice(index, end);
          index = end;
        } else text += line[index++];
      }
      word = (word ?? '') + text;
      index++;
    } else if (line.startsWith('$(', index)) {
      const end = substitution(index);
      word = (word ?? '') + line.slice(index, end);
      index = end;
    } else if (/\s/.test(char)) {
      endWord();
      index++;
    } else if (char === '#' && word === undefined) {
      break;
    } else if ('|&;'.includes(char)) {
      endCommand();
      index += line[index + 1] === char ? 2 : 1;
    } else if (char === '>' || char === '<') {
      if (word !== undefined && /^\d$/.test(word)) word = undefined;
      endWord();
      redirect = true;
      index += line[index + 1] === '>' ? 2 : 1;
    } else {
      word = (word ?? '') + char;
      index++;
    }
  }
  endCommand();
  return commands;
}

/** The argument lists (after `esign`) of every esign command a line runs. */
export function esignInvocations(line: string): string[][] {
  return shellCommands(line)
    .filter((words) => words[0] === 'esign')
    .map((words) => words.slice(1));
}
