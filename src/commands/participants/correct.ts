import { ApiError, UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { checkEmail, checkPhoneNumber, deliveryMethods } from '../../input/participants.js';
import { describeParticipant, isDone, isTheirTurn, participantIdOf, sortParticipants, type ParticipantBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { readEnvelopeDetails } from '../envelopes/get.js';
import { visible } from '../../output/sanitize.js';

interface CorrectArgs {
  envelopeId: string;
  participantId?: string;
  name?: string;
  email?: string;
  phone?: string;
  deliveryMethod?: string;
}

function parseDeliveryMethod(value: string): string {
  const method = value.toUpperCase();
  if (!(deliveryMethods as readonly string[]).includes(method)) throw new Error(`expected one of ${deliveryMethods.join(', ')}.`);
  return method;
}

/** E-mail addresses are compared without regard to case, as mail systems treat them. */
function sameValue(key: string, wanted: string, current: unknown): boolean {
  if (typeof current !== 'string') return false;
  return key === 'email' ? wanted.toLowerCase() === current.toLowerCase() : wanted === current;
}

const doneLabel = (participant: ParticipantBody) => (participant.status === 'APPROVED' ? 'approved' : 'signed');

export default defineCommand<CorrectArgs>({
  name: 'correct',
  description: 'Correct a participant who has not signed yet, also after sending (asks which one on a terminal)',
  arguments: [
    envelopeIdArgument,
    { name: 'participantId', description: 'participant id (asked on a terminal when left out)', required: false },
  ],
  options: [
    { flags: '--name <name>', description: 'new name' },
    { flags: '--email <email>', description: 'new e-mail (resends the invitation if it is their turn)' },
    { flags: '--phone <e164>', description: 'new phone number in E.164, e.g. +33612345678 (resends the invitation if it is their turn)' },
    { flags: '--delivery-method <method>', description: `new delivery method: ${deliveryMethods.join(', ')}`, parse: parseDeliveryMethod, completion: { words: deliveryMethods } },
  ],
  examples: ['esign participants correct 3f6c… 7b2e… --email ada@new.example.com', 'esign part correct 3f6c… --name "Ada King"   # pick the participant'],
  async handler(args, ctx) {
    const changes: Record<string, string> = {};
    if (args.name !== undefined) {
      if (!args.name.trim()) throw new UsageError('--name must not be empty.');
      changes.name = args.name.trim();
    }
    if (args.email !== undefined) changes.email = checkEmail(args.email.trim(), '--email');
    if (args.phone !== undefined) changes.phoneNumber = checkPhoneNumber(args.phone.trim(), '--phone');
    if (args.deliveryMethod !== undefined) changes.deliveryMethod = args.deliveryMethod;
    if (Object.keys(changes).length === 0) throw new UsageError('Nothing to correct.', 'Pass --name, --email, --phone or --delivery-method.');
    if (!args.participantId && !ctx.prompts.canAsk) {
      throw new UsageError(
        'Missing the participant: <participantId> is required without an interactive terminal.',
        `Pass it as the second argument; \`esign participants list ${args.envelopeId}\` shows the ids.`,
        'PARTICIPANT_REQUIRED',
      );
    }

    const client = await ctx.client();
    const envelope = await readEnvelopeDetails(client, args.envelopeId, { documents: false });
    const participants = sortParticipants(envelope.participants);
    let participantId = args.participantId;
    if (!participantId) {
      if (participants.length === 0) throw new UsageError(`Envelope ${args.envelopeId} has no participants.`, `Add them with \`esign participants set ${args.envelopeId}\`.`);
      if (participants.every(isDone)) throw new UsageError('Every participant has already signed or approved: none can be corrected.');
      participantId = await ctx.prompts.select(
        'Which participant do you want to correct?',
        participants.map((participant) => ({
          name: visible(`${describeParticipant(participant)} · ${participant.role ?? 'SIGNER'}${isDone(participant) ? '' : ` · ${participant.status ?? '?'}`}`),
          value: participantIdOf(participant),
          ...(isDone(participant) ? { disabled: doneLabel(participant) } : {}),
        })),
        '<participantId>',
      );
    }
    const current = participants.find((participant) => participantIdOf(participant) === participantId);
    const label = current ? describeParticipant(current) : participantId;
    // A value the participant already has is no correction (an address to send a new invitation to, least of all).
    const unchanged = Object.keys(changes).filter((key) => current && sameValue(key, changes[key]!, current[key as keyof ParticipantBody]));
    for (const key of unchanged) delete changes[key];
    if (Object.keys(changes).length === 0) {
      ctx.output.info(visible(`Nothing to correct: ${label} already has ${unchanged.map((key) => `${key} ${String(current?.[key as keyof ParticipantBody])}`).join(', ')}. Nothing was sent.`));
      ctx.output.result({ envelopeId: args.envelopeId, participantId, changes, invitationResent: false }, () => undefined);
      return;
    }
    // The contract: a new e-mail or phone for the participant whose turn it is invalidates the old link and resends.
    // A new delivery method changes where the invitation goes just the same.
    const addressChanged = (['email', 'phoneNumber', 'deliveryMethod'] as const).some((key) => changes[key] !== undefined && changes[key] !== current?.[key]);
    const resends = envelope.status === 'SENT' && current !== undefined && isTheirTurn(current) && addressChanged;

    try {
      await client.call('correctParticipant', { params: { envelopeId: args.envelopeId, participantId }, body: changes });
    } catch (error) {
      // The contract names no code for this refusal: the participant's status (or a code that says so) tells it apart
      // from other conflicts, such as an envelope that was voided.
      const alreadyDone = current && isDone(current) ? doneLabel(current) : error instanceof ApiError && /SIGNED|APPROVED/.test(error.code) ? 'signed or approved' : undefined;
      if (error instanceof ApiError && error.status === 409 && alreadyDone) {
        const refused = new ApiError(
          409,
          error.code,
          `${label} has already ${alreadyDone}: a participant who signed or approved cannot be corrected (the service said: ${error.message})`,
          error.details,
          error.requestId,
        );
        refused.hint = 'To change a signed participant, void the envelope and send a new one.';
        throw refused;
      }
      throw error;
    }
    const changed = Object.entries(changes).map(([key, value]) => `${key} ${String(current?.[key as keyof typeof current] ?? '(none)')} → ${String(value)}`);
    ctx.output.success(visible(`Participant ${label} corrected: ${changed.join(', ')}.`));
    if (resends) {
      ctx.output.warn(
        `The invitation was sent again to the new address and the earlier link no longer works. This message counts toward the account's message limit.`,
      );
    }
    ctx.output.result({ envelopeId: args.envelopeId, participantId, changes, invitationResent: resends }, () => undefined);
  },
});
