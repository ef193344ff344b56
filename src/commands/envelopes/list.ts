import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { renderEnvelopeList, type EnvelopeBody } from '../../output/envelope-view.js';
import { visible } from '../../output/sanitize.js';

export const envelopeStatuses = ['DRAFT', 'SENT', 'COMPLETED', 'VOIDED', 'DECLINED', 'EXPIRED'] as const;

/** `--limit`: the API's page size, 1 to 100 (pins.md, "Lists"). */
export function parsePageSize(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new Error('expected a whole number from 1 to 100.');
  return limit;
}

function parseStatus(value: string): string {
  const status = value.toUpperCase();
  if (!(envelopeStatuses as readonly string[]).includes(status)) throw new Error(`expected one of ${envelopeStatuses.join(', ')}.`);
  return status;
}

interface ListArgs {
  status?: string;
  folder?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
}

export default defineCommand<ListArgs>({
  name: 'list',
  aliases: ['ls'],
  description: 'List envelopes, newest first (one page; --all follows every page)',
  options: [
    { flags: '--status <status>', description: `only this status (${envelopeStatuses.join(', ')})`, parse: parseStatus },
    { flags: '--folder <folderId>', description: 'only this folder' },
    { flags: '--limit <n>', description: 'page size, 1 to 100 (default 20)', parse: parsePageSize },
    { flags: '--cursor <cursor>', description: 'start at this page (the nextCursor of a previous --json answer)' },
    { flags: '--all', description: 'follow every page' },
  ],
  examples: ['esign envelopes list --status SENT', 'esign env ls --all --json | jq ".data[].id"'],
  async handler(args, ctx) {
    if (args.all && args.cursor) throw new UsageError('--all and --cursor do not go together.', '--all starts at the first page and follows every cursor.');
    const client = await ctx.client();
    const query = { status: args.status, folderId: args.folder, limit: args.limit };
    const render = (envelopes: readonly EnvelopeBody[]) => () => renderEnvelopeList(envelopes, ctx.output.style, Date.now());
    if (args.all) {
      const envelopes: EnvelopeBody[] = [];
      for await (const envelope of client.paginate<EnvelopeBody>('listEnvelopes', { query })) envelopes.push(envelope);
      ctx.output.result({ data: envelopes, nextCursor: null }, render(envelopes));
      return;
    }
    const { body } = await client.call<{ data?: EnvelopeBody[]; nextCursor?: string | null }>('listEnvelopes', {
      query: { ...query, ...(args.cursor ? { cursor: args.cursor } : {}) },
    });
    const envelopes = body.data ?? [];
    ctx.output.result(body, render(envelopes));
    if (body.nextCursor) ctx.output.info(`More envelopes: pass --all, or --cursor ${visible(String(body.nextCursor))} for the next page.`);
  },
});
