import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { addDocument, draftWithSigners, findAnchors, getFields, processedDocument, putBytes, putFields, registerDocument } from '../support/documents.js';
import { syncParticipants } from '../support/envelope-flow.js';
import { useEmulator, type EmulatorProcess } from '../support/emulator.js';
import {
  baselineOfLine,
  cropBoxPdf,
  GAP_WORDS,
  HELVETICA_ASCENT,
  ligaturePdf,
  manyPagesPdf,
  ndaPdf,
  noTextPdf,
  rotatedPdf,
  simplePdf,
  splitItemsPdf,
  TEXT_LAYOUT,
  UPRIGHT_WORD_AT,
} from '../support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '20']);

const ascent = HELVETICA_ASCENT * TEXT_LAYOUT.fontSize;

/** A READY document in a fresh DRAFT. */
async function documentOf(target: EmulatorProcess, bytes: Uint8Array): Promise<{ envelopeId: string; documentId: string; signer: string }> {
  const { envelopeId, participantIds } = await draftWithSigners(target);
  const document = await addDocument(target, envelopeId, bytes);
  expect(document.status).toBe('READY');
  return { envelopeId, documentId: document.documentId, signer: participantIds[0]! };
}

async function search(target: EmulatorProcess, bytes: Uint8Array, searches: unknown[]) {
  const { envelopeId, documentId } = await documentOf(target, bytes);
  return expectStatus(await findAnchors(target, envelopeId, documentId, searches), 200).body;
}

/** A document whose text takes a while to read: a search on it is still running when a second request arrives. */
function slowPdf(): Promise<Uint8Array> {
  return simplePdf({ pages: Array.from({ length: 150 }, (_, page) => Array.from({ length: 30 }, (_, line) => `Page ${page + 1} line ${line + 1} {{mark}} and more words`)) });
}

