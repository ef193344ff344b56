import { Writable } from 'node:stream';

/** A stream that keeps what is written to it, posing as a terminal (`isTTY`) or not, for the output layer's tests. */
export function memoryStream(isTTY = false): { stream: NodeJS.WriteStream; written: () => string } {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      written += String(chunk);
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY });
  return { stream, written: () => written };
}
