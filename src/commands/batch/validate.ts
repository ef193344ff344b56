import { defineCommand } from '../../cli/command.js';
import { visible } from '../../output/sanitize.js';
import { findingLine } from '../../workflows/preflight.js';
import { runIdOf } from '../../input/run-id.js';

/** Refs named in the human summary of a valid batch. */
const REFS_NAMED = 20;

export default defineCommand<{ specs: string[] }>({
  name: 'validate',
  description: 'Check batch specs offline (schema, refs, files, field rules, anchors on the PDFs); exit 2 on any problem',
  arguments: [{ name: 'specs', description: 'batch files, YAML streams of envelope specs, or spec files (- reads standard input)', variadic: true, completion: 'file' }],
  examples: ['esign batch validate examples/batch/onboarding.yaml', 'esign batch validate specs/*.yaml --json'],
  async handler(args, ctx) {
    const { readBatch } = await import('../../batch/entries.js');
    const { checkBatch } = await import('../../batch/check.js');
    const checked = await checkBatch(await readBatch(args.specs, ctx.stdin));
    const envelopes = checked.map((item) => ({
      ref: item.entry.ref,
      via: item.entry.via,
      send: item.entry.send,
      ...(item.entry.row ? { row: item.entry.row } : {}),
      ...(item.kind === 'envelope'
        ? { documents: item.loaded.files.length, fields: item.loaded.spec.fields.length, warnings: item.warnings }
        : { templateId: item.template.templateId, warnings: [] }),
    }));
    for (const item of checked) if (item.kind === 'envelope') for (const warning of item.warnings) ctx.output.warn(visible(`${item.entry.ref}: ${findingLine(warning)}`));
    const { retryRiskLine, retryRisks } = await import('../../batch/retry-risks.js');
    const risks = retryRisks(checked, runIdOf(undefined));
    for (const risk of risks) ctx.output.warn(visible(retryRiskLine(risk, checked.length)));
    // A few refs are named; of a large batch, the first ones and how many more (--json lists them all).
    const named = envelopes.slice(0, REFS_NAMED).map((envelope) => visible(envelope.ref));
    const more = envelopes.length > REFS_NAMED ? ` and ${envelopes.length - REFS_NAMED} more` : '';
    ctx.output.result({ valid: true, envelopes, retryRisks: risks }, () => `${ctx.output.style.green('✓')} ${envelopes.length} envelope${envelopes.length === 1 ? '' : 's'} valid: ${named.join(', ')}${more}`);
  },
});
