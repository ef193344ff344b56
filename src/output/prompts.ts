import { UsageError } from '../core/errors.js';
import { InterruptedError } from '../core/interrupt.js';

export interface Choice<T> {
  name: string;
  value: T;
  disabled?: boolean | string;
  description?: string;
}

export interface Prompter {
  /** False without a terminal on both ends, or in CI: then every prompt fails with the flag to use instead. */
  readonly canAsk: boolean;
  confirm(message: string, instead: string, defaultValue?: boolean): Promise<boolean>;
  input(message: string, instead: string, options?: { validate?: (value: string) => true | string; defaultValue?: string }): Promise<string>;
  secret(message: string, instead: string, validate?: (value: string) => true | string): Promise<string>;
  select<T>(message: string, choices: readonly Choice<T>[], instead: string): Promise<T>;
}

export interface PrompterOptions {
  /**
   * Asked once, on the first question or `canAsk`: learning whether stdin is a terminal creates process.stdin, which a
   * command that asks nothing (most of them) should not pay for as it starts.
   */
  interactive: () => boolean;
  output?: NodeJS.WritableStream;
}

/** Ctrl-C in a prompt stops the command as Ctrl-C does anywhere (exit 130), with nothing done; never a crash. */
async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError' || (error as Error).name === 'AbortPromptError') {
      throw new InterruptedError('SIGINT', 'Stopped at the question by Ctrl-C; nothing was changed.');
    }
    throw error;
  }
}

export function createPrompter(options: PrompterOptions): Prompter {
  const refuse = (message: string, instead: string): never => {
    throw new UsageError(`Cannot ask "${message}" without an interactive terminal.`, `Pass ${instead}.`, 'PROMPT_UNAVAILABLE');
  };
  const context = options.output ? { output: options.output } : {};
  let interactive: boolean | undefined;
  const canAsk = () => (interactive ??= options.interactive());
  return {
    get canAsk() {
      return canAsk();
    },
    async confirm(message, instead, defaultValue = false) {
      if (!canAsk()) return refuse(message, instead);
      const { confirm } = await import('@inquirer/prompts');
      return guard(() => confirm({ message, default: defaultValue }, context));
    },
    async input(message, instead, inputOptions = {}) {
      if (!canAsk()) return refuse(message, instead);
      const { input } = await import('@inquirer/prompts');
      return guard(() =>
        input(
          {
            message,
            ...(inputOptions.defaultValue === undefined ? {} : { default: inputOptions.defaultValue }),
            ...(inputOptions.validate ? { validate: inputOptions.validate } : {}),
          },
          context,
        ),
      );
    },
    async secret(message, instead, validate) {
      if (!canAsk()) return refuse(message, instead);
      const { password } = await import('@inquirer/prompts');
      return guard(() => password({ message, mask: '*', ...(validate ? { validate } : {}) }, context));
    },
    async select(message, choices, instead) {
      if (!canAsk()) return refuse(message, instead);
      const { select } = await import('@inquirer/prompts');
      return guard(() => select({ message, choices: choices.map((choice) => ({ ...choice })) }, context));
    },
  };
}
