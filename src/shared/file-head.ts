import { open } from 'node:fs/promises';

/** The first `length` bytes of a file (fewer if it is shorter): enough to tell a PDF, a ZIP or a page of HTML apart. */
export async function readFileHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
