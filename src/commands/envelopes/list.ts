import { defineCommand } from '../../cli/command.js';
import { parseInstant } from '../../input/instant.js';
import { envelopeStatuses } from '../../shared/values.js';
import { envelopeColumns, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeMatches, envelopeSource, hasCriteria, participantsReader, resolveFolder, type EnvelopeCriteria } from '../../workflows/envelope-search.js';
import { listOptions, printList, type ListArgs } from '../list-command.js';
import { parseSearchText } from '../../input/search-text.js';


function parseStatus(value: string): string {
  const status = value.toUpperCase();
  if (!(envelopeStatuses as readonly string[]).includes(status)) throw new Error(`expected one of ${envelopeStatuses.join(', ')}.`);
  return status;
}

interface EnvelopeListArgs extends ListArgs {
  status?: string;
  folder?: string;
  title?: string;
  participant?: string;
  createdAfter?: number;
  createdBefore?: number;
}

export default defineCommand<EnvelopeListArgs>({
  name: 'list',
  aliases: ['ls'],
  description: 'List envelopes, newest first; filter by status, folder, title, participant, creation time',
  options: [
    { flags: '--status <status>', description: `only this status (${envelopeStatuses.join(', ')})`, parse: parseStatus, completion: { words: envelopeStatuses } },
    { flags: '--folder <folder>', description: 'only this folder: its id, name or path (Sales/2026)' },
    { flags: '--title <text>', description: 'title contains this (any case)', parse: parseSearchText },
    { flags: '--participant <text>', description: "a participant's e-mail or name contains this (any case)", parse: parseSearchText },
    { flags: '--created-after <date>', description: 'created at or after: 2026-01-31, a date-time, or a time ago (7d)', parse: (value) => parseInstant(value) },
    { flags: '--created-before <date>', description: 'created before: 2026-01-31, a date-time, or a time ago (7d)', parse: (value) => parseInstant(value) },
    ...listOptions,
  ],
  examples: [
    'esign envelopes list --status SENT',
    'esign env ls --participant ada@example.com --created-after 30d',
    'esign env ls --folder Sales --title NDA --all --jsonl',
  ],
  async handler(args, ctx) {
    const client = await ctx.client();
    const criteria: EnvelopeCriteria = {
      ...(args.status ? { status: args.status } : {}),
      ...(args.folder ? { folderId: await resolveFolder(client, args.folder) } : {}),
      ...(args.title ? { title: args.title } : {}),
      ...(args.participant ? { participant: args.participant } : {}),
      ...(args.createdAfter !== undefined ? { createdAfter: args.createdAfter } : {}),
      ...(args.createdBefore !== undefined ? { createdBefore: args.createdBefore } : {}),
    };
    const { source, remaining } = envelopeSource(criteria);
    const participantsOf = participantsReader(client);
    await printList<EnvelopeBody>(ctx, source, args, {
      columns: envelopeColumns(ctx.output.style, Date.now()),
      noun: 'envelopes',
      ...(hasCriteria(remaining) ? { filter: async (envelope) => envelopeMatches(envelope, remaining.participant ? await participantsOf(envelope) : [], remaining) } : {}),
    });
  },
});
