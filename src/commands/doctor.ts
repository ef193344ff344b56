import { EsignError, type ErrorBody } from '../core/errors.js';
import { defineCommand } from '../cli/command.js';
import { visible } from '../output/sanitize.js';
import type { Check } from '../workflows/doctor.js';

/**
 * Some check failed: the exit code is the first failure's (2 set-up, 3 key refused, 7 host not answering). With --json
 * the report rides in the error's details, as every failure's does (stdout stays empty).
 */
class DoctorFailed extends EsignError {
  constructor(
    readonly failed: readonly Check[],
    readonly exitCode: number,
    readonly details?: { checks: readonly Check[] },
  ) {
    super(`${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((check) => check.name).join(', ')}.`);
    this.name = 'DoctorFailed';
    this.hint = 'Each failed line above says how to fix it; run `esign doctor` again after.';
  }
  get code(): string {
    return 'DOCTOR_CHECKS_FAILED';
  }
  override toJSON(): ErrorBody {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export default defineCommand({
  name: 'doctor',
  description:
    "Check the set-up, one line per check with a fix for each failure; exit 0 when all pass, else the first failure's code (2, 3 or 7)",
  examples: ['esign doctor', 'esign doctor --live --profile acme', 'esign doctor --json | jq ".checks[] | select(.ok | not)"'],
  reportsSetup: true,
  async handler(_args, ctx) {
    const { runDoctor } = await import('../workflows/doctor.js');
    const checks = await runDoctor({
      live: ctx.globals.live,
      ...(ctx.globals.profile ? { profileFlag: ctx.globals.profile } : {}),
      timeoutMs: ctx.globals.timeout * 1000,
      client: () => ctx.client(),
    });
    const failed = checks.filter((check) => !check.ok);
    const style = ctx.output.style;
    const width = Math.max(...checks.map((check) => check.name.length));
    if (failed.length > 0 && ctx.output.json) throw new DoctorFailed(failed, failed[0]!.exitCode ?? 2, { checks });
    ctx.output.result({ ok: failed.length === 0, checks }, () =>
      checks
        .map((check) =>
          check.ok
            ? `${style.green('✓')} ${check.name.padEnd(width)}  ${visible(check.detail)}`
            : `${style.red('✗')} ${check.name.padEnd(width)}  ${visible(check.detail)} ${style.bold('→ fix:')} ${visible(check.fix ?? '')}`,
        )
        .join('\n'),
    );
    if (failed.length > 0) throw new DoctorFailed(failed, failed[0]!.exitCode ?? 2);
  },
});
