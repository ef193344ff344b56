/**
 * Waits that are stopped, and creates whose answer never comes: the person is told what state things are in and the
 * command that continues safely.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runEsign, startEsign, stderrShows } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { createSentEnvelope } from '../support/envelope-flow.js';

describe('Ctrl-C during envelopes wait', () => {
  const emulator = useEmulator(['--processing-delay', '20']);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s stops it at once (exit %i), with the status seen and the command that waits again', async (signal, code) => {
    const envelope = await createSentEnvelope(emulator);
    const running = startEsign(['--debug', 'envelopes', 'wait', envelope.id, '--until', 'COMPLETED', '--wait-timeout', '1h'], { env: emulator.env });
    // Two reads: the second sleep between polls is 1.5 s, so the signal lands in a sleep.
    await stderrShows(running, /getEnvelope[^\n]*\n[\s\S]*getEnvelope/);
    const signalled = Date.now();
    running.child.kill(signal);
    const result = await running.result;
    expect(result.code).toBe(code);
    // Promptly: not at the end of a poll interval.
    expect(Date.now() - signalled).toBeLessThan(2_500);
    expect(result.stderr).toContain(`Stopped waiting by ${signal}: envelope ${envelope.id} was SENT, not COMPLETED. Nothing was changed.`);
    expect(result.stderr).toContain(`esign envelopes wait ${envelope.id} --until COMPLETED`);
  });
});

describe('a create whose answer is lost', () => {
  let server: Server;
  let url: string;
  const seen: { method: string; key: string | undefined }[] = [];

  beforeAll(async () => {
    // A hostile host: it reads every request and drops the connection without an answer.
    server = createServer((request) => {
      seen.push({ method: request.method!, key: request.headers['idempotency-key'] as string | undefined });
      request.resume();
      request.on('end', () => request.socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('prints the Idempotency-Key it used on every retry and the command that repeats it safely (exit 7)', async () => {
    seen.length = 0;
    const env = { ESIGN_SANDBOX_BASE_URL: url, ESIGN_API_KEY: 'em_test_LostAnswerKey0123456789' };
    const result = await runEsign(['envelopes', 'create', '--title', 'Q3 contract'], { env });
    expect(result.code).toBe(7);
    const keys = new Set(seen.map((request) => request.key));
    // One logical request: retried, always with the same key.
    expect(seen.length).toBeGreaterThan(1);
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(result.stderr).toContain(`Idempotency-Key ${key}`);
    expect(result.stderr).toContain(`esign envelopes create --title 'Q3 contract' --idempotency-key ${key}`);

    const json = await runEsign(['--json', 'envelopes', 'create', '--title', 'Q3 contract', '--idempotency-key', 'my-key-000001'], { env });
    expect(json.code).toBe(7);
    expect(parseJson<{ error: { details: { idempotencyKey: string } } }>(json.stderr).error.details.idempotencyKey).toBe('my-key-000001');
  });
});
