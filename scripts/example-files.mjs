// `npm run examples`: the example files README.md and docs/ name that git does not hold. PDFs are generated (pdf-lib),
// never checked in. Run as a script it writes them under examples/; the docs test writes them into its own directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A one-page mutual NDA with a `{{signature}}` anchor for each of two signers. */
export async function ndaPdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  page.drawText('Mutual Non-Disclosure Agreement', { x: 72, y: 770, size: 18, font: bold });
  const body = [
    'The parties agree to keep confidential all information disclosed under this agreement',
    'and to use it only to evaluate a possible business relationship between them.',
    'This agreement lasts two years from the date of the last signature below.',
  ];
  body.forEach((line, index) => page.drawText(line, { x: 72, y: 720 - index * 18, size: 11, font }));
  page.drawText('Signed by:', { x: 72, y: 560, size: 11, font });
  page.drawText('{{signature}}', { x: 140, y: 560, size: 11, font });
  page.drawText('Signed by:', { x: 72, y: 480, size: 11, font });
  page.drawText('{{signature}}', { x: 140, y: 480, size: 11, font });
  return pdf.save();
}

/** Generated files, by path under the directory that holds examples/. */
export async function exampleFiles() {
  return { 'examples/nda/nda.pdf': await ndaPdf() };
}

export async function writeExampleFiles(root) {
  for (const [path, bytes] of Object.entries(await exampleFiles())) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await writeExampleFiles(root);
  for (const path of Object.keys(await exampleFiles())) console.log(`wrote ${path}`);
}
