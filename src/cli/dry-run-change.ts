import { DryRunComplete } from '../api/dry-run.js';
import type { Context } from './command.js';

/**
 * `--dry-run` for a change to local state (config.json, the keychain or credentials.json): as the API client does for
 * a request, it says what would change (a line on stderr; one JSON document on stdout with --json) and stops the
 * command, exit 0, with nothing changed. Called after every check of the input, so a mistake still fails as it would.
 */
export function stopIfDryRun(ctx: Context, change: string, files: readonly string[]): void {
  if (!ctx.globals.dryRun) return;
  if (ctx.output.json) ctx.output.result({ dryRun: true, change, files });
  else ctx.output.info(`Dry run: would ${change}. Nothing was changed.`);
  throw new DryRunComplete(`would ${change}`);
}
