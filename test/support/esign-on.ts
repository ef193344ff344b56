import { parseJson, runEsign, type RunOptions, type RunResult } from './cli.js';
import type { EmulatorProcess } from './emulator.js';

export interface EsignOn {
  /** Runs the binary against the emulator with its key. */
  run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Runs with `--json`, fails on a non-zero exit, and answers the parsed stdout. */
  json<T = any>(args: readonly string[], options?: RunOptions): Promise<T>;
}

/** `esign` bound to an emulator (a `useEmulator` handle is read when a command runs). */
export function esignOn(emulator: EmulatorProcess): EsignOn {
  const run = (args: readonly string[], options: RunOptions = {}) => runEsign(args, { ...options, env: { ...emulator.env, ...options.env } });
  return {
    run,
    async json(args, options) {
      const result = await run(['--json', ...args], options);
      if (result.code !== 0) throw new Error(`esign ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return parseJson(result.stdout);
    },
  };
}
