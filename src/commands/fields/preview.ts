import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { openAtomic } from '../../files/atomic-file.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { placeFieldsFileLocally, refusedFields } from '../../workflows/preflight.js';

interface PreviewArgs {
  local?: string;
  file?: string;
  out?: string;
  force?: boolean;
}

export default defineCommand<PreviewArgs>({
  name: 'preview',
  description: 'Write a copy of a local PDF with each field of a fields file drawn as a labelled box (offline)',
  options: [
    { flags: '--local <file.pdf>', description: 'the PDF the fields are for (required)', completion: 'file' },
    { flags: '-f, --file <path>', description: 'fields.yaml or fields.json, as for `fields put`; - reads standard input', completion: 'file' },
    { flags: '-o, --out <file.pdf>', description: 'where to write the preview (required)', completion: 'file' },
    { flags: '--force', description: 'replace the --out file if it exists' },
  ],
  examples: ['esign fields preview --local contract.pdf --file fields.yaml --out preview.pdf'],
  async handler(args, ctx) {
    if (!args.local) throw new UsageError('--local is required.', 'Pass the PDF to draw on: --local contract.pdf.');
    if (!args.file) throw new UsageError('--file is required.', 'Give the fields file: --file fields.yaml.');
    if (!args.out) throw new UsageError('--out is required.', 'Say where to write the preview: --out preview.pdf.');
    // Checked before the work: an existing file needs --force, and the PDF or the fields file are never overwritten.
    const out = await openAtomic(args.out, {
      overwrite: args.force === true,
      inputs: [args.local, ...(args.file === '-' ? [] : [args.file])],
      label: `--out ${args.out}`,
    });
    try {
      const { bytes, placement, problems } = await placeFieldsFileLocally(args.local, args.file, ctx.stdin);
      if (problems.length > 0) throw refusedFields(problems, []);
      stopIfDryRun(ctx, `write ${args.out} with ${placement.placed.length} field box${placement.placed.length === 1 ? '' : 'es'}`, [args.out]);
      // pdf-lib is heavy: loaded only here.
      const { drawFieldPreview } = await import('../../pdf/preview.js');
      await out.write(await drawFieldPreview(bytes, placement.placed));
      await out.commit();
      const pages = new Set(placement.placed.map((field) => field.page)).size;
      ctx.output.result({ out: args.out, fields: placement.placed.length, pages }, () => `Wrote ${args.out}: ${placement.placed.length} field box${placement.placed.length === 1 ? '' : 'es'} on ${pages} page${pages === 1 ? '' : 's'}.`, () => [args.out!]);
    } catch (error) {
      await out.abort();
      throw error;
    }
  },
});
