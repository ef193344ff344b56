/**
 * One run per journal. Two runs on one journal append interleaved records and work on the same envelopes at once (one
 * syncing participants while the other places fields), so each failed half of its envelopes and reported ids that no
 * longer existed. A second run is refused at once rather than made to wait: it would redo what the first did.
 */
import { UsageError } from '../core/errors.js';
import { acquireFileLock, holderText } from '../files/file-lock.js';

/** Takes the journal's lock, or refuses (exit 2) while another run holds it; resolves to the release. */
export function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  const lockPath = `${journalPath}.lock`;
  return acquireFileLock(lockPath, {
    waitMs: 0,
    busy: (holder) =>
      new UsageError(
        `The journal ${journalPath} is in use by another esign batch run${holder ? ` (${holderText(holder)})` : ''}.`,
        `Wait for that run to end, or stop it. If no run is going on, remove ${lockPath}.`,
        'JOURNAL_IN_USE',
      ),
  });
}
