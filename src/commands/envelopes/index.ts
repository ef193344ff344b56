import { defineGroup } from '../../cli/command.js';
import create from './create.js';
import remove from './delete.js';
import download from './download.js';
import find from './find.js';
import get from './get.js';
import history from './history.js';
import list from './list.js';
import move from './move.js';
import send from './send.js';
import sendNow from './send-now.js';
import settings from './settings.js';
import voidEnvelope from './void.js';
import wait from './wait.js';

export default defineGroup({
  name: 'envelopes',
  aliases: ['env'],
  description: 'Create, configure, send, follow and void envelopes',
  commands: [create, get, list, find, settings, send, wait, history, download, move, voidEnvelope, remove, sendNow],
});
