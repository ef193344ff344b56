import { describe, expect, it } from 'vitest';
import { fieldIdFor, placementIssues, withIds } from './fields.js';

describe('fieldIdFor', () => {
  it('is a UUID v5 that depends only on envelope, document and position, so re-running a file updates its fields', () => {
    const id = fieldIdFor('envelope-1', 'document-1', 0);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fieldIdFor('envelope-1', 'document-1', 0)).toBe(id);
    expect(new Set([id, fieldIdFor('envelope-1', 'document-1', 1), fieldIdFor('envelope-1', 'document-2', 0), fieldIdFor('envelope-2', 'document-1', 0)]).size).toBe(4);
  });

  it('withIds keeps an id the file gives and derives the others', () => {
    const given = '0b7f3c1e-2a4d-4c8e-9f10-1234567890ab';
    const fields = withIds(
      [
        { id: given, participantId: 'p', type: 'TEXT', pages: [1], position: { x: 1, y: 1 }, size: { width: 1, height: 1 } },
        { participantId: 'p', type: 'TEXT', pages: [1], position: { x: 1, y: 1 }, size: { width: 1, height: 1 } },
      ],
      (index) => `derived-${index}`,
    );
    expect(fields.map((field) => field.id)).toEqual([given, 'derived-1']);
  });
});

describe('placementIssues (the contract: "exactly one of (pages + position) or anchor"; "size is always required")', () => {
  const size = { width: 10, height: 10 };
  it('accepts coordinates or an anchor', () => {
    expect(placementIssues({ type: 'SIGNATURE', pages: [1], position: { x: 0, y: 0 }, size }, 'pages')).toEqual([]);
    expect(placementIssues({ type: 'SIGNATURE', anchor: { text: 'x' }, size }, 'pages')).toEqual([]);
  });

  it('names what is wrong and where', () => {
    expect(placementIssues({ type: 'SIGNATURE', pages: [1], position: { x: 0, y: 0 }, anchor: { text: 'x' }, size }, 'pages')).toEqual([
      { path: ['anchor'], message: 'give either pages + position or anchor, not both' },
    ]);
    expect(placementIssues({ type: 'SIGNATURE', pageNumber: 1 }, 'pageNumber')).toEqual([
      { path: ['pageNumber'], message: 'pageNumber needs position {x, y} with it' },
      { path: [], message: 'size {width, height} is required (PDF points)' },
    ]);
    expect(placementIssues({ type: 'CHECKBOX_GROUP', anchor: { text: 'x' }, size }, 'pages')).toEqual([
      { path: ['anchor'], message: 'CHECKBOX_GROUP fields take pages + position, not an anchor' },
    ]);
  });
});
