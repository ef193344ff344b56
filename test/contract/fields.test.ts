import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { addDocument, draftWithSigners, findAnchors, getFields, putFields, registerDocument } from '../support/documents.js';
import { useEmulator } from '../support/emulator.js';
import { createSentEnvelope, send } from '../support/envelope-flow.js';
import {
  baselineOfLine,
  HELVETICA_ASCENT,
  manyOccurrencesPdf,
  ndaPdf,
  noTextPdf,
  REPEATED_WORD,
  simplePdf,
  TEXT_LAYOUT,
} from '../support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);

/** Top of the text on NDA line `line` (Helvetica 12 at TEXT_LAYOUT), as anchors find it. */
const textTop = (line: number): number => baselineOfLine(line) - HELVETICA_ASCENT * TEXT_LAYOUT.fontSize;
const SIGNATURE_LINES = [7, 12];

interface Setup {
  envelopeId: string;
  documentId: string;
  signer: string;
  other: string;
}

/** A DRAFT with two signers and one READY document (the NDA unless other bytes are given). */
async function setup(bytes?: Uint8Array): Promise<Setup> {
  const { envelopeId, participantIds } = await draftWithSigners(emulator);
  const document = await addDocument(emulator, envelopeId, bytes ?? (await ndaPdf()));
  expect(document.status).toBe('READY');
  return { envelopeId, documentId: document.documentId, signer: participantIds[0]!, other: participantIds[1]! };
}

function coordinateField(participantId: string, overrides: Record<string, unknown> = {}) {
  return { id: randomUUID(), participantId, type: 'SIGNATURE', pages: [1], position: { x: 72, y: 300 }, size: { width: 150, height: 40 }, ...overrides };
}

function anchorField(participantId: string, anchor: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  return { id: randomUUID(), participantId, type: 'SIGNATURE', size: { width: 150, height: 30 }, anchor, ...overrides };
}

async function expectRefused(answer: { status: number; body: any }, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error.code).toBe(code);
  return answer.body.error;
}

describe('PUT fields: replacement', () => {
  it('answers {created, updated, deleted}; "a field whose id is absent from the body is removed"', async () => {
    const { envelopeId, documentId, signer, other } = await setup();
    const kept = coordinateField(signer);
    const dropped = coordinateField(other, { position: { x: 300, y: 300 } });
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [kept, dropped]), 200).body).toEqual({ created: 2, updated: 0, deleted: 0 });
    const added = coordinateField(other, { type: 'INITIALS', position: { x: 72, y: 500 }, size: { width: 60, height: 30 } });
    const moved = { ...kept, position: { x: 80, y: 320 } };
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [moved, added]), 200).body).toEqual({ created: 1, updated: 1, deleted: 1 });
    const fields = await getFields(emulator, envelopeId, documentId);
    expect(fields.map((field) => field.id).sort()).toEqual([kept.id, added.id].sort());
    expect(fields.find((field) => field.id === kept.id).position).toEqual({ x: 80, y: 320 });
  });

  it('"An empty array removes all fields", also on a document that is not processed yet', async () => {
    const { envelopeId, documentId, signer } = await setup();
    await putFields(emulator, envelopeId, documentId, [coordinateField(signer), coordinateField(signer, { position: { x: 300, y: 300 } })]);
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, []), 200).body).toEqual({ created: 0, updated: 0, deleted: 2 });
    expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
    const waiting = await registerDocument(emulator, envelopeId);
    expect(expectStatus(await putFields(emulator, envelopeId, waiting.documentId, []), 200).body).toEqual({ created: 0, updated: 0, deleted: 0 });
  });

  it('GET fields answers {fields} in the contract shape, coordinates and sizes as whole points, pages as sent', async () => {
    const { envelopeId, documentId, signer } = await setup(await simplePdf({ pages: [['one'], ['two'], ['three']] }));
    const field = coordinateField(signer, {
      type: 'TEXT',
      pages: [1, 3],
      position: { x: 100.4, y: 200.6 },
      size: { width: 120.5, height: 20.49 },
      properties: { label: 'Company' },
    });
    expectStatus(await putFields(emulator, envelopeId, documentId, [field]), 200);
    expect(await getFields(emulator, envelopeId, documentId)).toEqual([
      { id: field.id, participantId: signer, type: 'TEXT', pages: [1, 3], position: { x: 100, y: 201 }, size: { width: 121, height: 20 }, properties: { label: 'Company' } },
    ]);
  });
});

