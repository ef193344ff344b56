import { writeFile } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { placeFieldsFileLocally } from '../../workflows/preflight.js';

interface PreviewArgs {
  local?: string;
  file?: string;
  out?: string;
}

export default defineCommand<PreviewArgs>({
  name: 'preview',
  description: 'Write a copy of a local PDF with each field of a fields file drawn as a labelled box (offline)',
  options: [
    { flags: '--local <file.pdf>', description: 'the PDF the fields are for (required)' },
    { flags: '-f, --file <path>', description: 'fields.yaml or fields.json, as for `fields put`; - reads standard input' },
    { flags: '-o, --out <file.pdf>', description: 'where to write the preview (required)' },
  ],
  examples: ['esign fields preview --local contract.pdf --file fields.yaml --out preview.pdf'],
  async handler(args, ctx) {
    if (!args.local) throw new UsageError('--local is required.', 'Pass the PDF to draw on: --local contract.pdf.');
    if (!args.file) throw new UsageError('--file is required.', 'Give the fields file: --file fields.yaml.');
    if (!args.out) throw new UsageError('--out is required.', 'Say where to write the preview: --out preview.pdf.');
    const { bytes, placement } = await placeFieldsFileLocally(args.local, args.file, ctx.stdin);
    // pdf-lib is heavy: loaded only here.
    const { drawFieldPreview } = await import('../../pdf/preview.js');
    const drawn = await drawFieldPreview(bytes, placement.placed);
    try {
      await writeFile(args.out, drawn);
    } catch (error) {
      throw new UsageError(`Cannot write ${args.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`, 'Check that its folder exists and is writable.', 'OUTPUT_UNWRITABLE');
    }
    const pages = new Set(placement.placed.map((field) => field.page)).size;
    ctx.output.result({ out: args.out, fields: placement.placed.length, pages }, () => `Wrote ${args.out}: ${placement.placed.length} field box${placement.placed.length === 1 ? '' : 'es'} on ${pages} page${pages === 1 ? '' : 's'}.`);
  },
});
