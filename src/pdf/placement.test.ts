import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  HELVETICA_ASCENT,
  NDA_LINES,
  TEXT_LAYOUT,
  baselineOfLine,
  manyOccurrencesPdf,
  manyPagesPdf,
  ndaPdf,
  noTextPdf,
  simplePdf,
} from '../../test/support/pdfs.js';
import { uuidV5 } from '../shared/uuid.js';
import { PdfUnreadableError } from './errors.js';
import {
  checkFieldsForPeople,
  derivedFieldId,
  placeFields,
  toFieldResources,
  type FieldInput,
  type PlacedField,
  type PlacementInput,
  type PlacementResult,
} from './placement.js';
import { loadPdfText } from './text.js';
import type { PageInfo, PdfText } from './page-text.js';

const DOCUMENT_ID = 'doc_1';
const NAMESPACE = '3f1c1d2e-5b7a-4c61-9a0e-2b8f6d4c9e11';
const SIGNER = 'participant-signer';
const SIGNATURE_LINES = NDA_LINES.flatMap((line, index) => (line === '{{signature}}' ? [index] : []));

const ids = Array.from({ length: 8 }, (_, index) => `00000000-0000-4000-8000-00000000000${index}`);
const SIZE = { width: 150, height: 40 };

let nda: PdfText;
beforeAll(async () => {
  nda = await loadPdfText(await ndaPdf());
});

function place(fields: unknown[], overrides: Partial<PlacementInput> = {}): Promise<PlacementResult> {
  return placeFields({
    documentId: DOCUMENT_ID,
    idNamespace: NAMESPACE,
    pages: nda.pages,
    loadText: async () => nda,
    fields: fields as FieldInput[],
    ...overrides,
  });
}

function coordinateField(overrides: Partial<FieldInput> = {}): FieldInput {
  return { id: ids[0]!, participantId: SIGNER, type: 'SIGNATURE', pages: [1], position: { x: 72, y: 600 }, size: SIZE, ...overrides };
}

function anchorField(anchor: FieldInput['anchor'], overrides: Partial<FieldInput> = {}): FieldInput {
  return { id: ids[1]!, participantId: SIGNER, type: 'SIGNATURE', size: SIZE, anchor, ...overrides };
}

function problemsOf(result: PlacementResult) {
  if (result.ok) throw new Error('expected the placement to be refused');
  return result.problems;
}

function fieldsOf(result: PlacementResult): PlacedField[] {
  if (!result.ok) throw new Error(`expected the placement to succeed: ${JSON.stringify(result.problems)}`);
  return result.fields;
}

describe('placeFields: coordinates', () => {
  it('pages + position + size: one placed field per page, no text read', async () => {
    const loadText = vi.fn(async () => nda);
    const pages: PageInfo[] = [
      { page: 1, width: 612, height: 792, rotate: 0 },
      { page: 2, width: 612, height: 792, rotate: 0 },
    ];
    const result = await place([coordinateField({ pages: [1, 2], properties: { label: 'x' } })], { loadText, pages });
    expect(fieldsOf(result)).toEqual([
      { id: ids[0], participantId: SIGNER, type: 'SIGNATURE', page: 1, x: 72, y: 600, width: 150, height: 40, properties: { label: 'x' } },
      { id: ids[0], participantId: SIGNER, type: 'SIGNATURE', page: 2, x: 72, y: 600, width: 150, height: 40, properties: { label: 'x' } },
    ]);
    expect(loadText).not.toHaveBeenCalled();
  });

  it('null stands for an option left out', async () => {
    const fields = fieldsOf(await place([{ ...coordinateField(), anchor: null, properties: null }]));
    expect(fields).toHaveLength(1);
    expect(fields[0]).not.toHaveProperty('properties');
  });

  it('an empty array removes all fields: nothing to place, nothing refused', async () => {
    expect(fieldsOf(await place([]))).toEqual([]);
  });

  it('400 FIELD_PAGE_OUT_OF_BOUNDS: field page beyond the document, with documentId, page, pageCount', async () => {
    const [problem] = problemsOf(await place([coordinateField({ pages: [1, 3] })]));
    expect(problem).toMatchObject({
      status: 400,
      code: 'FIELD_PAGE_OUT_OF_BOUNDS',
      details: { documentId: DOCUMENT_ID, page: 3, pageCount: 1 },
      fieldIndex: 0,
    });
  });

  it('400 FIELD_GEOMETRY_INVALID: position + size leaves the page', async () => {
    const problems = problemsOf(await place([coordinateField({ position: { x: 500, y: 100 } })]));
    expect(problems).toMatchObject([{ status: 400, code: 'FIELD_GEOMETRY_INVALID', fieldIndex: 0, details: { fieldId: ids[0], page: 1 } }]);
  });
});

