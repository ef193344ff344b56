/** Steps of the envelope flow over raw HTTP, for the contract tests of envelopes, participants and templates. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, expectStatus } from './api-call.js';
import type { EmulatorProcess } from './emulator.js';
import { simplePdf } from './pdfs.js';

export interface ParticipantSpec {
  id?: string;
  name: string;
  email: string;
  deliveryMethod?: string;
  phoneNumber?: string;
  role?: 'SIGNER' | 'APPROVER';
  signingOrder?: number;
}

export function inDays(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString();
}

export async function createDraft(emulator: EmulatorProcess, body: Record<string, unknown> = { title: 'Contract' }): Promise<any> {
  return expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body }), 201).body;
}

export async function syncParticipants(emulator: EmulatorProcess, envelopeId: string, participants: readonly ParticipantSpec[]): Promise<any[]> {
  const body = { participants: participants.map((participant) => ({ deliveryMethod: 'EMAIL', role: 'SIGNER', ...participant })) };
  return expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${envelopeId}/participants`, { body }), 200).body.participants;
}

/** Registers a PDF and uploads it to the signed address; returns the document id without waiting. */
export async function uploadPdf(emulator: EmulatorProcess, envelopeId: string, bytes?: Uint8Array, fileName = 'contract.pdf'): Promise<string> {
  const document = expectStatus(
    await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName, contentType: 'application/pdf' } }),
    201,
  ).body;
  const upload = await fetch(document.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf' },
    body: bytes ?? (await simplePdf({ pages: [['Please sign below.', '{{signature}}']] })),
  });
  if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  return document.documentId;
}

/** Polls `read` until `done` holds (at most ~10 s). */
export async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  let last: T | undefined;
  for (let tries = 0; tries < 200; tries++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
}

export async function getEnvelope(emulator: EmulatorProcess, envelopeId: string): Promise<any> {
  return expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
}

export async function waitForDocumentsReady(emulator: EmulatorProcess, envelopeId: string): Promise<void> {
  await waitUntil(
    () => getEnvelope(emulator, envelopeId),
    (envelope) => envelope.documents.every((document: { status: string }) => document.status === 'READY'),
    `documents of ${envelopeId} READY`,
  );
}

/** A DRAFT with the given participants and one processed PDF: ready to send. */
export async function readyDraft(emulator: EmulatorProcess, participants: readonly ParticipantSpec[], body?: Record<string, unknown>): Promise<{ id: string; participants: any[] }> {
  const envelope = await createDraft(emulator, body);
  const synced = await syncParticipants(emulator, envelope.id, participants);
  await uploadPdf(emulator, envelope.id);
  await waitForDocumentsReady(emulator, envelope.id);
  return { id: envelope.id, participants: synced };
}

export async function send(emulator: EmulatorProcess, envelopeId: string): Promise<any> {
  return expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/send`, { idempotent: true, body: {} }), 200).body;
}

export async function outbox(emulator: EmulatorProcess, envelopeId: string): Promise<any[]> {
  const answer = await emulator.fetch('/_emulator/outbox');
  const { data } = (await answer.json()) as { data: any[] };
  return data.filter((message) => message.envelopeId === envelopeId);
}

/** A participant's own action from their link (emulator control surface). */
export async function participantAction(
  emulator: EmulatorProcess,
  envelopeId: string,
  participantId: string,
  action: 'sign' | 'approve' | 'refuse',
  body: Record<string, unknown> = {},
): Promise<{ status: number; body: any }> {
  const answer = await emulator.fetch(`/_emulator/envelopes/${envelopeId}/participants/${participantId}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}

export async function resetEmulator(emulator: EmulatorProcess): Promise<void> {
  const answer = await emulator.fetch('/_emulator/reset', { method: 'POST' });
  if (!answer.ok) throw new Error(`reset answered ${answer.status}`);
}

export interface WebhookReceiver {
  url: string;
  events: { type: string; data: any }[];
  close(): Promise<void>;
}

/** A loopback endpoint that accepts every delivery (2xx) and keeps the events. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const events: { type: string; data: any }[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      events.push(JSON.parse(text));
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    events,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function subscribe(emulator: EmulatorProcess, url: string, events: string[]): Promise<void> {
  expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url, events, isActive: true } }), 201);
}

export interface SentEnvelope {
  id: string;
  participantIds: string[];
}

/** Through the public flow: draft, participants, one uploaded PDF, send. */
export async function createSentEnvelope(
  emulator: EmulatorProcess,
  options: { title?: string; folderId?: string; participants?: { name: string; email: string }[] } = {},
): Promise<SentEnvelope> {
  const draft = await readyDraft(emulator, options.participants ?? [{ name: 'Ada Signer', email: 'ada@example.test' }], {
    title: options.title ?? 'Contract',
    ...(options.folderId ? { folderId: options.folderId } : {}),
  });
  await send(emulator, draft.id);
  return { id: draft.id, participantIds: draft.participants.map((participant: { id: string }) => participant.id) };
}

export async function voidEnvelope(emulator: EmulatorProcess, envelopeId: string, reason = 'Sent by mistake'): Promise<void> {
  expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/void`, { body: { reason } }), 200);
}

/** What the participants do from their links, through the emulator's control surface. */
export async function signAll(emulator: EmulatorProcess, envelope: SentEnvelope): Promise<void> {
  for (const participantId of envelope.participantIds) {
    const answer = await participantAction(emulator, envelope.id, participantId, 'sign');
    if (answer.status >= 300) throw new Error(`sign answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}
