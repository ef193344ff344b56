import type { Entry } from '../cli/command.js';
import anchors from './anchors/index.js';
import documents from './documents/index.js';
import emulator from './emulator.js';
import envelopes from './envelopes/index.js';
import fields from './fields/index.js';
import me from './me.js';
import participants from './participants/index.js';
import profiles from './profiles/index.js';
import send from './send.js';
import templates from './templates/index.js';

/** Every command, in the order `esign --help` lists them. */
export const entries: readonly Entry[] = [me, profiles, emulator, envelopes, send, participants, templates, documents, fields, anchors];
