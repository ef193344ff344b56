import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { createSentEnvelope, signAll, voidEnvelope } from '../support/envelope-flow.js';
import { useEmulator } from '../support/emulator.js';

const emulator = useEmulator();

describe('reports', () => {
  it('lists voided envelopes newest first with id, title, cancellationReason and voidedAt', async () => {
    const first = await createSentEnvelope(emulator, { title: 'Voided first' });
    const second = await createSentEnvelope(emulator, { title: 'Voided second' });
    await createSentEnvelope(emulator, { title: 'Still sent' });
    await voidEnvelope(emulator, first.id, 'Duplicate');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await voidEnvelope(emulator, second.id, 'Wrong amount');
    const report = expectStatus(await call(emulator, 'GET', '/v4/api/reports/voided-envelopes'), 200).body;
    expect(report.data).toEqual([
      { id: second.id, title: 'Voided second', cancellationReason: 'Wrong amount', voidedAt: expect.any(String) },
      { id: first.id, title: 'Voided first', cancellationReason: 'Duplicate', voidedAt: expect.any(String) },
    ]);
    const page = expectStatus(await call(emulator, 'GET', '/v4/api/reports/voided-envelopes?limit=1'), 200).body;
    expect(page.data).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("reports on one envelope: status, participants' progress, documents, history counts and timestamps", async () => {
    const envelope = await createSentEnvelope(emulator, {
      title: 'Reported',
      participants: [
        { name: 'One', email: 'one@example.test' },
        { name: 'Two', email: 'two@example.test' },
      ],
    });
    await emulator.fetch(`/_emulator/envelopes/${envelope.id}/participants/${envelope.participantIds[0]}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const report = expectStatus(await call(emulator, 'GET', `/v4/api/reports/envelopes/${envelope.id}`), 200).body;
    expect(report).toMatchObject({
      envelopeId: envelope.id,
      title: 'Reported',
      status: 'SENT',
      participants: { total: 2, completed: 1, byStatus: { SIGNED: 1, NOTIFIED: 1 } },
      documents: [{ fileName: 'contract.pdf', status: 'READY', pageCount: 1, fieldCount: 0 }],
      timestamps: { createdAt: expect.any(String), sentAt: expect.any(String), completedAt: null, voidedAt: null },
    });
    expect(report.history.total).toBeGreaterThan(0);
    expect(report.history.byAction).toMatchObject({ ENVELOPE_CREATED: 1, ENVELOPE_SENT: 1, PARTICIPANT_SIGNED: 1 });
    // Its own messages only: both participants were invited, and other envelopes' invitations are not counted.
    expect(report.messages).toEqual({ INVITATION: 2 });

    const missing = await call(emulator, 'GET', '/v4/api/reports/envelopes/no-such-envelope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("counts sent envelopes under the responsible user's groups (usage by group), bounded by from and to", async () => {
    const before = expectStatus(await call(emulator, 'GET', '/v4/api/reports/usage-by-group'), 200).body;
    const legal = before.data.find((group: { name: string }) => group.name === 'Legal');
    expect(legal).toMatchObject({ memberCount: 2 });
    const completed = await createSentEnvelope(emulator);
    await signAll(emulator, completed);
    expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'A draft is not sent' } }), 201);
    const after = expectStatus(await call(emulator, 'GET', '/v4/api/reports/usage-by-group'), 200).body;
    const legalAfter = after.data.find((group: { name: string }) => group.name === 'Legal');
    expect(legalAfter.envelopesSent).toBe(legal.envelopesSent + 1);
    expect(legalAfter.byStatus.COMPLETED).toBe((legal.byStatus.COMPLETED ?? 0) + 1);

    const future = new Date(Date.now() + 60_000).toISOString();
    const none = expectStatus(await call(emulator, 'GET', `/v4/api/reports/usage-by-group?from=${encodeURIComponent(future)}`), 200).body;
    expect(none.from).toBe(future);
    expect(none.data.find((group: { name: string }) => group.name === 'Legal').envelopesSent).toBe(0);
    expect((await call(emulator, 'GET', '/v4/api/reports/usage-by-group?to=yesterday')).status).toBe(400);
  });
});