describe('PUT fields: refusals store nothing', () => {
  it('400 FIELD_PLACEMENT_INVALID: "both or neither" of pages+position and anchor, or size missing', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const existing = coordinateField(signer);
    expectStatus(await putFields(emulator, envelopeId, documentId, [existing]), 200);
    const both = coordinateField(signer, { anchor: { text: '{{signature}}' } });
    const neither = { id: randomUUID(), participantId: signer, type: 'SIGNATURE', size: { width: 10, height: 10 } };
    const noSize = { id: randomUUID(), participantId: signer, type: 'SIGNATURE', pages: [1], position: { x: 1, y: 1 } };
    for (const field of [both, neither, noSize]) {
      await expectRefused(await putFields(emulator, envelopeId, documentId, [field]), 400, 'FIELD_PLACEMENT_INVALID');
    }
    expect((await getFields(emulator, envelopeId, documentId)).map((field) => field.id)).toEqual([existing.id]);
  });

  it('400 FIELD_PLACEMENT_INVALID: "CHECKBOX_GROUP and RADIO_GROUP do not accept anchor"', async () => {
    const { envelopeId, documentId, signer } = await setup();
    for (const type of ['CHECKBOX_GROUP', 'RADIO_GROUP']) {
      await expectRefused(await putFields(emulator, envelopeId, documentId, [anchorField(signer, { text: 'Date' }, { type })]), 400, 'FIELD_PLACEMENT_INVALID');
    }
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [coordinateField(signer, { type: 'CHECKBOX_GROUP' })]), 200).body.created).toBe(1);
  });

  it('400 FIELD_PAGE_OUT_OF_BOUNDS with details {documentId, page, pageCount}', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const error = await expectRefused(await putFields(emulator, envelopeId, documentId, [coordinateField(signer, { pages: [1, 2] })]), 400, 'FIELD_PAGE_OUT_OF_BOUNDS');
    expect(error.details).toEqual({ documentId, page: 2, pageCount: 1 });
    expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
  });

  it('400 FIELD_GEOMETRY_INVALID: "position + size (or, with an anchor, the found position + offset + size) leaves the page"', async () => {
    const { envelopeId, documentId, signer } = await setup();
    await expectRefused(
      await putFields(emulator, envelopeId, documentId, [coordinateField(signer, { position: { x: 500, y: 700 }, size: { width: 150, height: 40 } })]),
      400,
      'FIELD_GEOMETRY_INVALID',
    );
    await expectRefused(
      await putFields(emulator, envelopeId, documentId, [anchorField(signer, { text: '{{signature}}', offset: { x: 0, y: -300 } })]),
      400,
      'FIELD_GEOMETRY_INVALID',
    );
    expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
  });

  it('400 FIELD_PARTICIPANT_UNKNOWN when participantId is not a participant of the envelope', async () => {
    const { envelopeId, documentId } = await setup();
    const error = await expectRefused(await putFields(emulator, envelopeId, documentId, [coordinateField(randomUUID())]), 400, 'FIELD_PARTICIPANT_UNKNOWN');
    expect(error.details.fields).toHaveLength(1);
  });

  it('400 VALIDATION_ERROR for an id used twice in one PUT or not a UUID; 409 FIELD_ID_IN_USE for an id of another document ("not reusable in another document")', async () => {
    const first = await setup();
    const field = coordinateField(first.signer);
    expectStatus(await putFields(emulator, first.envelopeId, first.documentId, [field]), 200);
    await expectRefused(await putFields(emulator, first.envelopeId, first.documentId, [field, { ...field, position: { x: 300, y: 300 } }]), 400, 'VALIDATION_ERROR');
    await expectRefused(await putFields(emulator, first.envelopeId, first.documentId, [{ ...field, id: 'field-1' }]), 400, 'VALIDATION_ERROR');

    const second = await setup();
    const error = await expectRefused(await putFields(emulator, second.envelopeId, second.documentId, [{ ...field, participantId: second.signer }]), 409, 'FIELD_ID_IN_USE');
    expect(error.details.fields[0]).toMatchObject({ fieldId: field.id, documentId: first.documentId });
    expect(await getFields(emulator, second.envelopeId, second.documentId)).toEqual([]);
  });

  it('409 DOCUMENT_NOT_READY before the document is processed, with an anchor and (page count unknown) with coordinates', async () => {
    const { envelopeId, signer } = await setup();
    const waiting = await registerDocument(emulator, envelopeId);
    await expectRefused(await putFields(emulator, envelopeId, waiting.documentId, [anchorField(signer, { text: 'x' })]), 409, 'DOCUMENT_NOT_READY');
    await expectRefused(await putFields(emulator, envelopeId, waiting.documentId, [coordinateField(signer)]), 409, 'DOCUMENT_NOT_READY');
  });

  it('409 ENVELOPE_NOT_DRAFT once sent; 404 for a document of another envelope', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const elsewhere = await setup();
    await expectRefused(await putFields(emulator, envelopeId, elsewhere.documentId, [coordinateField(signer)]), 404, 'RESOURCE_NOT_FOUND');
    await send(emulator, envelopeId);
    await expectRefused(await putFields(emulator, envelopeId, documentId, [coordinateField(signer)]), 409, 'ENVELOPE_NOT_DRAFT');
  });
});

