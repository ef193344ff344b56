/**
 * Specs that `esign batch validate` refuses, each for one reason, shared by the test that holds the JSON Schema of
 * batch files (schema/esign-batch.schema.json) to refusing them too. Every spec is `validSpec` (which both accept) with
 * one thing wrong; its one document is `document.pdf`, which the test draws beside the specs.
 */
export const DOCUMENT_FILE = 'document.pdf';

const field = { type: 'SIGNATURE', documentRef: 'doc', participantRef: 'ada', pageNumber: 1, position: { x: 100, y: 100 }, size: { width: 120, height: 30 } };
const anchorField = { type: 'SIGNATURE', documentRef: 'doc', participantRef: 'ada', anchor: { text: 'Signature' }, size: { width: 120, height: 30 } };
const participant = { ref: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

export const validSpec = {
  title: 'Agreement',
  participants: [participant],
  documents: [{ ref: 'doc', file: DOCUMENT_FILE }],
  fields: [field, anchorField],
};

function withField(changed: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  const value: Record<string, unknown> = { ...field, ...changed };
  for (const key of drop) delete value[key];
  return { ...validSpec, fields: [value] };
}

function withParticipant(changed: Record<string, unknown>): Record<string, unknown> {
  return { ...validSpec, participants: [{ ...participant, ...changed }] };
}

/** Each one: what is wrong, and the spec or batch file (a batch file has `version: 1`). */
export const invalidSpecs: readonly (readonly [reason: string, spec: Record<string, unknown>])[] = [
  ['a field with both an anchor and pageNumber + position', withField({ anchor: { text: 'Signature' } })],
  ['a field with an anchor and pageNumber only', withField({ anchor: { text: 'Signature' } }, ['position'])],
  ['a field with neither an anchor nor pageNumber + position', withField({}, ['pageNumber', 'position'])],
  ['a field with pageNumber but no position', withField({}, ['position'])],
  ['a field without size', withField({}, ['size'])],
  ['a CHECKBOX_GROUP with an anchor', { ...validSpec, fields: [{ ...anchorField, type: 'CHECKBOX_GROUP' }] }],
  ['a RADIO_GROUP with an anchor', { ...validSpec, fields: [{ ...anchorField, type: 'RADIO_GROUP' }] }],
  ['anchor text of 201 characters', { ...validSpec, fields: [{ ...anchorField, anchor: { text: 'x'.repeat(201) } }] }],
  ['empty anchor text', { ...validSpec, fields: [{ ...anchorField, anchor: { text: '' } }] }],
  ['deliveryMethod SMS without a phone number', withParticipant({ deliveryMethod: 'SMS' })],
  ['deliveryMethod WHATSAPP without a phone number', withParticipant({ deliveryMethod: 'WHATSAPP' })],
  ['a phone number that is not E.164', withParticipant({ deliveryMethod: 'SMS', phoneNumber: '0612345678' })],
  ['an invalid e-mail address', withParticipant({ email: 'ada@exa_mple.com' })],
  ['a name of spaces only', withParticipant({ name: '   ' })],
  ['a missing title', { participants: validSpec.participants, documents: validSpec.documents, fields: validSpec.fields }],
  ['a title of spaces only', { ...validSpec, title: '  ' }],
  ['an unknown key', { ...validSpec, titel: 'Agreement' }],
  ['no participants', { ...validSpec, participants: [] }],
  ['a batch entry without a title, and defaults without one', { version: 1, defaults: { documents: validSpec.documents }, envelopes: [{ ref: 'a', participants: validSpec.participants, fields: [field] }] }],
  ['a batch entry with an invalid e-mail address', { version: 1, envelopes: [{ ...withParticipant({ email: 'not an address' }), ref: 'a' }] }],
  [
    'a template entry with an invalid e-mail address',
    { version: 1, envelopes: [{ ref: 't', via: 'template', templateId: 'tpl-1', participants: [{ templateRole: 'Signer', name: 'Ada', email: 'ada@@example.com' }] }] },
  ],
  ['a template participant with both templateRole and templateParticipantId', { via: 'template', templateId: 'tpl-1', participants: [{ templateRole: 'Signer', templateParticipantId: 'p1', name: 'Ada', email: 'ada@example.com' }] }],
];
