/* Templates as the CLI reads them: the contract shows no template record, so the names are read tolerantly. */
import type { TemplateAnswer, TemplateSlotAnswer } from '../../api/answers.js';
import type { Styles } from '../../output/output.js';
import { renderFields, renderTable, type Column } from '../../output/table.js';
import { visible } from '../../output/sanitize.js';

export type TemplateSlotBody = TemplateSlotAnswer;
export type TemplateBody = TemplateAnswer;

export const templateIdOf = (template: TemplateBody): string => template.id ?? template.templateId ?? '?';
export const templateNameOf = (template: TemplateBody): string => template.name ?? template.title ?? '-';
export const slotsOf = (template: TemplateBody): TemplateSlotBody[] => template.participants ?? template.roles ?? [];
export const slotIdOf = (slot: TemplateSlotBody): string => slot.templateParticipantId ?? slot.id ?? '?';
/** The label people give the slot ("Client", "Manager"); `role` is SIGNER/APPROVER. */
export const slotLabelOf = (slot: TemplateSlotBody): string => slot.label ?? slot.name ?? slot.role ?? '?';

export const templateColumns: readonly Column<TemplateBody>[] = [
  { header: 'ID', value: templateIdOf },
  { header: 'NAME', value: templateNameOf, freeText: true },
  { header: 'ROLES', value: (template) => slotsOf(template).map(slotLabelOf).join(', ') || '-' },
];

export function renderTemplate(template: TemplateBody, style: Styles): string {
  const pairs: [string, string][] = [
    ['Template', templateIdOf(template)],
    ['Name', templateNameOf(template)],
  ];
  if (template.description) pairs.push(['Description', template.description]);
  if (!template.documents && template.documentIds) pairs.push(['Documents', template.documentIds.join(', ') || '-']);
  // The document ids are what `anchors find --template` takes, so they are shown, not only the file names.
  const documents = template.documents?.length
    ? `\n\n${style.bold('Documents')} (the id is what \`esign anchors find --template ${visible(templateIdOf(template))} <documentId>\` takes)\n${renderTable(
        template.documents,
        [
          { header: 'ID', value: (d) => d.documentId ?? d.id ?? '?' },
          { header: 'FILE', value: (d) => d.fileName ?? '-', freeText: true },
          { header: 'PAGES', value: (d) => (d.pageCount ? String(d.pageCount) : '-') },
        ],
        style,
      )}`
    : '';
  const slots = [...slotsOf(template)].sort((a, b) => (a.signingOrder ?? 0) - (b.signingOrder ?? 0));
  const table = slots.length
    ? renderTable(
        slots,
        [
          { header: 'ORDER', value: (s) => (s.signingOrder === undefined ? '-' : String(s.signingOrder)) },
          { header: 'TEMPLATE ROLE', value: slotLabelOf },
          { header: 'ROLE', value: (s) => s.role ?? '-' },
          { header: 'TEMPLATE PARTICIPANT ID', value: slotIdOf },
        ],
        style,
      )
    : 'No roles.';
  return `${renderFields(pairs)}${documents}\n\n${style.bold('Roles')} (templateRole or templateParticipantId in a participants file)\n${table}`;
}
