/**
 * The single executable's main script (scripts/build-binary.mjs). V8 compiles a main script whole before it runs, and
 * esign's bundle is megabytes: as the main, even `esign --version` paid for reading and deserialising all of it. So
 * the main is this file. It answers `--version` and `--help` as bin/esign.cjs does under Node, with text the build
 * took from the program itself, and otherwise compiles the program from its asset with the code cache the build
 * recorded while the program ran a real command (so the functions a command needs are compiled already).
 */
import { getRawAsset } from 'node:sea';
import { compileCommonJsAsset } from './commonjs-asset.js';

declare const ESIGN_VERSION: string;
declare const ESIGN_HELP: string;

/** The asset names the build script stores the program and its code cache under. */
const PROGRAM_ASSET = 'esign.js';
const PROGRAM_CODE_CACHE_ASSET = 'esign.js.cache';

const args = process.argv.slice(2);

function runProgram(): void {
  const program = compileCommonJsAsset(PROGRAM_ASSET, require, getRawAsset(PROGRAM_CODE_CACHE_ASSET) as ArrayBuffer);
  if (args.includes('--debug')) {
    // A refused cache costs every command a few hundred milliseconds: say so where someone looking for it will look.
    const how = program.cacheRejected ? "V8 refused the executable's code cache (other V8 flags?): compiled from source" : "compiled from the executable's code cache";
    process.stderr.write(`[debug] start-up: ${how}\n`);
  }
  program.run();
}

/** As in bin/esign.cjs: a quick answer stdout cannot take is left to the program, which reports OUTPUT_LOST. */
function answer(text: string): void {
  process.stdout.once('error', runProgram);
  process.stdout.write(text);
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  answer(`${ESIGN_VERSION}\n`);
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  answer(ESIGN_HELP);
} else {
  runProgram();
}
