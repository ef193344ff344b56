import type { FieldAnswer } from '../../api/answers.js';
import { defineCommand } from '../../cli/command.js';
import { renderTable } from '../../output/table.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { identityOf } from '../../output/identity.js';

export default defineCommand<{ envelopeId: string; documentId: string }>({
  name: 'list',
  aliases: ['ls'],
  description: "List a document's fields with their resolved positions (anchors already turned into coordinates)",
  arguments: [
    envelopeIdArgument,
    { name: 'documentId', description: 'document id' },
  ],
  examples: ['esign fields list 3f6c… 9a1b…', 'esign fields list 3f6c… 9a1b… --json > fields.json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call<{ fields: FieldAnswer[] }>('listFields', { params: { envelopeId: args.envelopeId, documentId: args.documentId } });
    const { fields } = body;
    ctx.output.result(body, () =>
      fields.length === 0
        ? 'No fields.'
        : renderTable(
            fields,
            [
              { header: 'ID', value: (field) => field.id ?? '?' },
              { header: 'TYPE', value: (field) => field.type ?? '?' },
              { header: 'PARTICIPANT', value: (field) => field.participantId ?? '?' },
              { header: 'PAGES', value: (field) => field.pages?.join(',') ?? '-' },
              { header: 'X,Y', value: (field) => `${field.position?.x ?? '?'},${field.position?.y ?? '?'}` },
              { header: 'SIZE', value: (field) => `${field.size?.width ?? '?'}×${field.size?.height ?? '?'}` },
            ],
            ctx.output.style,
          ),
      () => identityOf(fields),
    );
  },
});