describe('anchors:find', () => {
  it('answers 200 {pages, truncated, matches}; occurrence defaults to all; each match {key, page, x, y, width, height} at the top-left of the found text', async () => {
    const body = await search(emulator, await ndaPdf(), [{ key: 'sig', text: '{{signature}}' }]);
    expect(body.pages).toEqual([{ page: 1, width: 612, height: 792, rotate: 0 }]);
    expect(body.truncated).toBe(false);
    expect(body.matches).toHaveLength(2);
    body.matches.forEach((match: any, index: number) => {
      expect(Object.keys(match).sort()).toEqual(['height', 'key', 'page', 'width', 'x', 'y']);
      expect(match).toMatchObject({ key: 'sig', page: 1 });
      expect(match.x).toBeCloseTo(TEXT_LAYOUT.left, 1);
      expect(match.y).toBeCloseTo(baselineOfLine([7, 12][index]!) - ascent, 1);
      expect(match.width).toBeGreaterThan(0);
      expect(match.height).toBeGreaterThan(0);
    });
  });

  it('"No Idempotency-Key; repeating is safe": a key sent anyway is not checked and never replays an old answer after a new upload', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const registered = await registerDocument(emulator, envelopeId);
    expect((await putBytes(registered.uploadUrl, await ndaPdf())).status).toBe(200);
    await processedDocument(emulator, envelopeId, registered.documentId);
    const path = `/v4/api/envelopes/${envelopeId}/documents/${registered.documentId}/anchors:find`;
    const body = { searches: [{ key: 'sig', text: '{{signature}}' }] };
    const headers = { 'idempotency-key': 'abc' };
    expect(expectStatus(await call(emulator, 'POST', path, { body, headers }), 200).body.matches).toHaveLength(2);
    // The same search, the same key, after the content changed: the new content is searched.
    expect((await putBytes(registered.uploadUrl, await simplePdf({ pages: [['{{signature}} once']] }))).status).toBe(200);
    await processedDocument(emulator, envelopeId, registered.documentId);
    const again = await call(emulator, 'POST', path, { body, headers });
    expect(expectStatus(again, 200).body.matches).toHaveLength(1);
  });

  it('occurrence first and N ("N-th in whole document, page order"); "a key with no occurrence is simply absent from matches"', async () => {
    const body = await search(emulator, await simplePdf({ pages: [['{{sig}} one'], ['{{sig}} two', '{{sig}} three']] }), [
      { key: 'first', text: '{{sig}}', occurrence: 'first' },
      { key: 'third', text: '{{sig}}', occurrence: 3 },
      { key: 'fourth', text: '{{sig}}', occurrence: 4 },
      { key: 'missing', text: 'not in the document' },
    ]);
    expect(body.matches.map((match: any) => [match.key, match.page])).toEqual([
      ['first', 1],
      ['third', 2],
    ]);
    expect(body.matches[1].y).toBeCloseTo(baselineOfLine(1) - ascent, 1);
  });

  it('caseSensitive (default false), matchWholeWord ("no letter or digit stuck before or after"), offset, repeated spaces count as one', async () => {
    const body = await search(emulator, await ndaPdf(), [
      { key: 'folded', text: 'SIGNED BY:' },
      { key: 'exact', text: 'SIGNED BY:', caseSensitive: true },
      { key: 'part', text: 'sign' },
      { key: 'whole', text: 'sign', matchWholeWord: true },
      { key: 'spaces', text: 'Signed    by:', occurrence: 1 },
      { key: 'moved', text: 'Signed by:', occurrence: 1, offset: { x: -12.5, y: 30 } },
    ]);
    const byKey = (key: string) => body.matches.filter((match: any) => match.key === key);
    expect(byKey('folded')).toHaveLength(2);
    expect(byKey('exact')).toHaveLength(0);
    expect(byKey('part').length).toBeGreaterThan(0);
    expect(byKey('whole')).toHaveLength(0);
    const [spaces] = byKey('spaces');
    const [moved] = byKey('moved');
    expect(moved.x).toBeCloseTo(spaces.x - 12.5, 1);
    expect(moved.y).toBeCloseTo(spaces.y + 30, 1);
  });

  it.each([0, 90, 180, 270] as const)('rotation %i applied: pages report the displayed size and the upright word is found where it is displayed', async (rotate) => {
    const body = await search(emulator, await rotatedPdf(rotate), [{ key: 'word', text: 'UPRIGHT' }]);
    const turned = rotate % 180 !== 0;
    expect(body.pages).toEqual([{ page: 1, width: turned ? 800 : 600, height: turned ? 600 : 800, rotate }]);
    expect(body.matches).toHaveLength(1);
    expect(body.matches[0].x).toBeCloseTo(UPRIGHT_WORD_AT.x, 1);
    expect(body.matches[0].y).toBeCloseTo(UPRIGHT_WORD_AT.y - ascent, 1);
  });

  it('CropBox offset: positions are relative to the visible page box', async () => {
    const body = await search(emulator, await cropBoxPdf(), [{ key: 'word', text: 'UPRIGHT' }]);
    expect(body.pages).toEqual([{ page: 1, width: 400, height: 500, rotate: 0 }]);
    expect(body.matches[0].x).toBeCloseTo(UPRIGHT_WORD_AT.x, 1);
    expect(body.matches[0].y).toBeCloseTo(UPRIGHT_WORD_AT.y - ascent, 1);
  });

  it('text split over several items of a line is found in one match; a visible gap reads as a space', async () => {
    const body = await search(emulator, await splitItemsPdf(), [
      { key: 'placeholder', text: '{{signature}}' },
      { key: 'across', text: 'Please sign here' },
      { key: 'gap', text: GAP_WORDS.join(' ') },
    ]);
    expect(body.matches.map((match: any) => match.key)).toEqual(['placeholder', 'across', 'gap']);
    expect(body.matches[0].y).toBeCloseTo(baselineOfLine(0) - ascent, 1);
    expect(body.matches[1].x).toBeCloseTo(TEXT_LAYOUT.left, 1);
  });

  it('ligatures: a word drawn with an fi ligature glyph is still found (compatibility forms are matched)', async () => {
    const body = await search(emulator, await ligaturePdf(), [{ key: 'word', text: 'confidential' }]);
    expect(body.matches).toHaveLength(1);
    expect(body.matches[0].y).toBeCloseTo(baselineOfLine(0) - ascent, 1);
  });

  it('422 DOCUMENT_HAS_NO_TEXT for a PDF without a text layer', async () => {
    const { envelopeId, documentId } = await documentOf(emulator, await noTextPdf());
    const answer = await findAnchors(emulator, envelopeId, documentId, [{ key: 'k', text: 'anything' }]);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('DOCUMENT_HAS_NO_TEXT');
  });

  it('"truncated is true when the document has more than 500 pages; pages beyond were not searched"', async () => {
    const body = await search(emulator, await manyPagesPdf(501, (page) => `Marker of page ${page}.`), [
      { key: 'p500', text: 'Marker of page 500.' },
      { key: 'p501', text: 'Marker of page 501.' },
    ]);
    expect(body.truncated).toBe(true);
    expect(body.pages).toHaveLength(501);
    expect(body.matches.map((match: any) => [match.key, match.page])).toEqual([['p500', 500]]);
  }, 60_000);

  it('400 VALIDATION_ERROR: key up to 100 characters and unique in the call, text 1 to 200 characters, searches required', async () => {
    const { envelopeId, documentId } = await documentOf(emulator, await ndaPdf());
    const invalid = [
      [{ key: 'k'.repeat(101), text: 'x' }],
      [
        { key: 'same', text: 'a' },
        { key: 'same', text: 'b' },
      ],
      [{ key: 'k', text: '' }],
      [{ key: 'k', text: 'x'.repeat(201) }],
      [{ key: 'k', text: 'x', occurrence: 0 }],
      [],
    ];
    for (const searches of invalid) {
      const answer = await findAnchors(emulator, envelopeId, documentId, searches);
      expect(answer.status, JSON.stringify(searches)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/anchors:find`, { body: {} })).status).toBe(400);
    expect(expectStatus(await findAnchors(emulator, envelopeId, documentId, [{ key: 'k'.repeat(100), text: 'x'.repeat(200) }]), 200).body.matches).toEqual([]);
  });

  it('"The document must have finished processing, else 409 DOCUMENT_NOT_READY"; 404 for a document not in the envelope', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const waiting = await registerDocument(emulator, envelopeId);
    const answer = await findAnchors(emulator, envelopeId, waiting.documentId, [{ key: 'k', text: 'x' }]);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('DOCUMENT_NOT_READY');
    const other = await documentOf(emulator, await ndaPdf());
    expect((await findAnchors(emulator, envelopeId, other.documentId, [{ key: 'k', text: 'x' }])).status).toBe(404);
  });

  it('"Searches are run one per document": a second search while one runs gets 503 ANCHOR_SEARCH_BUSY with Retry-After', async () => {
    const { envelopeId, documentId, signer } = await documentOf(emulator, await slowPdf());
    const searches = [{ key: 'mark', text: '{{mark}}', occurrence: 'first' }];
    const answers = await Promise.all([findAnchors(emulator, envelopeId, documentId, searches), findAnchors(emulator, envelopeId, documentId, searches)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 503]);
    const busy = answers.find((answer) => answer.status === 503)!;
    expect(busy.body.error.code).toBe('ANCHOR_SEARCH_BUSY');
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);

    // The same gate holds a PUT with anchors; another document is not held.
    const second = await documentOf(emulator, await slowPdf());
    const field = { id: randomUUID(), participantId: signer, type: 'SIGNATURE', size: { width: 50, height: 20 }, anchor: { text: '{{mark}}' } };
    const [put, find, elsewhere] = await Promise.all([
      putFields(emulator, second.envelopeId, second.documentId, [{ ...field, participantId: second.signer }]),
      findAnchors(emulator, second.envelopeId, second.documentId, searches),
      findAnchors(emulator, envelopeId, documentId, searches),
    ]);
    expect([put.status, find.status].sort()).toEqual([200, 503]);
    expect((put.status === 503 ? put : find).body.error.code).toBe('ANCHOR_SEARCH_BUSY');
    expect(elsewhere.status).toBe(200);
  }, 60_000);

  describe('a fields PUT answers for the state it is stored in, whatever arrives while its anchors are searched', () => {
    /** Starts an anchor PUT on a slow document and resolves once its search is running (a second search is turned away). */
    async function putDuringSearch(target: EmulatorProcess, anchorText = '{{mark}}') {
      const { envelopeId, participantIds } = await draftWithSigners(target);
      const { documentId, uploadUrl } = await registerDocument(target, envelopeId);
      expect((await putBytes(uploadUrl, await slowPdf())).status).toBe(200);
      expect((await processedDocument(target, envelopeId, documentId)).status).toBe('READY');
      const signer = participantIds[0]!;
      const field = { id: randomUUID(), participantId: signer, type: 'SIGNATURE', size: { width: 50, height: 20 }, anchor: { text: anchorText, occurrence: 'first' } };
      const put = putFields(target, envelopeId, documentId, [field]);
      for (;;) {
        const probe = await findAnchors(target, envelopeId, documentId, [{ key: 'probe', text: 'x' }]);
        if (probe.status === 503) break;
        expect(probe.status, 'the PUT ended before the test could act during its search').toBe(503);
      }
      return { envelopeId, documentId, uploadUrl, put };
    }

    it('sent meanwhile: 409 ENVELOPE_NOT_DRAFT, and the sent envelope keeps the fields it was sent with', async () => {
      const { envelopeId, documentId, put } = await putDuringSearch(emulator);
      expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/send`, { idempotent: true, body: {} }), 200);
      const answer = await put;
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(answer.body.error.code).toBe('ENVELOPE_NOT_DRAFT');
      expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
    }, 60_000);

    it('deleted meanwhile: 404, not 200 for fields of an envelope that is gone', async () => {
      const { envelopeId, put } = await putDuringSearch(emulator);
      expect((await call(emulator, 'DELETE', `/v4/api/envelopes/${envelopeId}`)).status).toBe(204);
      const answer = await put;
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('RESOURCE_NOT_FOUND');
    }, 60_000);

    it("its participant removed meanwhile: 400 FIELD_PARTICIPANT_UNKNOWN, no field linked to a participant the envelope no longer has", async () => {
      const { envelopeId, documentId, put } = await putDuringSearch(emulator);
      await syncParticipants(emulator, envelopeId, [{ name: 'Bob Signer', email: 'bob@example.test' }]);
      const answer = await put;
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('FIELD_PARTICIPANT_UNKNOWN');
      expect(await getFields(emulator, envelopeId, documentId)).toEqual([]);
    }, 60_000);

    it('new content uploaded meanwhile: no field is stored from the old pages (409 while it is processed, else placed on the new pages)', async () => {
      // Found on page 150 of the old content, on page 2 of the new.
      const text = 'Page 150 line 30 {{mark}}';
      const { envelopeId, documentId, uploadUrl, put } = await putDuringSearch(emulator, text);
      const replaced = await putBytes(uploadUrl, await simplePdf({ pages: [['First page'], [`${text} here`]] }));
      expect(replaced.status).toBe(200);
      const answer = await put;
      const document = await processedDocument(emulator, envelopeId, documentId);
      expect(document.pageCount).toBe(2);
      const fields = await getFields(emulator, envelopeId, documentId);
      if (answer.status === 200) expect(fields.flatMap((field: any) => field.pages)).toEqual([2]);
      else {
        expect(answer.status).toBe(409);
        expect(answer.body.error.code).toBe('DOCUMENT_NOT_READY');
        expect(fields).toEqual([]);
      }
    }, 60_000);
  });

  it('findTemplateAnchors searches a template document; 404 for an unknown template or a document not in it', async () => {
    const templates = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body.data;
    const template = templates.find((candidate: any) => candidate.documents.length > 0);
    const documentId = template.documents[0].documentId;
    const found = expectStatus(
      await call(emulator, 'POST', `/v4/api/templates/${template.id}/documents/${documentId}/anchors:find`, { body: { searches: [{ key: 'sig', text: 'Signature:' }] } }),
      200,
    ).body;
    expect(found.pages.length).toBe(template.documents[0].pageCount);
    expect(found.matches.length).toBeGreaterThan(0);
    const unknown = await call(emulator, 'POST', `/v4/api/templates/${randomUUID()}/documents/${documentId}/anchors:find`, { body: { searches: [{ key: 'k', text: 'x' }] } });
    expect(unknown.status).toBe(404);
    const foreign = await call(emulator, 'POST', `/v4/api/templates/${template.id}/documents/${randomUUID()}/anchors:find`, { body: { searches: [{ key: 'k', text: 'x' }] } });
    expect(foreign.status).toBe(404);
  });
});

