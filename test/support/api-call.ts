import { randomUUID } from 'node:crypto';
import type { EmulatorProcess } from './emulator.js';
import { simplePdf } from './pdfs.js';

// Answers are read as the tests read them: loosely typed JSON.
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Another key, or false for none (default: the emulator's own). */
  key?: string | false;
  /** Sends a fresh Idempotency-Key unless `headers` carries one. */
  idempotent?: boolean;
}

/** One raw HTTP call to an emulator, JSON in and out, as a client of the contract would make it. */
export async function call(emulator: EmulatorProcess, method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers };
  if (options.idempotent && !headers['idempotency-key']) headers['idempotency-key'] = randomUUID();
  const response = await emulator.fetch(path, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.key === undefined ? {} : { key: options.key }),
  });
  const text = await response.text();
  let body: unknown = text === '' ? undefined : text;
  if (response.headers.get('content-type')?.includes('json')) body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body };
}

/** Fails the test with the answer in the message when the status is not the one expected. */
export function expectStatus(answer: ApiAnswer, status: number): ApiAnswer {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

export interface SentEnvelope {
  id: string;
  participantIds: string[];
}

async function waitForReady(emulator: EmulatorProcess, envelopeId: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const documents = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents`), 200).body.data as { status: string }[];
    if (documents.every((document) => document.status === 'READY')) return;
    if (documents.some((document) => document.status === 'FAILED')) throw new Error(`document processing failed: ${JSON.stringify(documents)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('documents never became READY');
}

/** Through the public flow: draft, participants, one uploaded PDF, send. */
export async function createSentEnvelope(
  emulator: EmulatorProcess,
  options: { title?: string; folderId?: string; participants?: { name: string; email: string }[] } = {},
): Promise<SentEnvelope> {
  const created = expectStatus(
    await call(emulator, 'POST', '/v4/api/envelopes/', {
      idempotent: true,
      body: { title: options.title ?? 'Contract', ...(options.folderId ? { folderId: options.folderId } : {}) },
    }),
    201,
  ).body;
  const participants = (options.participants ?? [{ name: 'Ada Signer', email: 'ada@example.test' }]).map((participant) => ({
    ...participant,
    deliveryMethod: 'EMAIL',
    role: 'SIGNER',
  }));
  const synced = expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${created.id}/participants`, { body: { participants } }), 200).body;
  const document = expectStatus(
    await call(emulator, 'POST', `/v4/api/envelopes/${created.id}/documents`, { body: { fileName: 'contract.pdf', contentType: 'application/pdf' } }),
    201,
  ).body;
  const upload = await fetch(document.uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: await simplePdf({ pages: [['Sign here']] }) });
  if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  await waitForReady(emulator, created.id);
  expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${created.id}/send`, { idempotent: true, body: {} }), 200);
  return { id: created.id, participantIds: (synced.participants as { id: string }[]).map((participant) => participant.id) };
}

export async function voidEnvelope(emulator: EmulatorProcess, envelopeId: string, reason = 'Sent by mistake'): Promise<void> {
  expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/void`, { body: { reason } }), 200);
}

/** What the participant does from their link, through the emulator's control surface. */
export async function signAll(emulator: EmulatorProcess, envelope: SentEnvelope): Promise<void> {
  for (const participantId of envelope.participantIds) {
    const answer = await emulator.fetch(`/_emulator/envelopes/${envelope.id}/participants/${participantId}/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    if (!answer.ok) throw new Error(`sign answered ${answer.status}: ${await answer.text()}`);
  }
}
