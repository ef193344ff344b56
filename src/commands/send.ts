import { defineCommand } from '../cli/command.js';
import envelopesSend from './envelopes/send.js';

/** `esign send <id>`: the everyday shortcut for `esign envelopes send <id>`, the very same command. */
export default defineCommand({
  ...envelopesSend,
  examples: ['esign send 3f6c…', 'esign send 3f6c… --wait-timeout 5m && esign envelopes wait 3f6c… --until COMPLETED'],
});
