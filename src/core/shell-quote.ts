/** A word as a POSIX shell reads it back: left bare when it holds only safe characters, else single-quoted. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