describe('placeFields: every problem at once (everyProblem, for offline checks)', () => {
  const fields = () => [
    anchorField({ text: 'NoSuchText' }),
    coordinateField({ id: ids[2]!, pages: [9] }),
    coordinateField({ id: ids[3]!, type: 'TEXT' }),
    coordinateField({ id: ids[4]!, type: 'BOGUS' as never }),
    anchorField({ text: '{{signature}}' }, { id: ids[5]! }),
  ];

  it('the service stops at the first stage that fails', async () => {
    expect(problemsOf(await place(fields())).map((problem) => problem.code)).toEqual(['VALIDATION_ERROR']);
  });

  it('with everyProblem, each stage runs on the fields the earlier ones did not refuse, and what could be placed comes back', async () => {
    const result = await place(fields(), { everyProblem: true });
    expect(problemsOf(result).map((problem) => [problem.code, problem.fieldIndex])).toEqual([
      ['VALIDATION_ERROR', 3],
      ['FIELD_PAGE_OUT_OF_BOUNDS', 1],
      ['ANCHOR_NOT_FOUND', undefined],
    ]);
    expect(problemsOf(result)[2]!.details).toMatchObject({ anchors: [{ fieldId: ids[1], text: 'NoSuchText' }] });
    expect(result.ok ? [] : result.placed!.map((field) => field.id)).toEqual([ids[3], ids[5]]);
  });
});

describe('placeFields: shape of a placement', () => {
  it.each([
    ['both pages+position and anchor', { anchor: { text: 'x' } }],
    ['neither pages+position nor anchor', { pages: undefined, position: undefined }],
    ['pages without position', { position: undefined }],
    ['size missing', { size: undefined }],
  ])('400 FIELD_PLACEMENT_INVALID: %s', async (_, overrides) => {
    const problems = problemsOf(await place([coordinateField(overrides as Partial<FieldInput>)]));
    expect(problems).toMatchObject([{ status: 400, code: 'FIELD_PLACEMENT_INVALID', fieldIndex: 0 }]);
  });

  it('400 FIELD_PLACEMENT_INVALID: CHECKBOX_GROUP and RADIO_GROUP do not accept anchor', async () => {
    const problems = problemsOf(
      await place([
        anchorField({ text: 'x' }, { type: 'CHECKBOX_GROUP', id: ids[1]! }),
        anchorField({ text: 'x' }, { type: 'RADIO_GROUP', id: ids[2]! }),
      ]),
    );
    expect(problems.map((problem) => [problem.code, problem.fieldIndex])).toEqual([
      ['FIELD_PLACEMENT_INVALID', 0],
      ['FIELD_PLACEMENT_INVALID', 1],
    ]);
  });

  it.each([
    ['an unknown type', { type: 'STAMP' }],
    ['an id that is not a UUID', { id: 'field-1' }],
    ['a size that is not positive', { size: { width: 0, height: 10 } }],
    ['a page that is not an integer from 1', { pages: [0] }],
  ])('400 VALIDATION_ERROR: %s', async (_, overrides) => {
    const problems = problemsOf(await place([coordinateField(overrides as Partial<FieldInput>)]));
    expect(problems).toMatchObject([{ status: 400, code: 'VALIDATION_ERROR', fieldIndex: 0 }]);
  });

  it('400 VALIDATION_ERROR: anchor text 1 to 200 characters', async () => {
    for (const text of ['', 'x'.repeat(201)]) {
      expect(problemsOf(await place([anchorField({ text })]))).toMatchObject([{ code: 'VALIDATION_ERROR', message: expect.stringMatching(/1 to 200/) }]);
    }
  });

  it('400 VALIDATION_ERROR: id unique in the document', async () => {
    const problems = problemsOf(await place([coordinateField(), coordinateField({ position: { x: 72, y: 100 } })]));
    expect(problems).toMatchObject([{ code: 'VALIDATION_ERROR', fieldIndex: 1, message: expect.stringMatching(/already used/) }]);
  });

  it('reports every malformed field, not only the first', async () => {
    const problems = problemsOf(await place([coordinateField({ type: 'X' as never }), null, anchorField(undefined, { id: ids[2]! })]));
    expect(problems.map((problem) => problem.fieldIndex)).toEqual([0, 1, 2]);
  });
});

