import { defineCommand } from '../../cli/command.js';
import { describeParticipant, isTheirTurn, participantColumns, participantProgress, renderParticipants, type ParticipantBody } from '../../output/envelope-view.js';
import { terminalJson } from '../../output/sanitize.js';
import { wrapToWidth } from '../../output/table.js';
import { allItems } from '../../workflows/all-items.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { asksForOnePage, listFormat, printList, wholeListOptions, type ListArgs } from '../list-command.js';

export default defineCommand<ListArgs & { envelopeId: string }>({
  name: 'list',
  aliases: ['ls'],
  description: "List an envelope's participants, their status and whose turn it is",
  arguments: [envelopeIdArgument],
  options: wholeListOptions,
  examples: ['esign participants list 3f6c…', 'esign part ls 3f6c… --json', 'esign part ls 3f6c… --jsonl'],
  async handler(args, ctx) {
    const params = { envelopeId: args.envelopeId };
    if (asksForOnePage(args)) {
      await printList<ParticipantBody>(ctx, { operationId: 'listParticipants', params }, args, { columns: participantColumns(ctx.output.style), noun: 'participants' });
      return;
    }
    const format = listFormat(ctx, args);
    const participants = await allItems<ParticipantBody>(await ctx.client(), 'listParticipants', { params });
    if (format === 'jsonl') {
      for (const participant of participants) await ctx.output.line(terminalJson(participant));
      return;
    }
    // --all prints one JSON array of every row, as every list does; without it, the answer's own shape.
    ctx.output.result(args.all ? participants : { data: participants }, () => {
      const turn = participants.filter(isTheirTurn);
      const footer = turn.length ? `Their turn: ${turn.map(describeParticipant).join(', ')}` : 'Nobody is being waited on.';
      const summary = `${participantProgress(participants)} · ${footer}`;
      const width = ctx.output.style.terminalWidth;
      return `${renderParticipants(participants, ctx.output.style)}\n\n${width ? wrapToWidth(summary, width).join('\n') : summary}`;
    });
  },
});
