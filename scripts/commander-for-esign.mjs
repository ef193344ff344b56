// A change to commander for esign, made by esbuild as it bundles the program (scripts/build.mjs) and the single
// executable's (scripts/build-binary.mjs). Checked, so that a commander update that moves the code fails the build
// instead of quietly undoing it.
import { readFileSync } from 'node:fs';

const eager = "const childProcess = require('node:child_process');";
/**
 * commander requires node:child_process as it is loaded, for the subcommands that are programs of their own, which
 * esign has none of: child_process, with the net, dgram and stream modules it loads, was 3 ms of every command's
 * start. Required when commander first spawns one instead, which it does through `spawn` only.
 */
const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";

/** The esbuild plugin that makes the change as it loads commander's Command module. */
export const commanderForEsign = {
  name: 'commander-for-esign',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      const uses = source.match(/childProcess\.\w+/g) ?? [];
      if (source.split(eager).length !== 2 || uses.some((use) => use !== 'childProcess.spawn')) {
        throw new Error(`${path} no longer requires child_process once, for spawn only: update scripts/commander-for-esign.mjs`);
      }
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};
