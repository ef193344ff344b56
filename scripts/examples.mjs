// `npm run examples`: draws the PDFs the examples send, next to the specs that name them (they are .gitignored: the
// repository holds the drawing, not the binaries): examples/batch/*.pdf and examples/nda/nda.pdf. Every anchor the
// specs name (`{{sign-employee}}`, `{{signature}}`, ...) is text in these pages, so `esign batch validate` and
// `esign fields check --local` find it offline, and every position field lies inside its page.
//   node scripts/examples.mjs [dir]   writes under dir (a copy of examples/) instead of examples/ (the tests use a copy)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** US Letter, Helvetica 12, one line every 20 points from 100 points below the top. */
async function pdf(title, pages) {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, index) => page.drawText(line, { x: 72, y: 792 - 100 - index * 20, size: 12, font }));
  }
  return doc.save({ useObjectStreams: false });
}

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

/** Every generated example file, by its path under examples/. */
export async function exampleFiles() {
  return {
    'batch/nda.pdf': await pdf('Mutual non-disclosure agreement', [
      [
        'MUTUAL NON-DISCLOSURE AGREEMENT',
        '',
        'The parties agree to keep confidential all information exchanged',
        'under this agreement for a period of five (5) years.',
        '',
        'Recipient',
        'Signed by: {{sign-recipient}}',
        '',
        '',
        'Date: {{date-recipient}}',
      ],
    ]),
    'batch/offer-letter.pdf': await pdf('Offer letter', [
      ['OFFER OF EMPLOYMENT', '', 'We are pleased to offer you the position described below.', '', 'Start date, salary and benefits follow on page 2.'],
      ['TERMS', '', '1. The position is full time.', '2. The salary is paid monthly.', '3. The probation period is three months.'],
      [
        'ACCEPTANCE',
        '',
        'Approved for the company (HR):',
        '{{approve-hr}}',
        '',
        'Accepted by the employee:',
        '{{sign-employee}}',
        '',
        '',
        'Initials: {{initials-employee}}',
      ],
    ]),
    'nda/nda.pdf': await ndaPdf(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const into = process.argv[2] ?? fileURLToPath(new URL('../examples', import.meta.url));
  for (const [path, bytes] of Object.entries(await exampleFiles())) {
    mkdirSync(dirname(join(into, path)), { recursive: true });
    writeFileSync(join(into, path), bytes);
    console.log(`wrote ${join(into, path)}`);
  }
}
