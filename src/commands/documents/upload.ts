import { isEsignError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { interruption, interruptionOf } from '../../core/interrupt.js';
import { shellQuote } from '../../core/shell-quote.js';
import { parseTimeLimit } from '../../input/duration.js';
import { renderDocuments } from '../../output/envelope-view.js';
import { identityOf } from '../../output/identity.js';
import { envelopeIdArgument, envelopeIdDescription } from '../../workflows/envelope-id.js';
import {
  listAllDocuments,
  localDocument,
  registerAndUpload,
  stuckDraftWayOut,
  UploadProgress,
  waitForDocuments,
  type DocumentInfo,
} from '../../workflows/upload.js';

const defaultWaitMs = 2 * 60_000;

interface UploadArgs {
  envelopeId: string;
  file: string[];
  wait: boolean;
  confirmConversion?: boolean;
  waitTimeout?: number;
}

export default defineCommand<UploadArgs>({
  name: 'upload',
  description: 'Register documents (.pdf, .docx) in a draft envelope, upload them and wait until they are processed',
  arguments: [
    { ...envelopeIdArgument, description: `draft ${envelopeIdDescription}` },
    { name: 'file', description: 'one or more .pdf or .docx files', variadic: true, completion: 'file' },
  ],
  options: [
    { flags: '--no-wait', description: 'return once uploaded, without waiting for processing', conflicts: ['--wait-timeout', '--confirm-conversion'] },
    { flags: '--confirm-conversion', description: 'accept the converted PDF of each .docx without asking, during the wait' },
    { flags: '--wait-timeout <duration>', description: 'give up waiting after this long (default 2m)', parse: parseTimeLimit },
  ],
  examples: [
    'esign documents upload 3f6c… contract.pdf annex.pdf',
    'esign doc upload 3f6c… offer.docx --confirm-conversion',
    'esign doc upload 3f6c… big-scan.pdf --no-wait --json',
  ],
  async handler(args, ctx) {
    // Every file is checked before the first one is registered: a typo in the third name sends nothing.
    const documents = [];
    for (const file of args.file) documents.push(await localDocument(file));
    const client = await ctx.client();
    const progress = new UploadProgress(args.envelopeId, documents);
    let rows: DocumentInfo[] = [];
    try {
      for (const [index, document] of documents.entries()) {
        rows.push(await registerAndUpload(ctx, client, args.envelopeId, document, (documentId, status) => progress.record(index, documentId, status)));
      }
    } catch (error) {
      const stopped = interruptionOf(error);
      if (stopped) throw progress.interrupted(stopped, nextStep(progress, documents.map((document) => document.file.path)));
      if (progress.stranded.length > 0 && isEsignError(error)) {
        error.hint = `${progress.describe()} ${stuckDraftWayOut(args.envelopeId)}`;
      }
      throw error;
    }
    try {
      if (args.wait) {
        rows = await waitForDocuments(ctx, client, args.envelopeId, rows, {
          timeoutMs: args.waitTimeout ?? defaultWaitMs,
          confirmConversion: args.confirmConversion === true,
          onStatuses: (latest) => progress.update(latest),
        });
      } else {
        // The registration's status (AWAITING_UPLOAD) is stale once the bytes are up: show where processing is now.
        const listed = new Map((await listAllDocuments(client, args.envelopeId, interruption.signal)).map((document) => [document.documentId, document]));
        rows = rows.map((row) => listed.get(row.documentId) ?? row);
      }
    } catch (error) {
      const stopped = interruptionOf(error);
      if (stopped) throw progress.interrupted(stopped, allUploaded(args.envelopeId));
      throw error;
    }
    ctx.output.result({ envelopeId: args.envelopeId, documents: rows }, () => renderDocuments(rows, ctx.output.style), () => identityOf(rows));
  },
});

/** What to run after an interruption: the files not registered yet, unless a registered one never got its bytes. */
function nextStep(progress: UploadProgress, paths: readonly string[]): string {
  if (progress.stranded.length > 0) return stuckDraftWayOut(progress.envelopeId);
  const rest = progress.summary.documents.flatMap((document, index) => (document.documentId ? [] : [paths[index]!]));
  if (rest.length === 0) return allUploaded(progress.envelopeId);
  return `Upload the rest: ${['esign', 'documents', 'upload', progress.envelopeId, ...rest].map(shellQuote).join(' ')}`;
}

function allUploaded(envelopeId: string): string {
  return `Every file was uploaded; processing goes on without esign. See where it stands: esign documents list ${envelopeId}`;
}
