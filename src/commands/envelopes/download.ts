import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { absoluteTime } from '../../output/envelope-view.js';
import { renderFields } from '../../output/table.js';

interface DownloadAddress {
  url?: string;
  downloadUrl?: string;
  expiresAt?: string;
}

export default defineCommand<{ envelopeId: string; out?: string }>({
  name: 'download',
  description: 'Get the ZIP of an envelope: its signed address, or the file itself with --out',
  arguments: [{ name: 'envelopeId', description: 'envelope id' }],
  options: [{ flags: '-o, --out <file>', description: 'save the ZIP to this file (- for stdout is not supported: it is binary)' }],
  examples: ['esign envelopes download 3f6c… --out nda.zip', 'esign env download 3f6c… --json | jq -r .url'],
  async handler(args, ctx) {
    if (args.out === '-') throw new UsageError('--out - is not supported.', 'Give a file name, e.g. --out envelope.zip.');
    const client = await ctx.client();
    const { body } = await client.call<DownloadAddress>('getEnvelopeDownload', { params: { envelopeId: args.envelopeId } });
    const url = body.url ?? body.downloadUrl;
    if (!url) throw new UsageError('The download answer carries no address.', 'Run again with --debug to see the answer.', 'DOWNLOAD_ADDRESS_MISSING');
    if (!args.out) {
      ctx.output.result(body, () => renderFields([['URL', url], ['Expires', body.expiresAt ? absoluteTime(body.expiresAt) : '-']]));
      return;
    }
    // Written beside the target and renamed once complete, so a failed download never leaves a truncated ZIP.
    const partial = `${args.out}.part`;
    let bytes: number;
    try {
      bytes = await client.download(url, createWriteStream(partial));
      await rename(partial, args.out);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    ctx.output.result({ envelopeId: args.envelopeId, file: args.out, bytes }, () => `Saved ${args.out} (${bytes} bytes).`);
  },
});
