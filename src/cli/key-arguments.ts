/* A key on the command line stays in shell history and in every process list: no argument may hold one. */
import { UsageError } from '../core/errors.js';
import { containsKeyShapedText } from '../auth/keys.js';
import { redactor } from '../output/redact.js';
import { invokedGroupCommand, isGroup, type Entry } from './command.js';

/** An option whose name says it carries a key, a token or a secret (`--test-key`, `--api-key`, `--token`). */
export function looksLikeKeyOption(name: string): boolean {
  return /^--?[\w-]*(key|token|secret)s?$/i.test(name) && name !== '--idempotency-key';
}

export const keyInputHint =
  'Keys are never command-line arguments: pipe the key to `esign profiles add <name> --test-key-stdin` (or --live-key-stdin), or set ESIGN_API_KEY for this shell.';

/**
 * The long flags that take a key on purpose (`OptionSpec.acceptsKey`) in the command the command line runs: of a group,
 * only the subcommand it names (or the group's own run), so `emulator sign --key …` is refused as `emulator --key` is not.
 */
export function keyOptionFlags(entries: readonly Entry[], argv: readonly string[]): Set<string> {
  const specs = entries.flatMap((entry) => {
    const command = isGroup(entry) ? invokedGroupCommand(argv, entry) : entry;
    return command ? [command] : [];
  });
  return new Set(specs.flatMap((spec) => (spec.options ?? []).filter((option) => option.acceptsKey).map((option) => /--[\w-]+/.exec(option.flags)![0])));
}

/**
 * Refuses a command line with key-shaped text in any argument (exit 2, before anything runs), naming where it was and
 * showing it masked. `whsec_` webhook secrets are not refused: `webhooks listen --secret` takes one on purpose.
 */
export function refuseKeyShapedArguments(argv: readonly string[], allowedOptions: ReadonlySet<string>): void {
  argv.forEach((token, index) => {
    if (!containsKeyShapedText(token)) return;
    const attached = /^(--?[\w-]+)=/.exec(token)?.[1];
    const previous = index > 0 && /^--?[\w-]+$/.test(argv[index - 1]!) ? argv[index - 1] : undefined;
    const option = attached ?? previous;
    if (option && allowedOptions.has(option)) return;
    const keyOption = attached ?? (previous && looksLikeKeyOption(previous) ? previous : undefined);
    const where = keyOption ? `The value of ${keyOption}` : `Argument ${index + 1}`;
    throw new UsageError(`${where} holds an API key (${redactor.mask(attached ? token.slice(attached.length + 1) : token)}); esign never takes a key as an argument.`, keyInputHint, 'KEY_IN_ARGUMENT');
  });
}
