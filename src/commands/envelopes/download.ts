import { ApiError, NetworkError, UsageError } from '../../core/errors.js';
import { basename, dirname, join } from 'node:path';
import { defineCommand, type Context } from '../../cli/command.js';
import { InterruptedError } from '../../core/interrupt.js';
import { openAtomic } from '../../files/atomic-file.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { absoluteTime, describeParticipant, isDone } from '../../output/envelope-view.js';
import { visible } from '../../output/sanitize.js';
import { renderFields, type Field } from '../../output/table.js';
import { readFileHead } from '../../shared/file-head.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { readEnvelopeDetails } from './get.js';

interface DownloadAddress {
  url?: string;
  downloadUrl?: string;
  expiresAt?: string;
}

/** `nda.zip` is saved as `nda.unsigned.zip`: a copy that is not the signed result must say so wherever it goes. */
export function unsignedName(out: string): string {
  const name = basename(out);
  if (/unsigned/i.test(name)) return out;
  const dot = name.lastIndexOf('.');
  return join(dirname(out), dot > 0 ? `${name.slice(0, dot)}.unsigned${name.slice(dot)}` : `${name}.unsigned`);
}

/**
 * Only a COMPLETED envelope's ZIP holds the signed documents. Any other is downloaded only when the person chose the
 * unsigned copy (--unsigned, or yes at the question on a terminal), after being told its status and who is still to
 * sign; else nothing is fetched or saved.
 */
async function checkSigned(ctx: Context, envelopeId: string, unsigned: boolean): Promise<string | undefined> {
  const envelope = await readEnvelopeDetails(await ctx.client(), envelopeId, { documents: false });
  if (envelope.status === 'COMPLETED') return undefined;
  const waiting = envelope.participants.filter((participant) => !isDone(participant));
  const status = visible(envelope.status ?? '?');
  const still = waiting.length ? ` Still to sign: ${waiting.map(describeParticipant).join(', ')}.` : '';
  const problem = `Envelope ${envelopeId} is ${status}, not COMPLETED: its ZIP holds the unsigned documents, not the signed result.${still}`;
  if (!unsigned) {
    const instead = `--unsigned to download the unsigned copy, or wait: esign envelopes wait ${envelopeId} --until COMPLETED`;
    if (!ctx.prompts.canAsk || ctx.output.json) throw new UsageError(problem, `Pass ${instead}.`, 'ENVELOPE_NOT_SIGNED');
    ctx.output.warn(problem);
    if (!(await ctx.prompts.confirm('Download the unsigned copy?', '--unsigned', false))) throw new UsageError('Cancelled; nothing was downloaded.', undefined, 'CANCELLED');
  } else {
    ctx.output.warn(problem);
  }
  return status;
}

export default defineCommand<{ envelopeId: string; out?: string; force?: boolean; unsigned?: boolean }>({
  name: 'download',
  description: 'Get the ZIP of an envelope: its signed address, or the file itself with --out (COMPLETED ones only, unless --unsigned)',
  arguments: [envelopeIdArgument],
  options: [
    { flags: '-o, --out <file>', description: 'save the ZIP to this file (- for stdout is not supported: it is binary)', completion: 'file' },
    { flags: '--force', description: 'replace the --out file if it exists' },
    { flags: '--unsigned', description: 'an envelope not COMPLETED: download its unsigned documents anyway (saved as NAME.unsigned.zip)' },
  ],
  examples: ['esign envelopes download 3f6c… --out nda.zip', 'esign env download 3f6c… --json | jq -r .url', 'esign env download 3f6c… --unsigned --out draft.zip'],
  async handler(args, ctx) {
    if (args.force && !args.out) throw new UsageError('--force only applies to --out.', 'Add --out <file>, or leave out --force.');
    // The target is checked (and its temporary file opened) before anything is asked of the service.
    const target = (out: string) => openAtomic(out, { overwrite: args.force === true, label: `--out ${out}` });
    let out = args.out;
    let file = out ? await target(out) : undefined;
    let bytes: number;
    let notSigned: string | undefined;
    try {
      if (out) stopIfDryRun(ctx, `download the ZIP of envelope ${args.envelopeId} and save it to ${out}`, [out]);
      notSigned = ctx.globals.dryRun ? undefined : await checkSigned(ctx, args.envelopeId, args.unsigned === true);
      if (file && out && notSigned) {
        const named = file;
        file = undefined;
        await named.abort();
        out = unsignedName(out);
        file = await target(out);
      }
      const client = await ctx.client();
      const { body } = await client.call<DownloadAddress>('getEnvelopeDownload', { params: { envelopeId: args.envelopeId } });
      const url = body.url ?? body.downloadUrl;
      if (!url) throw new UsageError('The download answer carries no address.', 'Run again with --debug to see the answer.', 'DOWNLOAD_ADDRESS_MISSING');
      if (!file) {
        const fields: Field[] = [['URL', url], ['Expires', body.expiresAt ? absoluteTime(body.expiresAt) : '-']];
        if (notSigned) fields.push(['Signed', `no: the envelope is ${notSigned}`]);
        ctx.output.result(notSigned ? { ...body, signed: false, status: notSigned } : body, () => renderFields(fields));
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
      throw explainKept(error, out);
    }
    ctx.output.result({ envelopeId: args.envelopeId, file: out, bytes, signed: !notSigned }, () =>
      notSigned ? `Saved ${out} (${bytes} bytes): the unsigned documents of an envelope that is ${notSigned}.` : `Saved ${out} (${bytes} bytes).`,
    );
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
