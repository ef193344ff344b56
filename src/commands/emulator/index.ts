import { defineGroup } from '../../cli/command.js';
import { participantAction } from './participant-action.js';
import serve from './serve.js';

export default defineGroup({
  name: 'emulator',
  description: 'Run a local, stateful emulator of the whole v4 API (no key or network needed)',
  run: serve,
  commands: [participantAction('sign'), participantAction('approve'), participantAction('refuse')],
});
