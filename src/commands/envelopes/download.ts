import { ApiError, NetworkError, UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { InterruptedError } from '../../core/interrupt.js';
import { openAtomic } from '../../files/atomic-file.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { absoluteTime } from '../../output/envelope-view.js';
import { visible } from '../../output/sanitize.js';
import { renderFields } from '../../output/table.js';
import { readFileHead } from '../../shared/file-head.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

interface DownloadAddress {
  url?: string;
  downloadUrl?: string;
  expiresAt?: string;
}

export default defineCommand<{ envelopeId: string; out?: string; force?: boolean }>({
  name: 'download',
  description: 'Get the ZIP of an envelope: its signed address, or the file itself with --out',
  arguments: [envelopeIdArgument],
  options: [
    { flags: '-o, --out <file>', description: 'save the ZIP to this file (- for stdout is not supported: it is binary)', completion: 'file' },
    { flags: '--force', description: 'replace the --out file if it exists' },
  ],
  examples: ['esign envelopes download 3f6c… --out nda.zip', 'esign env download 3f6c… --json | jq -r .url'],
  async handler(args, ctx) {
    if (args.force && !args.out) throw new UsageError('--force only applies to --out.', 'Add --out <file>, or leave out --force.');
    // The target is checked (and its temporary file opened) before anything is asked of the service.
    const file = args.out ? await openAtomic(args.out, { overwrite: args.force === true, label: `--out ${args.out}` }) : undefined;
    let bytes: number;
    try {
      if (args.out) stopIfDryRun(ctx, `download the ZIP of envelope ${args.envelopeId} and save it to ${args.out}`, [args.out]);
      const client = await ctx.client();
      const { body } = await client.call<DownloadAddress>('getEnvelopeDownload', { params: { envelopeId: args.envelopeId } });
      const url = body.url ?? body.downloadUrl;
      if (!url) throw new UsageError('The download answer carries no address.', 'Run again with --debug to see the answer.', 'DOWNLOAD_ADDRESS_MISSING');
      if (!file) {
        ctx.output.result(body, () => renderFields([['URL', url], ['Expires', body.expiresAt ? absoluteTime(body.expiresAt) : '-']]));
        return;
      }
      bytes = await client.download(url, file.stream());
      // A ZIP is never empty (its directory alone takes 22 bytes): an empty answer is not the envelope.
      if (bytes === 0) throw new ApiError(200, 'DOWNLOAD_EMPTY', `The download host answered 200 with no content instead of the ZIP of ${args.envelopeId}.`);
      // A login page or an error text served with 200 (a proxy, an expired link on some hosts) is not the envelope.
      const head = await readFileHead(file.temporaryPath, 4);
      if (!zipSignatures.some((signature) => head.equals(signature))) {
        const start = (await readFileHead(file.temporaryPath, 40)).toString('latin1');
        throw new ApiError(200, 'DOWNLOAD_NOT_A_ZIP', visible(`The download host answered 200 with ${bytes} bytes that are not a ZIP (they start ${JSON.stringify(start)}) instead of the ZIP of ${args.envelopeId}.`));
      }
      await file.commit();
    } catch (error) {
      await file?.abort();
      throw explainKept(error, args.out);
    }
    ctx.output.result({ envelopeId: args.envelopeId, file: args.out, bytes }, () => `Saved ${args.out} (${bytes} bytes).`);
  },
});

/** A ZIP starts with a local file header, or (no entry) with the end of its central directory. */
const zipSignatures = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];


/** Whatever stopped the download from the host, the person learns that the file they named is as it was. */
function explainKept(error: unknown, out: string | undefined): unknown {
  if (out === undefined) return error;
  const kept = `Nothing was saved: ${out} is as it was.`;
  if (error instanceof InterruptedError) return new InterruptedError(error.signal, `Stopped by ${error.signal} during the download. ${kept}`);
  if (error instanceof ApiError || error instanceof NetworkError) error.hint = [error.hint, kept].filter(Boolean).join(' ');
  return error;
}
