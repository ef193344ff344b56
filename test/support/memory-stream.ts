import { Writable } from 'node:stream';

/**
 * A stream that keeps what is written to it, posing as a terminal (`isTTY`, of `columns`; 0 is one that tells no width)
 * or not, for the output layer's tests.
 */
export function memoryStream(isTTY = false, columns = 80): { stream: NodeJS.WriteStream; written: () => string } {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      written += String(chunk);
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, isTTY ? { isTTY, columns } : { isTTY });
  return { stream, written: () => written };
}
