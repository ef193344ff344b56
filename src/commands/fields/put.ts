import { ApiError, UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { fieldIdFor, readFieldsFile, withIds, type FieldsFile } from '../../input/fields.js';
import { envelopeIdArgument, envelopeIdDescription } from '../../workflows/envelope-id.js';
import { whileDocumentProcesses } from '../../workflows/upload.js';
import { visible } from '../../output/sanitize.js';

interface PutArgs {
  envelopeId: string;
  documentId: string;
  file?: string;
}

interface PutResult {
  created?: number;
  updated?: number;
  deleted?: number;
}

/** Ids the service names in an error (a missing anchor, a box off the page), each with its place in the file. */
function locateFieldsInError(error: ApiError, file: FieldsFile, ids: readonly string[]): string | undefined {
  const details = (error.details ?? {}) as { fieldId?: unknown; anchors?: ({ fieldId?: unknown } | null)[] };
  const named = [details.fieldId, ...(Array.isArray(details.anchors) ? details.anchors.map((anchor) => anchor?.fieldId) : [])];
  const places = named.flatMap((id) => {
    const index = typeof id === 'string' ? ids.indexOf(id) : -1;
    return index === -1 ? [] : [`${file.input.locate(file.pathOf(index))} (field ${id})`];
  });
  return places.length ? `In ${file.input.name}: ${places.join('; ')}.` : undefined;
}

export default defineCommand<PutArgs>({
  name: 'put',
  description: "Replace a document's fields with the ones in a YAML or JSON file (ids left out are derived, so a re-run updates)",
  arguments: [
    { ...envelopeIdArgument, description: `draft ${envelopeIdDescription}` },
    { name: 'documentId', description: 'document id' },
  ],
  options: [{ flags: '-f, --file <path>', description: 'fields.yaml or fields.json (a `fields` list); - reads standard input', completion: 'file' }],
  examples: [
    'esign fields put 3f6c… 9a1b… --file fields.yaml',
    'esign fields check --local contract.pdf --file fields.yaml && esign fields put 3f6c… 9a1b… -f fields.yaml',
    'echo "fields: []" | esign fields put 3f6c… 9a1b… --file -   # remove every field',
  ],
  async handler(args, ctx) {
    if (!args.file) throw new UsageError('--file is required.', 'Give the fields file: --file fields.yaml (or - for standard input).');
    const file = await readFieldsFile(args.file, ctx.stdin);
    const fields = withIds(file.fields, (index) => fieldIdFor(args.envelopeId, args.documentId, index));
    const client = await ctx.client();
    const processing = whileDocumentProcesses(ctx, args.envelopeId);
    let body: PutResult;
    try {
      ({ body } = await client.call<PutResult>('putFields', {
        params: { envelopeId: args.envelopeId, documentId: args.documentId },
        body: { fields },
        ...processing.options,
      }));
    } catch (error) {
      processing.explain(error);
      if (error instanceof ApiError) {
        const located = locateFieldsInError(error, file, fields.map((field) => field.id));
        if (located) error.hint = located;
      }
      throw error;
    }
    ctx.output.result(
      body,
      () => visible(`created ${body.created ?? 0}, updated ${body.updated ?? 0}, deleted ${body.deleted ?? 0}`),
      () => fields.map((field) => field.id),
    );
  },
});
