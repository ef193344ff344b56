import { defineCommand } from '../../cli/command.js';
import { renderFields } from '../../output/table.js';
import { OpenedFile } from '../../files/opened-file.js';
import { PDF_CONTENT_TYPE } from '../../workflows/upload.js';

interface Validation {
  valid?: boolean;
  sealed?: boolean;
  reason?: string | null;
  sha256?: string;
  pageCount?: number | null;
  documentId?: string;
  envelopeId?: string | null;
}

export default defineCommand<{ file: string }>({
  name: 'validate',
  description: 'Ask the service whether a PDF is an untouched sealed document it produced',
  arguments: [{ name: 'file', description: 'the signed .pdf to check', completion: 'file' }],
  examples: ['esign documents validate signed-contract.pdf', 'esign doc validate signed.pdf --json | jq .valid'],
  async handler(args, ctx) {
    const file = await OpenedFile.open(args.file);
    file.assertNotEmpty();
    const client = await ctx.client();
    // Streamed as it is on disk: the service compares the exact bytes.
    const { body } = await client.call<Validation>('validateSealedDocument', {
      raw: { body: file.stream(), contentType: PDF_CONTENT_TYPE, length: file.size },
    });
    ctx.output.result(body, () => {
      const yesNo = (value: boolean | undefined) => (value === undefined ? '?' : value ? 'yes' : 'no');
      const style = ctx.output.style;
      return renderFields([
        ['Result', `${body.valid ? 'valid' : 'not valid'}${body.reason ? ` (${body.reason})` : ''}`, (text) => (body.valid ? style.green(text) : style.red(text))],
        ['Sealed', yesNo(body.sealed)],
        ...(body.envelopeId ? ([['Envelope', body.envelopeId]] as [string, string][]) : []),
        ...(body.documentId ? ([['Document', body.documentId]] as [string, string][]) : []),
        ...(typeof body.pageCount === 'number' ? ([['Pages', String(body.pageCount)]] as [string, string][]) : []),
        ...(body.sha256 ? ([['SHA-256', body.sha256]] as [string, string][]) : []),
      ]);
    });
  },
});
