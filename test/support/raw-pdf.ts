/** PDFs written byte by byte, for the files pdf-lib will not make: damaged, encrypted by hand, or hostile. */

/** The header every file here starts with; the second line marks the file as binary. */
const HEADER = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');

/** A stream object's body: its dictionary (`entries` inside << >>, Length added) and its bytes. */
export function streamObject(bytes: Uint8Array, entries = ''): Buffer {
  return Buffer.concat([Buffer.from(`<< /Length ${bytes.length}${entries ? ` ${entries}` : ''} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);
}

/**
 * Objects 1..n (`objects[i]` is object i + 1, object 1 the catalog) with a classic cross-reference table and a trailer
 * holding `trailerEntries` besides Size and Root.
 */
export function assemblePdf(objects: readonly Uint8Array[], trailerEntries = ''): Uint8Array {
  const parts: Uint8Array[] = [HEADER];
  let length = HEADER.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerEntries ? ` ${trailerEntries}` : ''} >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}
