/**
 * The account a support person works in (issue 23): envelopes with long titles and named participants in every state,
 * a void reason, contacts, and a webhook endpoint with a failed and a delivered delivery.
 */
import { call, expectStatus } from './api-call.js';
import type { EmulatorProcess } from './emulator.js';
import { createSentEnvelope, participantAction, startWebhookReceiver, voidEnvelope, waitUntil } from './envelope-flow.js';

export const deskPeople = [
  { name: 'Maria Gonzalez', email: 'maria@acme.example' },
  { name: 'Jonathan Appleseed-Smith', email: 'jonathan.appleseed@globex.example' },
  { name: 'Chen Wei', email: 'chen.wei@initech.example' },
];

export const deskTitles = {
  halfSigned: 'Mutual Non-Disclosure Agreement between Acme Corporation and Globex',
  voided: 'Master Services Agreement renewal for Initech (2026)',
};

export const voidReason = 'Wrong customer address on page 2, resend after correction';

export interface SupportDesk {
  halfSigned: string;
  voided: string;
  webhookId: string;
}

export async function seedSupportDesk(emulator: EmulatorProcess): Promise<SupportDesk> {
  const halfSigned = await createSentEnvelope(emulator, { title: deskTitles.halfSigned, participants: deskPeople });
  expect2xx(await participantAction(emulator, halfSigned.id, halfSigned.participantIds[0]!, 'sign'));
  const receiver = await startWebhookReceiver();
  // One endpoint that answers, one address where nothing listens: a delivered and a failed delivery.
  const webhook = expectStatus(
    await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true } }),
    201,
  ).body;
  const voided = await createSentEnvelope(emulator, { title: deskTitles.voided, participants: deskPeople.slice(1) });
  await voidEnvelope(emulator, voided.id, voidReason);
  await waitUntil(
    async () => (await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries`)).body.data,
    (deliveries: { status: string }[]) => deliveries.some((delivery) => delivery.status === 'SUCCEEDED'),
    'a delivered delivery',
  );
  await receiver.close();
  for (const [index, person] of deskPeople.entries()) {
    expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { idempotent: true, body: { ...person, company: ['Acme Corporation', 'Globex International Holdings', 'Initech'][index], phoneNumber: `+3361234567${index}` } }), 201);
  }
  return { halfSigned: halfSigned.id, voided: voided.id, webhookId: webhook.id };
}

function expect2xx(answer: { status: number; body: unknown }): void {
  if (answer.status >= 300) throw new Error(`the emulator answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}
