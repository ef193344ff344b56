import type { ApiClient } from '../../api/client.js';
import { defineCommand } from '../../cli/command.js';
import { renderEnvelope, type DocumentBody, type EnvelopeBody, type ParticipantBody } from '../../output/envelope-view.js';
import { allItems } from '../../workflows/all-items.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

/**
 * The envelope with its participants and documents. The emulator's read includes both; where an answer lacks them
 * they are read from their own list operations.
 */
export async function readEnvelopeDetails(
  client: ApiClient,
  envelopeId: string,
  want: { documents: boolean } = { documents: true },
): Promise<EnvelopeBody & { participants: ParticipantBody[] }> {
  const { body: envelope } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId } });
  const [participants, documents] = await Promise.all([
    envelope.participants ?? allItems<ParticipantBody>(client, 'listParticipants', { params: { envelopeId } }),
    want.documents && !envelope.documents ? allItems<DocumentBody>(client, 'listDocuments', { params: { envelopeId } }) : envelope.documents,
  ]);
  return { ...envelope, participants, ...(documents ? { documents } : {}) };
}

export default defineCommand<{ envelopeId: string }>({
  name: 'get',
  aliases: ['show'],
  description: 'Show an envelope with its participants (and whose turn it is) and its documents with their status',
  arguments: [envelopeIdArgument],
  examples: ['esign envelopes get 3f6c…', 'esign env get 3f6c… --json | jq .status'],
  async handler(args, ctx) {
    const envelope = await readEnvelopeDetails(await ctx.client(), args.envelopeId);
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
  },
});