describe('PUT fields: anchors', () => {
  it('occurrence first by default: the field sits at the found text plus offset, as anchors:find reports it', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const field = anchorField(signer, { text: '{{signature}}', offset: { x: 10, y: -5 } });
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [field]), 200).body).toEqual({ created: 1, updated: 0, deleted: 0 });
    const found = expectStatus(await findAnchors(emulator, envelopeId, documentId, [{ key: 'k', text: '{{signature}}', occurrence: 'first', offset: { x: 10, y: -5 } }]), 200).body.matches[0];
    const [stored] = await getFields(emulator, envelopeId, documentId);
    expect(stored).toEqual({ id: field.id, participantId: signer, type: 'SIGNATURE', pages: [1], position: { x: Math.round(found.x), y: Math.round(found.y) }, size: { width: 150, height: 30 } });
    expect(stored.position).toEqual({ x: TEXT_LAYOUT.left + 10, y: Math.round(textTop(SIGNATURE_LINES[0]!) - 5) });
  });

  it('occurrence N: "the N-th in the whole document"', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const field = anchorField(signer, { text: '{{signature}}', occurrence: 2 });
    expectStatus(await putFields(emulator, envelopeId, documentId, [field]), 200);
    expect((await getFields(emulator, envelopeId, documentId))[0].position.y).toBe(Math.round(textTop(SIGNATURE_LINES[1]!)));
  });

  it('occurrence all: "the first field keeps the id sent", the others get derived ids "identical on each repeated PUT", so a repeat updates', async () => {
    const { envelopeId, documentId, signer } = await setup();
    const field = anchorField(signer, { text: '{{signature}}', occurrence: 'all' });
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [field]), 200).body).toEqual({ created: 2, updated: 0, deleted: 0 });
    const first = await getFields(emulator, envelopeId, documentId);
    expect(first).toHaveLength(2);
    expect(first[0].id).toBe(field.id);
    expect(first[1].id).not.toBe(field.id);
    expect(first.map((placed) => placed.position.y)).toEqual(SIGNATURE_LINES.map((line) => Math.round(textTop(line))));

    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [field]), 200).body).toEqual({ created: 0, updated: 2, deleted: 0 });
    expect(await getFields(emulator, envelopeId, documentId)).toEqual(first);

    // "Ids generated by anchors are returned and are accepted back in a later replacement."
    const backAsCoordinates = first.map(({ id, participantId, type, pages, position, size }) => ({ id, participantId, type, pages, position, size }));
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, backAsCoordinates), 200).body).toEqual({ created: 0, updated: 2, deleted: 0 });
  });

  it('the same anchor PUT on another document derives other ids', async () => {
    const one = await setup();
    const two = await setup();
    const anchor = { text: '{{signature}}', occurrence: 'all' };
    expectStatus(await putFields(emulator, one.envelopeId, one.documentId, [anchorField(one.signer, anchor)]), 200);
    expectStatus(await putFields(emulator, two.envelopeId, two.documentId, [anchorField(two.signer, anchor)]), 200);
    const ids = new Set([...(await getFields(emulator, one.envelopeId, one.documentId)), ...(await getFields(emulator, two.envelopeId, two.documentId))].map((field) => field.id));
    expect(ids.size).toBe(4);
  });

  it('422 ANCHOR_NOT_FOUND lists every anchor not found in details.anchors [{fieldId, text}] with details.truncated; nothing stored', async () => {
    const { envelopeId, documentId, signer, other } = await setup();
    const existing = coordinateField(signer);
    expectStatus(await putFields(emulator, envelopeId, documentId, [existing]), 200);
    const missingOne = anchorField(signer, { text: 'No such text' });
    const missingTwo = anchorField(other, { text: 'Nor this' });
    const present = anchorField(other, { text: 'Date:' });
    const error = await expectRefused(await putFields(emulator, envelopeId, documentId, [existing, missingOne, present, missingTwo]), 422, 'ANCHOR_NOT_FOUND');
    expect(error.details).toEqual({
      anchors: [
        { fieldId: missingOne.id, text: 'No such text' },
        { fieldId: missingTwo.id, text: 'Nor this' },
      ],
      truncated: false,
    });
    expect((await getFields(emulator, envelopeId, documentId)).map((field) => field.id)).toEqual([existing.id]);
  });

  it('ifNotFound ignore: the field is omitted and the others stored; "an already existing field with that id" is removed', async () => {
    const { envelopeId, documentId, signer, other } = await setup();
    const anchored = anchorField(signer, { text: '{{signature}}' });
    const plain = coordinateField(other);
    expectStatus(await putFields(emulator, envelopeId, documentId, [anchored, plain]), 200);
    const gone = { ...anchored, anchor: { text: 'Text that is not there', ifNotFound: 'ignore' } };
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [gone, plain]), 200).body).toEqual({ created: 0, updated: 1, deleted: 1 });
    expect((await getFields(emulator, envelopeId, documentId)).map((field) => field.id)).toEqual([plain.id]);
  });

  it('422 ANCHOR_TOO_MANY_MATCHES: "At most 200 fields generated by anchors in one PUT"', async () => {
    const { envelopeId, documentId, signer } = await setup(await manyOccurrencesPdf(250));
    const error = await expectRefused(
      await putFields(emulator, envelopeId, documentId, [anchorField(signer, { text: REPEATED_WORD, occurrence: 'all' }, { size: { width: 10, height: 10 } })]),
      422,
      'ANCHOR_TOO_MANY_MATCHES',
    );
    expect(error.details).toMatchObject({ generated: 250, limit: 200 });
    expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
    const allowed = anchorField(signer, { text: REPEATED_WORD, occurrence: 200 }, { size: { width: 10, height: 10 } });
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [allowed]), 200).body.created).toBe(1);
  });

  it('422 DOCUMENT_HAS_NO_TEXT: "A PDF without text layer"; coordinates still work on it', async () => {
    const { envelopeId, documentId, signer } = await setup(await noTextPdf());
    await expectRefused(await putFields(emulator, envelopeId, documentId, [anchorField(signer, { text: 'anything' })]), 422, 'DOCUMENT_HAS_NO_TEXT');
    expect(expectStatus(await putFields(emulator, envelopeId, documentId, [coordinateField(signer)]), 200).body.created).toBe(1);
  });

  it('"A PUT with only coordinates performs no search": accepted while anchor search is busy on the document', async () => {
    const { envelopeId, documentId, signer } = await setup(await simplePdf({ pages: Array.from({ length: 400 }, (_, page) => [`Page ${page + 1} {{mark}}`]) }));
    const search = findAnchors(emulator, envelopeId, documentId, [{ key: 'mark', text: '{{mark}}' }]);
    const coordinates = await putFields(emulator, envelopeId, documentId, [coordinateField(signer)]);
    expect(coordinates.status).toBe(200);
    expect((await search).status).toBe(200);
  });
});

