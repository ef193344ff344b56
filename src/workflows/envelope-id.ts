import type { ApiClient } from '../api/client.js';
import { EsignError, ExitCode, UsageError } from '../core/errors.js';
import { assertPathParam } from '../api/operations.js';
import type { ArgumentSpec, Context } from '../cli/command.js';
import { describeParticipant, envelopeIdOf, participantIdOf, type EnvelopeBody, type ParticipantBody } from '../output/envelope-view.js';
import { allItems } from './all-items.js';
import { visible } from '../output/sanitize.js';

/** Like git's short hashes: at least this many characters of an id name the envelope, if no other id starts so. */
export const shortIdMinLength = 8;
/** What every envelope-id argument says in help: the prefix is resolved for all of them, before the handler runs. */
export const envelopeIdDescription = `envelope id, or a unique prefix of its first ${shortIdMinLength}+ characters`;

export const envelopeIdArgument: ArgumentSpec = { name: 'envelopeId', description: envelopeIdDescription };

const fullUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idCharacters = /^[0-9a-f-]+$/i;

/** A full id is used as given; a shorter run of id characters is looked up. */
export function isShortId(text: string): boolean {
  return text.length >= shortIdMinLength && !fullUuid.test(text) && idCharacters.test(text);
}

/** No envelope (or participant) id starts with the prefix: nothing to act on (exit 4, as for an unknown full id). */
export class ShortIdNotFound extends EsignError {
  readonly exitCode = ExitCode.notFound;
  constructor(prefix: string, what: 'envelope' | 'participant' = 'envelope') {
    super(`No ${what} id starts with ${prefix}.`);
    this.name = 'ShortIdNotFound';
    this.hint = what === 'envelope' ? '`esign envelopes find <text>` searches titles, participants and ids.' : '`esign participants list <envelopeId>` shows the ids.';
  }
  get code(): string {
    return 'RESOURCE_NOT_FOUND';
  }
}

/** Up to `max` envelopes whose id starts with the prefix, reading every page of the list (the API has no id search). */
export async function envelopesWithIdPrefix(client: ApiClient, prefix: string, max = 10): Promise<EnvelopeBody[]> {
  const wanted = prefix.toLowerCase();
  const found: EnvelopeBody[] = [];
  for await (const envelope of client.paginate<EnvelopeBody>('listEnvelopes', { query: { limit: 100 } })) {
    if (envelopeIdOf(envelope).toLowerCase().startsWith(wanted)) {
      found.push(envelope);
      if (found.length >= max) break;
    }
  }
  return found;
}

/** The full id a prefix names; an ambiguous prefix is refused with the candidates. */
export async function resolveEnvelopeId(client: ApiClient, text: string): Promise<string> {
  if (!isShortId(text)) return text;
  const found = await envelopesWithIdPrefix(client, text);
  if (found.length === 0) throw new ShortIdNotFound(text);
  if (found.length > 1) {
    throw new UsageError(
      `The id prefix ${text} is ambiguous: ${found.length === 10 ? '10 or more' : found.length} envelopes start with it.`,
      `Give more characters of the id. Candidates: ${found.map((envelope) => visible(`${envelopeIdOf(envelope)} (${envelope.title || 'untitled'})`)).join(', ')}.`,
      'ENVELOPE_ID_AMBIGUOUS',
      { candidates: found.map((envelope) => ({ id: envelopeIdOf(envelope), title: envelope.title ?? null })) },
    );
  }
  return envelopeIdOf(found[0]!);
}

/** The full id an envelope-id argument names, saying which envelope a prefix turned out to be. */
export async function resolveEnvelopeArgument(given: string, ctx: Context): Promise<string> {
  if (!isShortId(given)) return given;
  const resolved = await resolveEnvelopeId(await ctx.client(), given);
  if (resolved !== given) ctx.output.info(visible(`${given} is envelope ${resolved}.`));
  return resolved;
}

/**
 * An e-mail address where an envelope id goes (`envelopes get maria@acme.example`) is someone looking for that
 * person's envelopes: pointed at `envelopes find`, with nothing sent, rather than left with the service's 404.
 */
function refuseEmailAsId(given: string): void {
  if (!/^[^\s@]+@[^\s@]+$/.test(given)) return;
  const shown = visible(given);
  throw new UsageError(
    `${shown} is an e-mail address, not an envelope id.`,
    `To find the envelopes ${shown} takes part in, run \`esign envelopes find ${shown}\`; then use an id (or its first 8 characters) from there.`,
    'ENVELOPE_ID_IS_EMAIL',
  );
}

/**
 * The full id of the envelope's participant a prefix names (as tables show participant ids), or the text as given.
 */
export async function resolveParticipantArgument(given: string, envelopeId: string, ctx: Context): Promise<string> {
  if (!isShortId(given)) return given;
  const wanted = given.toLowerCase();
  const participants = await allItems<ParticipantBody>(await ctx.client(), 'listParticipants', { params: { envelopeId } });
  const found = participants.filter((participant) => participantIdOf(participant).toLowerCase().startsWith(wanted));
  if (found.length === 0) throw new ShortIdNotFound(given, 'participant');
  if (found.length > 1) {
    throw new UsageError(`The id prefix ${given} is ambiguous: ${found.length} participants start with it.`, `Give more characters of the id. Candidates: ${found.map((participant) => `${visible(participantIdOf(participant))} (${describeParticipant(participant)})`).join(', ')}.`, 'PARTICIPANT_ID_AMBIGUOUS');
  }
  const resolved = participantIdOf(found[0]!);
  ctx.output.info(`${visible(given)} is participant ${visible(resolved)} (${describeParticipant(found[0]!)}).`);
  return resolved;
}

/**
 * Every command argument named `envelopeId` (or `envelopeIds`) accepts unique prefixes, and so does a `participantId`
 * beside an envelope id: replaced here by the full ids, before the handler runs.
 */
export async function resolveEnvelopeArguments(args: Record<string, unknown>, ctx: Context): Promise<void> {
  // Every id is checked before any is looked up or acted on: a bad third id must not cost the wait for the first two.
  for (const given of [args.envelopeId, ...(Array.isArray(args.envelopeIds) ? args.envelopeIds : [])]) {
    if (typeof given !== 'string') continue;
    refuseEmailAsId(given);
    assertPathParam('envelopeId', given);
  }
  const resolve = (given: string) => resolveEnvelopeArgument(given, ctx);
  if (typeof args.envelopeId === 'string') args.envelopeId = await resolve(args.envelopeId);
  if (Array.isArray(args.envelopeIds)) {
    const resolved: string[] = [];
    for (const given of args.envelopeIds as string[]) resolved.push(await resolve(given));
    args.envelopeIds = resolved;
  }
  if (typeof args.participantId === 'string' && typeof args.envelopeId === 'string') {
    assertPathParam('participantId', args.participantId);
    args.participantId = await resolveParticipantArgument(args.participantId, args.envelopeId, ctx);
  }
}
