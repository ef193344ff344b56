import { describe, expect, it } from 'vitest';
import { cell, renderRecord } from './record.js';

describe('renderRecord', () => {
  it('shows nested objects as indented fields and lists of objects as tables: no JSON on a person\'s screen', () => {
    const report = {
      envelopeId: 'e1',
      folder: { id: 'f1', name: 'Sales' },
      cancellationReason: null,
      participants: {
        total: 2,
        byStatus: { SIGNED: 1, NOTIFIED: 1 },
        items: [
          { id: 'p1', name: 'Ada', status: 'SIGNED', completedAt: '2026-03-01T10:00:00Z' },
          { id: 'p2', name: 'Grace', status: 'NOTIFIED', completedAt: null },
        ],
      },
      documents: [],
      messages: {},
    };
    expect(renderRecord(report)).toBe(
      [
        'Envelope Id:         e1',
        'Folder:',
        '  Id:   f1',
        '  Name: Sales',
        'Cancellation Reason: -',
        'Participants:',
        '  Total: 2',
        '  By Status:',
        '    SIGNED:   1',
        '    NOTIFIED: 1',
        '  Items:',
        '    ID  NAME   STATUS    COMPLETED AT',
        '    p1  Ada    SIGNED    2026-03-01T10:00:00Z',
        '    p2  Grace  NOTIFIED  -',
        'Documents:           -',
        'Messages:            -',
      ].join('\n'),
    );
  });

  it('makes a server\'s control characters visible, in names and values, and reads an object in a cell as words', () => {
    expect(renderRecord({ 'bad\u001bname': { inner: 'x\u009by' } })).not.toMatch(/[\u001b\u009b]/);
    expect(cell({ messageLimit: 5, quota: null })).toBe('Message Limit 5, Quota -');
    expect(cell(['a', 'b'])).toBe('a, b');
  });
});
