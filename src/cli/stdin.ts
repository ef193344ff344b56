import { UsageError } from '../api/errors.js';

export async function readStdin(stdin: NodeJS.ReadableStream, what: string): Promise<string> {
  return (await readStdinBytes(stdin, what)).toString('utf8');
}

export async function readStdinBytes(stdin: NodeJS.ReadableStream, what: string): Promise<Buffer> {
  if ((stdin as NodeJS.ReadStream).isTTY) {
    throw new UsageError(`${what} is read from standard input, but standard input is a terminal.`, 'Pipe it in, e.g. `printf %s "$KEY" | esign ...`, or run without the stdin flag to be asked.');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
