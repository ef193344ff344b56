import { execFileSync } from 'node:child_process';
import { tempDir } from './cli.js';

/** Mounts a tmpfs of `size` (`8k`) on a new folder; throws where mounting is not permitted (not root). */
export function mountTmpfs(size: string): string {
  const point = tempDir('esign-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', point], { stdio: 'ignore' });
  return point;
}

export function remount(point: string, options: string): void {
  execFileSync('mount', ['-o', `remount,${options}`, point], { stdio: 'ignore' });
}

export function unmount(point: string): void {
  execFileSync('umount', [point], { stdio: 'ignore' });
}

/**
 * Whether this process may mount a small file system (a full disk, a read-only one): tried once, on a tmpfs that is
 * unmounted at once. Where it may not, the tests that need one are skipped, and say so.
 */
export const canMountTmpfs: boolean = (() => {
  try {
    unmount(mountTmpfs('4k'));
    return true;
  } catch {
    return false;
  }
})();
