import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { readParticipantsFile } from '../../input/participants.js';
import { renderTable } from '../../output/table.js';
import { checkFieldsForPeople, type ParticipantRef, type PlacedField } from '../../pdf/placement.js';
import { findingLine, placeFieldsFileLocally, refusedFields, warningFindings } from '../../workflows/preflight.js';

interface CheckArgs {
  local?: string;
  file?: string;
  participants?: string;
}

const round = (value: number) => String(Math.round(value * 10) / 10);

/** Without a participants file, everyone a field names is taken as a signer. */
async function participantsFor(args: CheckArgs, placed: readonly Pick<PlacedField, 'participantId'>[], stdin: NodeJS.ReadableStream): Promise<ParticipantRef[]> {
  if (!args.participants) return [...new Set(placed.map((field) => field.participantId))].map((id) => ({ id, role: 'SIGNER' }));
  const participants = await readParticipantsFile(args.participants, stdin);
  return participants.map((participant, index) => {
    if (!participant.id) {
      throw new UsageError(
        `${args.participants}: participant ${index + 1} (${participant.name}) has no id.`,
        'Fields name their participant by id (participantId): give each participant the id its fields use.',
        'INPUT_INVALID',
      );
    }
    return { id: participant.id, role: participant.role, name: participant.name };
  });
}

export default defineCommand<CheckArgs>({
  name: 'check',
  description: 'Check a fields file against a local PDF, offline: what the service would refuse (exit 5) and what looks wrong',
  options: [
    { flags: '--local <file.pdf>', description: 'the PDF the fields are for (required: the check runs offline)', completion: 'file' },
    { flags: '-f, --file <path>', description: 'fields.yaml or fields.json, as for `fields put`; - reads standard input', completion: 'file' },
    { flags: '--participants <path>', description: 'participants.yaml with ids and roles, to find signers without a SIGNATURE field', completion: 'file' },
  ],
  examples: ['esign fields check --local contract.pdf --file fields.yaml', 'esign fields check --local contract.pdf -f fields.yaml --participants participants.yaml --json'],
  async handler(args, ctx) {
    if (!args.local) throw new UsageError('--local is required: the check runs offline over the PDF itself.', 'Pass --local contract.pdf.');
    if (!args.file) throw new UsageError('--file is required.', 'Give the fields file: --file fields.yaml.');
    if (args.file === '-' && args.participants === '-') throw new UsageError('Only one of --file and --participants can read standard input.');
    const { placement, locations, problems, refused } = await placeFieldsFileLocally(args.local, args.file, ctx.stdin);
    const participants = await participantsFor(args, [...placement.placed, ...refused.filter((field) => typeof field.participantId === 'string')], ctx.stdin);
    // A signer whose SIGNATURE field is refused still has one: the problem is reported, not a missing signature.
    const refusedSigners = new Set(refused.filter((field) => field.type === 'SIGNATURE').map((field) => field.participantId));
    const warnings = warningFindings(
      checkFieldsForPeople([{ documentId: args.local, fields: placement.placed }], participants).filter(
        (warning) => !(warning.code === 'SIGNER_WITHOUT_SIGNATURE' && warning.participantId && refusedSigners.has(warning.participantId)),
      ),
      locations,
    );
    if (problems.length > 0) throw refusedFields(problems, warnings);
    for (const warning of warnings) ctx.output.warn(findingLine(warning));
    ctx.output.result({ ok: true, fields: placement.placed, warnings }, () => {
      const table = renderTable(
        placement.placed,
        [
          { header: 'FIELD', value: (field) => locations.byId(field.id) ?? field.id },
          { header: 'TYPE', value: (field) => field.type },
          { header: 'PARTICIPANT', value: (field) => field.participantId },
          { header: 'PAGE', value: (field) => String(field.page) },
          { header: 'X,Y', value: (field) => `${round(field.x)},${round(field.y)}` },
          { header: 'SIZE', value: (field) => `${round(field.width)}×${round(field.height)}` },
          { header: 'ANCHOR', value: (field) => (field.anchor ? `${JSON.stringify(field.anchor.text)} #${field.anchor.occurrence}` : '') },
        ],
        ctx.output.style,
      );
      const verdict = `${placement.placed.length} field${placement.placed.length === 1 ? '' : 's'} placed on ${args.local}; the service would accept them${warnings.length ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'})` : ''}.`;
      return placement.placed.length ? `${table}\n${verdict}` : verdict;
    }, () => placement.placed.map((field) => field.id));
  },
});