describe('anchor search disabled (--no-anchor-search)', () => {
  const disabled = useEmulator(['--processing-delay', '0', '--no-anchor-search']);

  it('answers 503 ANCHOR_SEARCH_UNAVAILABLE with Retry-After to anchors:find and to a PUT with anchors; coordinates still work', async () => {
    const { envelopeId, documentId, signer } = await documentOf(disabled, await ndaPdf());
    for (const answer of [
      await findAnchors(disabled, envelopeId, documentId, [{ key: 'k', text: '{{signature}}' }]),
      await putFields(disabled, envelopeId, documentId, [{ id: randomUUID(), participantId: signer, type: 'SIGNATURE', size: { width: 50, height: 20 }, anchor: { text: '{{signature}}' } }]),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('ANCHOR_SEARCH_UNAVAILABLE');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const coordinates = await putFields(disabled, envelopeId, documentId, [
      { id: randomUUID(), participantId: signer, type: 'SIGNATURE', pages: [1], position: { x: 72, y: 72 }, size: { width: 50, height: 20 } },
    ]);
    expect(coordinates.status).toBe(200);
  });
});

describe('anchor search time limit (--anchor-time-limit)', () => {
  const hurried = useEmulator(['--processing-delay', '0', '--anchor-time-limit', '1']);

  it('"when reading does not finish, the answer is 422 DOCUMENT_TEXT_UNREADABLE", to anchors:find and to a PUT with anchors; nothing stored', async () => {
    const { envelopeId, documentId, signer } = await documentOf(hurried, await manyPagesPdf(100, (page) => `Page ${page} {{mark}}`));
    const find = await findAnchors(hurried, envelopeId, documentId, [{ key: 'k', text: '{{mark}}' }]);
    expect(find.status).toBe(422);
    expect(find.body.error.code).toBe('DOCUMENT_TEXT_UNREADABLE');
    const put = await putFields(hurried, envelopeId, documentId, [{ id: randomUUID(), participantId: signer, type: 'SIGNATURE', size: { width: 50, height: 20 }, anchor: { text: '{{mark}}' } }]);
    expect(put.status).toBe(422);
    expect(put.body.error.code).toBe('DOCUMENT_TEXT_UNREADABLE');
    const fields = expectStatus(await call(hurried, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/fields`), 200).body.fields;
    expect(fields).toEqual([]);
  }, 60_000);
});
