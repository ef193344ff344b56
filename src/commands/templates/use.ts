import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { readTemplateParticipantsFile, unknownTemplateRole } from '../../input/participants.js';
import { envelopeIdOf, renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { deadlineOption } from '../envelopes/create.js';
import { slotIdOf, slotLabelOf, slotsOf, type TemplateBody } from './view.js';
import { visible } from '../../output/sanitize.js';
import { nonBlank } from '../../input/required-text.js';

interface UseArgs {
  templateId: string;
  participants?: string;
  title?: string;
  deadline?: string;
  folder?: string;
  send?: boolean;
}

export default defineCommand<UseArgs>({
  name: 'use',
  description: 'Create an envelope from a template, as a draft or sent at once (--send)',
  arguments: [{ name: 'templateId', description: 'template id' }],
  options: [
    {
      flags: '-p, --participants <file>',
      description: 'participants.yaml (required): each with templateRole (the label) or templateParticipantId, name, email, phoneNumber?, deliveryMethod?',
      completion: 'file',
    },
    { flags: '--title <title>', description: 'envelope title', parse: nonBlank('title') },
    deadlineOption,
    { flags: '--folder <folderId>', description: 'folder of the new envelope' },
    { flags: '--send', description: 'send it now instead of leaving a draft' },
  ],
  examples: ['esign templates use 5d0e… --participants participants.yaml --title "NDA Acme" --send'],
  async handler(args, ctx) {
    if (!args.participants) throw new UsageError('--participants is required.', 'Give a participants file; `esign templates get <templateId>` lists the roles to fill.');
    const { input, participants } = await readTemplateParticipantsFile(args.participants, ctx.stdin);
    const client = await ctx.client();
    // Role labels are resolved to slot ids here, so the request carries only what the contract names.
    const slots = participants.some((participant) => participant.templateRole !== undefined)
      ? slotsOf((await client.call<TemplateBody>('getTemplate', { params: { templateId: args.templateId } })).body)
      : [];
    const slotByLabel = new Map(slots.map((slot) => [slotLabelOf(slot).toLowerCase(), slotIdOf(slot)]));
    const resolved = participants.map(({ templateRole, ...participant }, index) => {
      if (templateRole === undefined) return participant;
      const slotId = slotByLabel.get(templateRole.toLowerCase());
      if (!slotId) throw unknownTemplateRole(input, index, templateRole, slots.map(slotLabelOf));
      return { templateParticipantId: slotId, ...participant };
    });
    const { body: envelope } = await client.call<EnvelopeBody>('createEnvelopeFromTemplate', {
      params: { templateId: args.templateId },
      body: {
        ...(args.title === undefined ? {} : { title: args.title }),
        ...(args.deadline === undefined ? {} : { deadline: args.deadline }),
        ...(args.folder === undefined ? {} : { folderId: args.folder }),
        participants: resolved,
        send: args.send === true,
      },
    });
    ctx.output.success(`Envelope ${visible(envelopeIdOf(envelope))} created from template ${args.templateId}${args.send ? ' and sent' : ' as a draft'}.`);
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
  },
});
