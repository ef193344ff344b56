import type { Entry } from '../cli/command.js';
import emulator from './emulator.js';
import me from './me.js';
import profiles from './profiles/index.js';

/** Every command, in the order `esign --help` lists them. */
export const entries: readonly Entry[] = [me, profiles, emulator];