describe('fields of a sent envelope', () => {
  it('409 SIGNATURES_NEED_RESET with details.affectedSignatoryIds once a participant signed (ENVELOPE_NOT_DRAFT before)', async () => {
    const envelope = await createSentEnvelope(emulator, { participants: [{ name: 'Ada', email: 'ada@example.test' }, { name: 'Bob', email: 'bob@example.test' }] });
    const documentId = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelope.id}/documents`), 200).body.data[0].documentId;
    const fields = envelope.participantIds.map((participantId, index) => ({
      id: randomUUID(),
      participantId,
      type: 'SIGNATURE',
      pages: [1],
      position: { x: 72, y: 200 + index * 60 },
      size: { width: 150, height: 40 },
    }));
    const path = `/v4/api/envelopes/${envelope.id}/documents/${documentId}/fields`;
    expect((await call(emulator, 'PUT', path, { body: { fields } })).body.error.code).toBe('ENVELOPE_NOT_DRAFT');
    const signed = await emulator.fetch(`/_emulator/envelopes/${envelope.id}/participants/${envelope.participantIds[0]}/sign`, { method: 'POST' });
    expect(signed.status).toBeLessThan(300);
    const refused = await call(emulator, 'PUT', path, { body: { fields: fields.slice(1) } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'SIGNATURES_NEED_RESET', details: { affectedSignatoryIds: [envelope.participantIds[0]] } });
    expect(expectStatus(await call(emulator, 'GET', path), 200).body.fields).toEqual([]);
  });
});