describe('placeFields: anchors', () => {
  const top = (lineIndex: number) => baselineOfLine(lineIndex) - HELVETICA_ASCENT * TEXT_LAYOUT.fontSize;

  it("occurrence 'first' by default: the field keeps its id and sits at the found text plus offset", async () => {
    const fields = fieldsOf(await place([anchorField({ text: '{{signature}}', offset: { x: 0, y: -10 } })]));
    expect(fields).toHaveLength(1);
    expect(fields[0]).toMatchObject({ id: ids[1], page: 1, x: TEXT_LAYOUT.left, width: 150, height: 40, anchor: { text: '{{signature}}', occurrence: 1 } });
    expect(fields[0]!.y).toBeCloseTo(top(SIGNATURE_LINES[0]!) - 10, 6);
  });

  it('occurrence N: the N-th in the whole document, the field keeps its id', async () => {
    const fields = fieldsOf(await place([anchorField({ text: '{{signature}}', occurrence: 2 })]));
    expect(fields).toMatchObject([{ id: ids[1], anchor: { occurrence: 2 } }]);
    expect(fields[0]!.y).toBeCloseTo(top(SIGNATURE_LINES[1]!), 6);
  });

  it("occurrence 'all': the first keeps the id sent, the others get a UUID v5 id identical on each repeat", async () => {
    const field = anchorField({ text: '{{signature}}', occurrence: 'all' });
    const first = fieldsOf(await place([field]));
    const again = fieldsOf(await place([field]));
    expect(first.map((placed) => placed.id)).toEqual([ids[1], uuidV5(`${ids[1]}:2`, NAMESPACE)]);
    expect(again).toEqual(first);
    expect(derivedFieldId(ids[1]!, 2, NAMESPACE)).toBe(first[1]!.id);
    const elsewhere = fieldsOf(await place([field], { idNamespace: uuidV5('other document', NAMESPACE) }));
    expect(elsewhere[1]!.id).not.toBe(first[1]!.id);
  });

  it('ids generated by anchors are accepted back in a later replacement, as coordinates', async () => {
    const generated = fieldsOf(await place([anchorField({ text: '{{signature}}', occurrence: 'all' })]));
    const sentBack = toFieldResources(generated, nda.pages).map(({ id, participantId, type, pages, position, size }) => ({ id, participantId, type, pages, position, size }));
    expect(fieldsOf(await place(sentBack)).map((field) => field.id)).toEqual(generated.map((field) => field.id));
  });

  it('400 VALIDATION_ERROR: a generated id also sent for another field', async () => {
    const derived = derivedFieldId(ids[1]!, 2, NAMESPACE);
    const problems = problemsOf(await place([anchorField({ text: '{{signature}}', occurrence: 'all' }), coordinateField({ id: derived })]));
    expect(problems).toMatchObject([{ code: 'VALIDATION_ERROR', fieldIndex: 1 }]);
  });

  it('caseSensitive, matchWholeWord and repeated spaces follow the search rules', async () => {
    const text = await loadPdfText(await simplePdf({ pages: [['Signed by: ____', 'cosigned by: ____']] }));
    const fields = fieldsOf(
      await place([anchorField({ text: 'signed   BY:', occurrence: 'all', matchWholeWord: true })], { loadText: async () => text, pages: text.pages }),
    );
    expect(fields).toHaveLength(1);
    expect(problemsOf(await place([anchorField({ text: 'SIGNED BY:', caseSensitive: true })], { loadText: async () => text, pages: text.pages }))).toMatchObject([
      { code: 'ANCHOR_NOT_FOUND' },
    ]);
  });

  it("422 ANCHOR_NOT_FOUND lists all anchors not found, each with fieldId and text; ifNotFound 'ignore' is not listed", async () => {
    const problems = problemsOf(
      await place([
        anchorField({ text: 'first missing' }, { id: ids[1]! }),
        anchorField({ text: '{{signature}}' }, { id: ids[2]! }),
        anchorField({ text: 'second missing' }, { id: ids[3]! }),
        anchorField({ text: 'ignored missing', ifNotFound: 'ignore' }, { id: ids[4]! }),
      ]),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        status: 422,
        code: 'ANCHOR_NOT_FOUND',
        details: {
          anchors: [
            { fieldId: ids[1], text: 'first missing' },
            { fieldId: ids[3], text: 'second missing' },
          ],
          truncated: false,
        },
      }),
    ]);
  });

  it('422 ANCHOR_NOT_FOUND: truncated tells that reading stopped at the page ceiling', async () => {
    const text = await loadPdfText(await manyPagesPdf(501, (page) => (page === 501 ? 'LASTPAGE' : 'filler')));
    const problems = problemsOf(await place([anchorField({ text: 'LASTPAGE' })], { loadText: async () => text, pages: text.pages }));
    expect(problems).toMatchObject([{ code: 'ANCHOR_NOT_FOUND', details: { truncated: true } }]);
  });

  it("ifNotFound 'ignore': the field is omitted and the others stored", async () => {
    const fields = fieldsOf(await place([anchorField({ text: 'nowhere', ifNotFound: 'ignore' }), coordinateField()]));
    expect(fields.map((field) => field.id)).toEqual([ids[0]]);
  });

  it('422 ANCHOR_TOO_MANY_MATCHES: more than 200 fields generated by anchors in one PUT', async () => {
    const text = await loadPdfText(await manyOccurrencesPdf(250));
    const problems = problemsOf(await place([anchorField({ text: 'INITIAL', occurrence: 'all' })], { loadText: async () => text, pages: text.pages }));
    expect(problems).toMatchObject([{ status: 422, code: 'ANCHOR_TOO_MANY_MATCHES', details: { generated: 250, limit: 200 } }]);
  });

  it('exactly 200 fields generated by anchors are accepted', async () => {
    const text = await loadPdfText(await manyOccurrencesPdf(200));
    const fields = fieldsOf(await place([anchorField({ text: 'INITIAL', occurrence: 'all', offset: { x: 0, y: -30 } })], { loadText: async () => text, pages: text.pages }));
    expect(fields).toHaveLength(200);
    expect(new Set(fields.map((field) => field.id)).size).toBe(200);
  });

  it('400 FIELD_GEOMETRY_INVALID: the found position + offset + size leaves the page', async () => {
    const problems = problemsOf(await place([anchorField({ text: 'MUTUAL', offset: { x: 0, y: -200 } })]));
    expect(problems).toMatchObject([{ status: 400, code: 'FIELD_GEOMETRY_INVALID', fieldIndex: 0 }]);
  });

  it('422 DOCUMENT_HAS_NO_TEXT: an anchor is used and the PDF has no text layer', async () => {
    const text = await loadPdfText(await noTextPdf());
    const problems = problemsOf(await place([anchorField({ text: 'x' })], { loadText: async () => text, pages: text.pages }));
    expect(problems).toMatchObject([{ status: 422, code: 'DOCUMENT_HAS_NO_TEXT' }]);
  });

  it('422 DOCUMENT_TEXT_UNREADABLE: reading the text failed or ran out of time', async () => {
    const loadText = async () => {
      throw new PdfUnreadableError('broken xref');
    };
    expect(problemsOf(await place([anchorField({ text: 'x' })], { loadText }))).toMatchObject([{ status: 422, code: 'DOCUMENT_TEXT_UNREADABLE' }]);
  });

  it('a PUT with only coordinates performs no search', async () => {
    const loadText = vi.fn(async () => nda);
    await place([coordinateField()], { loadText });
    expect(loadText).not.toHaveBeenCalled();
  });
});

