import { defineCommand } from '../../cli/command.js';
import { renderDocuments } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { readDocumentInfo } from '../../workflows/upload.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; documentId: string }>({
  name: 'confirm-conversion',
  description: 'Accept the PDF converted from a .docx, so the envelope can be sent',
  arguments: [
    envelopeIdArgument,
    { name: 'documentId', description: 'id of the converted document' },
  ],
  examples: ['esign documents confirm-conversion 3f6c… 9a1b…'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call('confirmConversion', { params: { envelopeId: args.envelopeId, documentId: args.documentId }, body: {} });
    const document = readDocumentInfo(body);
    ctx.output.success(`Conversion of ${visible(document.fileName || args.documentId)} confirmed.`);
    ctx.output.result(body ?? {}, () => renderDocuments([{ ...document, documentId: document.documentId || args.documentId }], ctx.output.style));
  },
});
