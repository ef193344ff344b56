import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ legacy: string; out?: string; force?: boolean }>({
  name: 'convert-v2',
  description: 'Turn a legacy POST /v2/envelopes/ body into a v4 envelope spec (YAML), listing what has no v4 counterpart',
  arguments: [{ name: 'legacy', description: 'the legacy create body (JSON or YAML; - reads standard input)', completion: 'file' }],
  options: [
    { flags: '-o, --out <file>', description: 'write the spec to this file instead of standard output', completion: 'file' },
    { flags: '--force', description: 'replace --out if it exists' },
  ],
  examples: ['esign batch convert-v2 legacy-create.json > envelope.yaml', 'esign batch convert-v2 legacy-create.json --out specs/acme.yaml && esign batch validate specs/acme.yaml'],
  async handler(args, ctx) {
    const { readStructuredFile } = await import('../../input/structured.js');
    const { conversionYaml, convertLegacyCreate } = await import('../../batch/convert-v2.js');
    const conversion = await convertLegacyCreate(await readStructuredFile(args.legacy, ctx.stdin));
    const yaml = await conversionYaml(conversion, args.legacy === '-' ? '(standard input)' : args.legacy);
    if (!ctx.output.json) {
      for (const item of conversion.notConverted) ctx.output.warn(visible(`not converted: ${item.path}: ${item.reason}`));
      for (const note of conversion.notes) ctx.output.info(visible(`note: ${note}`));
    }
    if (args.out) {
      const { openAtomic } = await import('../../files/atomic-file.js');
      const file = await openAtomic(args.out, { overwrite: args.force === true, inputs: args.legacy === '-' ? [] : [args.legacy], label: `--out ${args.out}` });
      try {
        stopIfDryRun(ctx, `write the envelope spec to ${args.out}`, [args.out]);
        await file.write(yaml);
        await file.commit();
      } catch (error) {
        await file.abort();
        throw error;
      }
      ctx.output.result({ out: args.out, ...conversion }, () => `Wrote ${args.out}; check it with: esign batch validate ${args.out}`);
      return;
    }
    ctx.output.result(conversion, () => yaml);
  },
});
