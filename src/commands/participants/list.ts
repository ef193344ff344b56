import { defineCommand } from '../../cli/command.js';
import { describeParticipant, isTheirTurn, participantProgress, renderParticipants, type ParticipantBody } from '../../output/envelope-view.js';
import { allItems } from '../../workflows/all-items.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'list',
  aliases: ['ls'],
  description: "List an envelope's participants, their status and whose turn it is",
  arguments: [envelopeIdArgument],
  examples: ['esign participants list 3f6c…', 'esign part ls 3f6c… --json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const participants = await allItems<ParticipantBody>(client, 'listParticipants', { params: { envelopeId: args.envelopeId } });
    ctx.output.result({ data: participants }, () => {
      const turn = participants.filter(isTheirTurn);
      const footer = turn.length ? `Their turn: ${turn.map(describeParticipant).join(', ')}` : 'Nobody is being waited on.';
      return `${renderParticipants(participants, ctx.output.style)}\n\n${participantProgress(participants)} · ${footer}`;
    });
  },
});
