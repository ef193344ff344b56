import { defineCommand } from '../../cli/command.js';
import { documentIdOf, historyColumns, participantIdOf, type HistoryEntryBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { asksForOnePage, listFormat, printList, wholeListOptions, type ListArgs } from '../list-command.js';
import { readEnvelopeDetails } from './get.js';

const mentionsFolder = (entry: HistoryEntryBody) => Object.keys(entry.details ?? {}).some((key) => /folderid$/i.test(key));

export default defineCommand<ListArgs & { envelopeId: string; utc?: boolean }>({
  name: 'history',
  description: "Show an envelope's history: who did what, when, to the second (API actions name the integration)",
  arguments: [envelopeIdArgument],
  options: [{ flags: '--utc', description: 'times in UTC instead of the local time zone' }, ...wholeListOptions],
  examples: ['esign envelopes history 3f6c…', 'esign env history 3f6c… --utc', 'esign env history 3f6c… --json', 'esign env history 3f6c… --limit 10'],
  async handler(args, ctx) {
    const client = await ctx.client();
    // A person asking for the history wants all of it: every page unless --limit or --cursor asks for one.
    const all = !asksForOnePage(args);
    const folders = new Map<string, string>();
    const names = { participants: new Map<string, string>(), documents: new Map<string, string>(), folders };
    let foldersRead = false;
    if (listFormat(ctx, args) === 'human') {
      // People read names: the participants, documents and folders an entry points at are looked up once.
      const envelope = await readEnvelopeDetails(client, args.envelopeId);
      if (envelope.folder?.id && envelope.folder.name) folders.set(envelope.folder.id, envelope.folder.name);
      for (const participant of envelope.participants) names.participants.set(participantIdOf(participant), participant.name ?? participantIdOf(participant));
      for (const document of envelope.documents ?? []) names.documents.set(documentIdOf(document), document.fileName ?? documentIdOf(document));
    }
    await printList<HistoryEntryBody>(ctx, { operationId: 'getEnvelopeHistory', params: { envelopeId: args.envelopeId } }, { ...args, all }, {
      columns: historyColumns({ utc: Boolean(args.utc), names, nowMs: Date.now() }),
      noun: 'history entries',
      prepare: async (entries) => {
        if (foldersRead || !entries.some(mentionsFolder)) return;
        foldersRead = true;
        for await (const folder of client.paginate<{ id: string; path?: string; name?: string }>('listFolders', { query: { limit: 100 } })) {
          folders.set(folder.id, folder.path ?? folder.name ?? folder.id);
        }
      },
    });
  },
});