describe('toFieldResources', () => {
  it('reading fields returns resolved coordinates as whole points, one entry per id with all its pages', () => {
    const placed: PlacedField[] = [
      { id: ids[0]!, participantId: SIGNER, type: 'TEXT', page: 1, x: 72.4, y: 99.6, width: 150.2, height: 39.5, properties: { label: 'Name' } },
      { id: ids[0]!, participantId: SIGNER, type: 'TEXT', page: 3, x: 72.4, y: 99.6, width: 150.2, height: 39.5, properties: { label: 'Name' } },
      { id: ids[1]!, participantId: SIGNER, type: 'SIGNATURE', page: 2, x: 10, y: 20, width: 30, height: 40, anchor: { text: 'x', occurrence: 1 } },
    ];
    const pages = [1, 2, 3].map((page) => ({ page, width: 612, height: 792, rotate: 0 as const }));
    expect(toFieldResources(placed, pages)).toEqual([
      { id: ids[0], participantId: SIGNER, type: 'TEXT', pages: [1, 3], position: { x: 72, y: 100 }, size: { width: 150, height: 40 }, properties: { label: 'Name' } },
      { id: ids[1], participantId: SIGNER, type: 'SIGNATURE', pages: [2], position: { x: 10, y: 20 }, size: { width: 30, height: 40 } },
    ]);
  });

  it('rounding never pushes a box off its page, so the fields read can be sent back', async () => {
    const a4 = [{ page: 1, width: 595.28, height: 841.89, rotate: 0 as const }];
    const placed: PlacedField[] = [{ id: ids[0]!, participantId: SIGNER, type: 'SIGNATURE', page: 1, x: 445.5, y: 801.6, width: 149.6, height: 40.2 }];
    const [resource] = toFieldResources(placed, a4);
    expect(resource).toMatchObject({ position: { x: 445, y: 801 }, size: { width: 150, height: 40 } });
    const { id, participantId, type, pages, position, size } = resource!;
    expect(fieldsOf(await place([{ id, participantId, type, pages, position, size }], { pages: a4 }))).toHaveLength(1);
  });
});

