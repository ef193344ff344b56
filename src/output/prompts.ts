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
  interactive: boolean;
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
  return {
    canAsk: options.interactive,
    async confirm(message, instead, defaultValue = false) {
      if (!options.interactive) return refuse(message, instead);
      const { confirm } = await import('@inquirer/prompts');
      return guard(() => confirm({ message, default: defaultValue }, context));
    },
    async input(message, instead, inputOptions = {}) {
      if (!options.interactive) return refuse(message, instead);
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
      if (!options.interactive) return refuse(message, instead);
      const { password } = await import('@inquirer/prompts');
      return guard(() => password({ message, mask: '*', ...(validate ? { validate } : {}) }, context));
    },
    async select(message, choices, instead) {
      if (!options.interactive) return refuse(message, instead);
      const { select } = await import('@inquirer/prompts');
      return guard(() => select({ message, choices: choices.map((choice) => ({ ...choice })) }, context));
    },
  };
}
