import { defineCommand } from '../../cli/command.js';
import { visible } from '../../output/sanitize.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

interface DownloadAddress {
  url?: string | null;
  downloadUrl?: string | null;
  expiresAt?: string | null;
}

export default defineCommand<{ envelopeId: string; documentId: string }>({
  name: 'download-url',
  description: 'Print a short-lived download address of a document (no key needed to fetch it)',
  arguments: [
    envelopeIdArgument,
    { name: 'documentId', description: 'document id' },
  ],
  examples: ['curl -o contract.pdf "$(esign documents download-url 3f6c… 9a1b…)"'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call<DownloadAddress>('getDocumentDownloadUrl', { params: { envelopeId: args.envelopeId, documentId: args.documentId } });
    // The address alone on stdout, so `$(esign documents download-url …)` is the URL.
    ctx.output.result(body, () => visible(body.url ?? body.downloadUrl ?? ''));
    if (body.expiresAt) ctx.output.info(`Valid until ${visible(body.expiresAt)}.`);
  },
});
