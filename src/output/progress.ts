/* Upload progress on stderr: bytes sent, share and rate, redrawn in place. Only where a person watches a big file. */
import { formatBytes } from '../core/units.js';
import type { Output } from './output.js';

/** Smaller files go up in a moment: a bar would only flicker. */
export const PROGRESS_MIN_BYTES = 5 * 1024 * 1024;

/** Redraws at most this often, so a fast local upload does not spend its time writing to the terminal. */
const REDRAW_INTERVAL_MS = 100;
const BAR_WIDTH = 24;

export interface ProgressState {
  label: string;
  total: number;
  sent: number;
  elapsedMs: number;
}

/** `nda.pdf [#########...............]  38%  9.6 MB / 25.0 MB  4.1 MB/s` */
export function renderProgress(state: ProgressState): string {
  const share = state.total > 0 ? Math.min(1, state.sent / state.total) : 1;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  const rate = state.elapsedMs > 0 ? `${formatBytes(Math.round((state.sent * 1000) / state.elapsedMs))}/s` : '';
  return `${state.label} ${bar} ${percent}  ${formatBytes(state.sent)} / ${formatBytes(state.total)}${rate ? `  ${rate}` : ''}`;
}

export function showsProgress(output: Output, bytes: number): boolean {
  return output.showsTransient && bytes > PROGRESS_MIN_BYTES;
}

/**
 * A progress line fed with the bytes sent so far: redrawn at most every REDRAW_INTERVAL_MS, and left on a line of its
 * own once `total` is reached.
 */
export function progressReporter(output: Output, label: string, total: number, now: () => number = Date.now): (sent: number) => void {
  const started = now();
  let drawnAt = 0;
  return (sent) => {
    const done = sent >= total;
    if (!done && now() - drawnAt < REDRAW_INTERVAL_MS) return;
    drawnAt = now();
    output.transient(renderProgress({ label, total, sent, elapsedMs: now() - started }));
    if (done) output.endTransient();
  };
}
