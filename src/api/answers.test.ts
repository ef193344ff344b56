import { describe, expect, it } from 'vitest';
import { answerShapes, checkAnswer, type AnswerShape } from './answers.js';
import { getOperation, operations } from './operations.js';

const envelope = {
  id: 'e1',
  title: 'NDA',
  message: null,
  status: 'DRAFT',
  deadline: null,
  folder: { id: 'f', name: '' },
  sender: { id: 's', name: 'Ada' },
  participants: [{ id: 'p', name: 'Ada', email: 'ada@example.com', phoneNumber: null, signingOrder: 1, status: 'PENDING', isTurn: false }],
  documents: [{ documentId: 'd', fileName: 'a.pdf', status: 'READY', pageCount: null }],
  somethingNew: { the: ['service', 'may', 'add'] },
};

describe('operation table: what each operation answers (pins.md, "Wire shapes")', () => {
  it('names a known shape for every operation', () => {
    for (const op of operations) expect(Object.keys(answerShapes)).toContain(op.answers);
  });
  it('lets only 204-style operations answer nothing', () => {
    // pins.md: delete draft → 204; the PATCH of a participant answers 204 (docs/contract-assumptions.md).
    expect(getOperation('deleteEnvelope')).toMatchObject({ answers: 'none', mayAnswerNothing: true });
    expect(getOperation('correctParticipant')).toMatchObject({ answers: 'none', mayAnswerNothing: true });
    expect(getOperation('getEnvelope')).toMatchObject({ answers: 'envelope', mayAnswerNothing: false });
    expect(getOperation('moveEnvelope')).toMatchObject({ answers: 'envelope', mayAnswerNothing: true });
  });
  it('describes every paginated operation as a page', () => {
    for (const op of operations.filter((op) => op.paginated)) expect(op.answers).toMatch(/^(page|\w+Page)$/);
  });
});

describe('checkAnswer', () => {
  const accepts = (shape: AnswerShape, body: unknown) => expect(checkAnswer(shape, body)).toEqual({ ok: true });
  const refuses = (shape: AnswerShape, body: unknown, problem: RegExp) => {
    const verdict = checkAnswer(shape, body);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? [] : verdict.problems.join('\n')).toMatch(problem);
  };

  it('accepts the emulator-style envelope with nulls and fields esign does not know', () => accepts('envelope', envelope));
  it('accepts an envelope id under envelopeId (pins.md: ids read tolerantly)', () => accepts('envelope', { envelopeId: 'e1' }));
  it('refuses an envelope that is a list, has no id, or whose nested reads would crash', () => {
    refuses('envelope', [], /expected object/);
    refuses('envelope', { title: 'x' }, /without id/);
    refuses('envelope', { ...envelope, participants: 'Ada' }, /^participants: .*expected array/);
    refuses('envelope', { ...envelope, participants: [null] }, /^participants\[0\]: /);
    refuses('envelope', { ...envelope, folder: 'f' }, /^folder: /);
    refuses('envelope', { ...envelope, title: 5 }, /^title: .*expected string/);
  });
  it('checks a page: data is a list and nextCursor a string or null', () => {
    accepts('envelopePage', { data: [envelope], nextCursor: null });
    accepts('page', { data: [{}], nextCursor: 'abc' });
    refuses('envelopePage', { data: 5 }, /^data: /);
    refuses('page', { data: [], nextCursor: 7 }, /^nextCursor: /);
    refuses('page', [], /expected object/);
  });
  it('reads participants as {data}, {participants} or a bare list', () => {
    const participant = envelope.participants[0];
    accepts('participants', { data: [participant] });
    accepts('participants', { participants: [participant] });
    accepts('participants', [participant]);
    expect(checkAnswer('participants', 'Ada, Alan').ok).toBe(false);
  });
  it('wants an id and an upload address from a registered document', () => {
    accepts('registeredDocument', { documentId: 'd', uploadUrl: 'https://up.example/x' });
    accepts('registeredDocument', { id: 'd', upload: { url: 'https://up.example/x' } });
    refuses('registeredDocument', { documentId: 'd' }, /without uploadUrl/);
    refuses('registeredDocument', { uploadUrl: 'https://up.example/x' }, /without documentId/);
  });
  it('wants numbers where anchor matches are formatted as points', () => {
    accepts('anchorMatches', { matches: [{ key: 'k', page: 1, x: 1, y: 2, width: 3, height: 4 }], truncated: false, pages: [] });
    refuses('anchorMatches', { matches: [{ key: 'k', page: 1, x: '1', y: 2, width: 3, height: 4 }] }, /^matches\[0\]\.x: /);
  });
  it('reports at most three problems', () => {
    const verdict = checkAnswer('envelope', { id: 1, title: 2, status: 3, message: 4, deadline: 5 });
    expect(verdict.ok ? 0 : verdict.problems.length).toBe(3);
  });
});
