// Changes to packages the program bundles, for a faster start, made by esbuild as it bundles the program
// (scripts/build.mjs; commander's also in the single executable's, scripts/build-binary.mjs). Each is checked, so that
// an update of the package that moves the code fails the build instead of quietly undoing it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
        throw new Error(`${path} no longer requires child_process once, for spawn only: update scripts/packages-for-esign.mjs`);
      }
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * chalk detects, as it is loaded, how many colours stdout and stderr take (its supports-color, which loads node:tty and
 * reads the environment: 2 ms of every command's start), for the default instances esign never uses: its output
 * decides colour by its own rule and makes its instances with that level (src/output/output.ts). chalk's browser
 * variant of the module detects nothing from Node: the program takes it. Not the single executable, which bundles ora
 * too, whose spinner colours with chalk's detected level (under Node, ora loads its own chalk from node_modules).
 */
export const chalkForEsign = {
  name: 'chalk-for-esign',
  setup(builder) {
    builder.onResolve({ filter: /^#supports-color$/ }, ({ importer }) => {
      const variant = join(dirname(importer), 'vendor', 'supports-color', 'browser.js');
      if (!/[\\/]chalk[\\/]source[\\/]index\.js$/.test(importer) || !existsSync(variant)) {
        throw new Error(`${importer} imports #supports-color where chalk's browser variant is not ${variant}: update scripts/packages-for-esign.mjs`);
      }
      return { path: variant };
    });
  },
};
