/**
 * A loop of small short-lived units of work (the pages of a list, the envelopes of a batch, the polls of a wait, the
 * deliveries a listener takes) keeps V8's young generation at the size it has once the loop's first unit is done: not
 * growing it keeps peak memory flat in the amount of work (bench: `batch run` peak RSS for 500 vs 50 envelopes,
 * `contacts list --all` for 100,000 vs 1,000 contacts) at no measurable cost in CPU time.
 *
 * Held then, not at start: V8 takes no code cache recorded under other flags than its own, Node's own modules'
 * included, and a flag set at start made every Node module a command loaded afterwards compile from its text (about
 * 15 ms of a small `anchors find --local`). By the end of a loop's first unit, what the loop needs is loaded; a code
 * cache compiled after (a PDF reader thread started by then) is refused and its module compiled from its text.
 */
let held = false;

export function holdYoungGeneration(): void {
  if (held) return;
  held = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