describe('checkFieldsForPeople', () => {
  const field = (id: string, overrides: Partial<PlacedField> = {}): PlacedField => ({
    id,
    participantId: SIGNER,
    type: 'SIGNATURE',
    page: 1,
    x: 100,
    y: 100,
    width: 100,
    height: 40,
    ...overrides,
  });

  it('warns about two fields overlapping on the same page of one document', () => {
    const warnings = checkFieldsForPeople([{ documentId: 'd1', fields: [field(ids[0]!), field(ids[1]!, { x: 150, type: 'TEXT' }), field(ids[2]!, { y: 140 })] }]);
    expect(warnings).toEqual([expect.objectContaining({ code: 'FIELDS_OVERLAP', documentId: 'd1', page: 1, fieldIds: [ids[0], ids[1]] })]);
  });

  it('fields on the same page number of different documents do not overlap', () => {
    expect(checkFieldsForPeople([{ documentId: 'd1', fields: [field(ids[0]!)] }, { documentId: 'd2', fields: [field(ids[1]!)] }])).toEqual([]);
  });

  it('warns about a signer without a SIGNATURE field and a field for someone who is not a participant', () => {
    const participants = [
      { id: SIGNER, role: 'SIGNER' as const },
      { id: 'second-signer', role: 'SIGNER' as const, name: 'Bea' },
      { id: 'approver', role: 'APPROVER' as const },
    ];
    const warnings = checkFieldsForPeople([{ documentId: 'd1', fields: [field(ids[0]!), field(ids[1]!, { page: 2, participantId: 'stranger', type: 'TEXT' })] }], participants);
    expect(warnings.map((warning) => [warning.code, warning.participantId])).toEqual([
      ['FIELD_PARTICIPANT_UNKNOWN', 'stranger'],
      ['SIGNER_WITHOUT_SIGNATURE', 'second-signer'],
    ]);
  });
});
