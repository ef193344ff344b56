/**
 * @napi-rs/keyring inside the single executable (scripts/build-binary.mjs aliases the package to this module): the
 * native addon travels as an asset, and a shared library can only be loaded from a file, so it is written to a
 * private temporary directory, loaded, and the file removed again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRawAsset } from 'node:sea';

type Keyring = typeof import('@napi-rs/keyring');

/** The asset name the build script stores the addon under. */
export const KEYRING_ASSET = 'keyring.node';

function loadKeyringAddon(): Keyring {
  // mkdtemp makes the directory 0700: nobody else can swap the file between writing and loading it.
  const directory = mkdtempSync(join(tmpdir(), 'esign-keyring-'));
  try {
    const file = join(directory, KEYRING_ASSET);
    writeFileSync(file, new Uint8Array(getRawAsset(KEYRING_ASSET) as ArrayBuffer), { mode: 0o600, flag: 'wx' });
    const addon = { exports: {} as Keyring };
    process.dlopen(addon, file);
    return addon.exports;
  } finally {
    try {
      rmSync(directory, { recursive: true, force: true });
    } catch {
      // Windows keeps a loaded library's file locked; the directory then stays behind in the temp folder.
    }
  }
}

const keyring = loadKeyringAddon();
export const { AsyncEntry, Entry, findCredentials, findCredentialsAsync } = keyring;
