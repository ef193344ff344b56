import { ApiError, UsageError } from '../../core/errors.js';
import type { Context } from '../../cli/command.js';
import { collect, defineCommand } from '../../cli/command.js';
import { deliveryMethods, participantRoles, participantsFromFlags, readParticipantsFile } from '../../input/participants.js';
import { describeParticipant, itemsOf, participantIdOf, renderParticipants, type ParticipantBody } from '../../output/envelope-view.js';
import { allItems } from '../../workflows/all-items.js';
import { fieldsOfParticipants, keepExistingIds } from '../../workflows/participants-sync.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { visible } from '../../output/sanitize.js';
import { identityOf } from '../../output/identity.js';

interface SetArgs {
  envelopeId: string;
  file?: string;
  add?: string[];
  delivery?: string;
  phone?: string;
  role?: string;
}

export default defineCommand<SetArgs>({
  name: 'set',
  description: "Replace an envelope's participants (from a YAML/JSON file, or with --add)",
  arguments: [envelopeIdArgument],
  options: [
    { flags: '-f, --file <file>', description: 'participants.yaml or .json (- for stdin): `participants: [{name, email, phoneNumber?, deliveryMethod?, role?, signingOrder?}]`', completion: 'file' },
    { flags: '--add <"Name <email>">', description: 'a participant (repeatable; no signingOrder is sent, the service orders them)', parse: collect },
    { flags: '--delivery <method>', description: `with --add: ${deliveryMethods.join(', ')} (default EMAIL)`, completion: { words: deliveryMethods } },
    { flags: '--phone <e164>', description: 'with --add: phone number in E.164 (+33612345678), required for SMS and WHATSAPP' },
    { flags: '--role <role>', description: `with --add: ${participantRoles.join(', ')} (default SIGNER)`, completion: { words: participantRoles } },
  ],
  examples: [
    'esign participants set 3f6c… --file participants.yaml',
    'esign part set 3f6c… --add "Ada Lovelace <ada@example.com>" --add "Alan Turing <alan@example.com>"',
    'esign part set 3f6c… --add "Grace Hopper <grace@example.com>" --delivery SMS --phone +15551234567',
  ],
  async handler(args, ctx) {
    const adding = args.add ?? [];
    if (args.file && adding.length) throw new UsageError('Use --file or --add, not both.', 'Put every participant in the file, or give them all with --add.');
    if (!args.file && !adding.length) throw new UsageError('No participants given.', 'Pass --file participants.yaml, or one or more --add "Name <email>".');
    if (args.file && (args.delivery || args.phone || args.role)) {
      throw new UsageError('--delivery, --phone and --role go with --add; in a file, write deliveryMethod, phoneNumber and role on each participant.');
    }
    const participants = args.file
      ? await readParticipantsFile(args.file, ctx.stdin)
      : participantsFromFlags({ add: adding, ...(args.delivery ? { delivery: args.delivery } : {}), ...(args.phone ? { phone: args.phone } : {}), ...(args.role ? { role: args.role } : {}) });
    const client = await ctx.client();
    const existing = await allItems<ParticipantBody>(client, 'listParticipants', { params: { envelopeId: args.envelopeId } });
    const sync = keepExistingIds(participants, existing);
    if (sync.removed.length) await confirmRemoval(ctx, args.envelopeId, sync.removed);
    let body: unknown;
    try {
      ({ body } = await client.call('syncParticipants', { params: { envelopeId: args.envelopeId }, body: { participants: sync.participants } }));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ENVELOPE_NOT_DRAFT') {
        error.hint = `The participants of a sent envelope are corrected one at a time: esign participants correct ${args.envelopeId}`;
      }
      throw error;
    }
    const stored = itemsOf<ParticipantBody>(body, 'participants') ?? [];
    ctx.output.success(visible(`Envelope ${args.envelopeId} has ${stored.length || participants.length} participant${(stored.length || participants.length) === 1 ? '' : 's'}.`));
    ctx.output.result(body, () => renderParticipants(stored, ctx.output.style), () => identityOf(stored));
  },
});

/**
 * A participant left out of the list is removed by the service, and every field of theirs with them: that loses work
 * (fields placed by hand or by anchors), so it is said, and confirmed like any destructive change (`--yes` without a
 * terminal). Removing participants who have no field loses nothing and is only said.
 */
async function confirmRemoval(ctx: Context, envelopeId: string, removed: readonly ParticipantBody[]): Promise<void> {
  const names = removed.map(describeParticipant).join(', ');
  const lost = await fieldsOfParticipants(await ctx.client(), envelopeId, new Set(removed.map(participantIdOf)));
  const count = lost.reduce((sum, document) => sum + document.fields.length, 0);
  if (count === 0) {
    ctx.output.info(`Removing ${names} (not in the new list; no fields of theirs).`);
    return;
  }
  const where = lost.map((document) => visible(`${document.fields.length} on ${document.fileName}`)).join(', ');
  ctx.output.warn(
    `${names} ${removed.length === 1 ? 'is' : 'are'} not in the new list: the service removes ${removed.length === 1 ? 'this participant' : 'these participants'} and ${count === 1 ? 'their field' : `their ${count} fields`} (${where}). ` +
      'To keep someone, list them with the same e-mail address (or their id).',
  );
  if (ctx.globals.yes || ctx.globals.dryRun) return;
  if (!(await ctx.prompts.confirm(`Remove ${count === 1 ? '1 field' : `${count} fields`} with ${removed.length === 1 ? 'this participant' : 'these participants'}?`, '--yes', false))) {
    throw new UsageError('Cancelled; nothing was changed.', undefined, 'CANCELLED');
  }
}
