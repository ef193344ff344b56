/**
 * The validating proxy CI puts in front of the emulators of the integration flows (the demo, every README/docs
 * `esign` line, the batch examples): .ci/run runs those test files again with ESIGN_PRISM set, and any request or
 * answer that does not conform to docs/openapi.json fails them. Here: the proxy passes conforming traffic, and a
 * violation fails the run. Skipped without ESIGN_PRISM (Prism needs Node >= 24.18; .ci/run installs it), unless
 * ESIGN_REQUIRE_PRISM says CI expects it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { startEmulatorProcess as startEmulator } from './support/emulator.js';

/** An emulator behind the proxy, stopped when the test ends even if it fails first (a second stop does nothing). */
async function startEmulatorProcess() {
  const emulator = await startEmulator();
  onTestFinished(() => emulator.stop().catch(() => undefined));
  return emulator;
}

const prism = process.env.ESIGN_PRISM;
if (!prism && process.env.ESIGN_REQUIRE_PRISM) throw new Error('ESIGN_REQUIRE_PRISM is set but ESIGN_PRISM is not: .ci/run installs Prism and sets it');

describe.runIf(prism)('the validating proxy (Prism, docs/openapi.json)', () => {
  // With ESIGN_PRISM set, startEmulatorProcess puts the proxy in front, as for every emulator of the flows.
  it('passes conforming traffic and stops cleanly', async () => {
    const emulator = await startEmulatorProcess();
    expect((await emulator.fetch('/v4/api/me')).status).toBe(200);
    expect((await emulator.fetch('/_emulator/health')).status).toBe(200);
    await expect(emulator.stop()).resolves.toBeUndefined();
  }, 120_000);

  it('fails the run on a request the document does not allow', async () => {
    const emulator = await startEmulatorProcess();
    const refused = await emulator.fetch('/v4/api/webhooks/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'violation-1234' },
      body: JSON.stringify({ url: 'https://hooks.example.test/x' }),
    });
    expect(refused.status).toBe(422);
    await expect(emulator.stop()).rejects.toThrow(/did not conform to docs\/openapi.json[\s\S]*violation/);
  }, 120_000);
});
