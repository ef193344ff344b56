// V8 flags esign runs under, set before any of its code is compiled: by bin/esign.cjs under Node, and by the single
// executable's main (src/sea/main.ts) and the build that records its code cache (scripts/binary-program.cjs). V8's
// code caches record the flags they were made under, and one made under other flags is refused, so all three must
// set the same ones, before compiling anything.
'use strict';

/**
 * A command is short-lived, or (`batch run`, `envelopes wait`) a loop of small short-lived requests: V8's young
 * generation need not grow past its first size for it, and not growing it keeps peak memory flat in the amount of work
 * (bench: `batch run` peak RSS for 500 vs 50 envelopes 1.10x instead of 1.23x, CPU time unchanged). The emulator, a
 * server whose throughput counts, keeps V8's defaults. Answers whether the command runs under esign's own flags.
 */
function applyV8Flags(args) {
  if (args.includes('emulator')) return false;
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}

module.exports = { applyV8Flags };
