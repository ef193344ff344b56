/**
 * PDFs that are broken or encrypted in the ways real files are, built byte by byte: the CLI (`anchors find --local`)
 * and the emulator must treat each one the same way.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { assemblePdf, streamObject } from './raw-pdf.js';

/** The one line every file here draws, and where (Helvetica 12, baseline at y = 700 of a Letter page). */
export const DAMAGED_PDF_TEXT = 'Signed by: {{signature}}';

/** Standard security handler padding (PDF 32000-1, 7.6.3.3). */
const PASSWORD_PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const FILE_ID = Buffer.from('5a1f0c9e7d3b4a6e8f2d1c0b9a887766', 'hex');
/** Every permission: the bits a reader ignores are set as the specification asks. */
const PERMISSIONS = -4;

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Array.from({ length: 256 }, (_, index) => index);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[n] = data[n]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]): Buffer => createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (password: string): Buffer => Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PADDING]).subarray(0, 32);

/** Revision 2 (40-bit RC4) of the standard security handler: the O and U entries and the file key for `userPassword`. */
function standardSecurity(userPassword: string, ownerPassword: string): { owner: Buffer; user: Buffer; fileKey: Buffer } {
  const owner = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  const fileKey = md5(padded(userPassword), owner, permissions, FILE_ID).subarray(0, 5);
  return { owner, user: rc4(fileKey, PASSWORD_PADDING), fileKey };
}

function objectKey(fileKey: Buffer, objectNumber: number): Buffer {
  const suffix = Buffer.from([objectNumber & 0xff, (objectNumber >> 8) & 0xff, (objectNumber >> 16) & 0xff, 0, 0]);
  return md5(fileKey, suffix).subarray(0, fileKey.length + 5);
}

/** How the page content is stored: as it is, or Flate-compressed with its last bytes (the checksum) changed or cut. */
type ContentStorage = 'plain' | 'flate' | 'flate, checksum wrong' | 'flate, end cut off';

function storedContent(content: Buffer, storage: ContentStorage): { bytes: Buffer; filter: string } {
  if (storage === 'plain') return { bytes: content, filter: '' };
  const compressed = deflateSync(content);
  if (storage === 'flate, checksum wrong') compressed.writeUInt32BE(compressed.readUInt32BE(compressed.length - 4) ^ 0xffffffff, compressed.length - 4);
  return { bytes: storage === 'flate, end cut off' ? compressed.subarray(0, compressed.length - 6) : compressed, filter: '/Filter /FlateDecode' };
}

/**
 * A one-page PDF drawing DAMAGED_PDF_TEXT with a classic cross-reference table; encrypted (RC4, revision 2) when
 * `encryption` is given.
 */
export function handWrittenPdf(encryption?: { userPassword: string }, storage: ContentStorage = 'plain'): Uint8Array {
  const { bytes: content, filter } = storedContent(Buffer.from(`BT /F1 12 Tf 72 700 Td (${DAMAGED_PDF_TEXT}) Tj ET`, 'latin1'), storage);
  const security = encryption ? standardSecurity(encryption.userPassword, 'owner secret') : undefined;
  const stream = security ? rc4(objectKey(security.fileKey, 5), content) : content;
  const objects = onePageObjects({ bytes: stream, filter });
  if (security) {
    objects.push(Buffer.from(`<< /Filter /Standard /V 1 /R 2 /O <${security.owner.toString('hex')}> /U <${security.user.toString('hex')}> /P ${PERMISSIONS} >>`));
  }
  const encrypt = security ? `/Encrypt ${objects.length} 0 R ` : '';
  return assemblePdf(objects, `${encrypt}/ID [<${FILE_ID.toString('hex')}> <${FILE_ID.toString('hex')}>]`);
}

/** The objects of a one-page Letter PDF drawing `content` (Flate-compressed when asked) in Helvetica. */
function onePageObjects(content: { bytes: Buffer; filter: string }): Buffer[] {
  return [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>'),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    streamObject(content.bytes, content.filter),
  ];
}

/** The same bytes with `from` replaced by `to` (same length, so that no offset moves) at its first occurrence. */
function patched(bytes: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('a patch keeps the length');
  const copy = Buffer.from(bytes);
  const at = copy.indexOf(from, 0, 'latin1');
  if (at === -1) throw new Error(`"${from}" is not in the PDF`);
  copy.write(to, at, 'latin1');
  return new Uint8Array(copy);
}

/** Named damaged and encrypted variants of handWrittenPdf, each a way real files break. */
export function damagedPdfs(): Record<string, Uint8Array> {
  const intact = handWrittenPdf();
  const text = Buffer.from(intact).toString('latin1');
  const xrefAt = text.indexOf('xref\n');
  const contentAt = text.indexOf('5 0 obj');
  const table = text.slice(xrefAt, text.indexOf('trailer'));
  return {
    intact,
    'truncated before the cross-reference table': intact.subarray(0, xrefAt),
    'truncated inside the page content': intact.subarray(0, contentAt + 40),
    'truncated after the header': intact.subarray(0, 20),
    'cross-reference offsets wrong': patched(intact, table, table.replace(/(\d{10}) 00000 n/g, (_, offset: string) => `${String(Number(offset) + 7).padStart(10, '0')} 00000 n`)),
    'startxref points past the end': patched(intact, `startxref\n${xrefAt}`, `startxref\n${'9'.repeat(String(xrefAt).length)}`),
    'no catalog': patched(intact, '/Type /Catalog /Pages 2 0 R', '/Type /Catalog /Pages 9 0 R'),
    'encrypted, empty user password': handWrittenPdf({ userPassword: '' }),
    'page content compressed': handWrittenPdf(undefined, 'flate'),
    'compressed page content with a wrong checksum': handWrittenPdf(undefined, 'flate, checksum wrong'),
    'compressed page content with its end cut off': handWrittenPdf(undefined, 'flate, end cut off'),
    'encrypted, user password needed': handWrittenPdf({ userPassword: 'secret' }),
  };
}
