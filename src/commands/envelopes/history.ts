import { defineCommand } from '../../cli/command.js';
import { documentIdOf, participantIdOf, renderHistory, type HistoryEntryBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { readEnvelopeDetails } from './get.js';

const mentionsFolder = (entry: HistoryEntryBody) => Object.keys(entry.details ?? {}).some((key) => /folderid$/i.test(key));

export default defineCommand<{ envelopeId: string; utc?: boolean }>({
  name: 'history',
  description: "Show an envelope's history: who did what, when, to the second (API actions name the integration)",
  arguments: [envelopeIdArgument],
  options: [{ flags: '--utc', description: 'times in UTC instead of the local time zone' }],
  examples: ['esign envelopes history 3f6c…', 'esign env history 3f6c… --utc', 'esign env history 3f6c… --json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const entries: HistoryEntryBody[] = [];
    for await (const entry of client.paginate<HistoryEntryBody>('getEnvelopeHistory', { params: { envelopeId: args.envelopeId }, query: { limit: 100 } })) {
      entries.push(entry);
    }
    if (ctx.output.json) {
      ctx.output.result({ data: entries });
      return;
    }
    // People read names: the participants, documents and folders an entry points at are looked up once.
    const envelope = await readEnvelopeDetails(client, args.envelopeId);
    const folders = new Map<string, string>();
    if (envelope.folder?.id && envelope.folder.name) folders.set(envelope.folder.id, envelope.folder.name);
    if (entries.some(mentionsFolder)) {
      for await (const folder of client.paginate<{ id: string; path?: string; name?: string }>('listFolders', { query: { limit: 100 } })) {
        folders.set(folder.id, folder.path ?? folder.name ?? folder.id);
      }
    }
    const names = {
      participants: new Map(envelope.participants.map((participant) => [participantIdOf(participant), participant.name ?? participantIdOf(participant)])),
      documents: new Map((envelope.documents ?? []).map((document) => [documentIdOf(document), document.fileName ?? documentIdOf(document)])),
      folders,
    };
    ctx.output.result({ data: entries }, () => renderHistory(entries, ctx.output.style, { utc: Boolean(args.utc), names }));
  },
});
