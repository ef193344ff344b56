import { UsageError } from '../core/errors.js';
import { readStreamCapped } from '../files/capped-read.js';

export async function readStdin(stdin: NodeJS.ReadableStream, what: string): Promise<string> {
  return (await readStdinBytes(stdin, what)).toString('utf8');
}

/** Standard input as bytes (a PDF body is not text), up to `maxBytes`. */
export async function readStdinBytes(stdin: NodeJS.ReadableStream, what: string, maxBytes?: number): Promise<Buffer> {
  if ((stdin as NodeJS.ReadStream).isTTY) {
    throw new UsageError(`${what} is read from standard input, but standard input is a terminal.`, 'Pipe it in, e.g. `printf %s "$KEY" | esign ...`, or run without the stdin flag to be asked.');
  }
  return readStreamCapped(stdin, `${what} on standard input`, maxBytes);
}
