/**
 * SIGINT and SIGTERM end esign within a second, whatever it is doing (SECURITY.md, "Interrupts and work that cannot
 * finish"): a request a host never answers, pdfjs busy on one page for seconds, the emulator reading a PDF for
 * an anchor search. Time is measured from the signal to the exit of the process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEsign, tempDir } from '../support/cli.js';
import { findAnchors, processedDocument, putBytes, registerDocument } from '../support/documents.js';
import { startEmulatorProcess } from '../support/emulator.js';
import { createDraft } from '../support/envelope-flow.js';
import { busyPagePdf } from '../support/heavy-pdfs.js';
import { hostileTestKey, startHostileServer, type HostileServer } from '../support/hostile-server.js';
import { busyFor, SIGNAL_EXIT_BOUND_MS, signalAndTimeExit } from '../support/signals.js';

const signals = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;

/**
 * CPU seconds a process has worked on the busy page (busyPagePdf, about two seconds of CPU in all) before it is sent
 * the signal: past the CLI's start-up (about a third of a second), well before the page is read.
 */
const BUSY_CPU_SECONDS = 1;

describe('a request a host never answers', () => {
  let host: HostileServer;
  beforeAll(async () => {
    // It reads the request and never answers: only --timeout (10 minutes here) would end the wait.
    host = await startHostileServer(() => undefined);
  });
  afterAll(() => host.close());

  it.each(signals)('%s ends `me --timeout 600` within a second with exit %i', async (signal, code) => {
    const before = host.requests.length;
    const running = startEsign(['me', '--timeout', '600'], { env: { ESIGN_SANDBOX_BASE_URL: host.url, ESIGN_API_KEY: hostileTestKey } });
    await expect.poll(() => host.requests.length, { timeout: 30_000 }).toBeGreaterThan(before);
    const stopped = await signalAndTimeExit(running.child, signal);
    expect(stopped.code).toBe(code);
    expect(stopped.exitMs).toBeLessThan(SIGNAL_EXIT_BOUND_MS);
    const { stderr } = await running.result;
    expect(stderr).toContain(signal);
    expect(stderr).not.toMatch(/\n\s+at |This is a bug/);
  });
});

describe('pdfjs busy on one page', () => {
  it.each(signals)('%s ends `anchors find --local` within a second with exit %i, though the page keeps pdfjs busy for seconds', async (signal, code) => {
    const dir = tempDir('esign-signal-pdf-');
    writeFileSync(join(dir, 'busy.pdf'), busyPagePdf());
    const running = startEsign(['anchors', 'find', '--local', 'busy.pdf', '--text', '{{signature}}'], { cwd: dir });
        await busyFor(running.child, BUSY_CPU_SECONDS);
    const stopped = await signalAndTimeExit(running.child, signal);
    expect(stopped.code).toBe(code);
    expect(stopped.exitMs).toBeLessThan(SIGNAL_EXIT_BOUND_MS);
    const { stderr } = await running.result;
    expect(stderr).toContain(`Stopped by ${signal}`);
    expect(stderr).not.toMatch(/\n\s+at |This is a bug|PDF_UNREADABLE/);
  });
});

describe('the emulator reading a PDF', () => {
  it('SIGTERM ends it within a second while an anchor search keeps pdfjs busy', { timeout: 90_000 }, async () => {
    const emulator = await startEmulatorProcess(['--anchor-time-limit', '600000']);
    try {
      const { id } = await createDraft(emulator);
      const document = await registerDocument(emulator, id, 'busy.pdf');
      await putBytes(document.uploadUrl, busyPagePdf());
      await processedDocument(emulator, id, document.documentId);
      // Not awaited: the emulator stops while it reads; the request then fails or is answered, either is fine.
      findAnchors(emulator, id, document.documentId, [{ key: 'signature', text: '{{signature}}' }]).catch(() => undefined);
      await busyFor(emulator.child, BUSY_CPU_SECONDS);
      const stopped = await signalAndTimeExit(emulator.child, 'SIGTERM');
      // 0 when its orderly stop (closing the server, saving) finishes first, 143 when main.ts's forced exit does.
      expect([0, 143]).toContain(stopped.code);
      expect(stopped.exitMs).toBeLessThan(SIGNAL_EXIT_BOUND_MS);
    } finally {
      await emulator.stop();
    }
  });
});
