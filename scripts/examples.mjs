// `npm run examples`: draws the PDFs the specs in examples/batch/ send, next to them (they are .gitignored: the
// repository holds the drawing, not the binaries). Every anchor the specs name (`{{sign-employee}}`, ...) is text in
// these pages, so `esign batch validate` finds it offline, and every position field lies inside its page.
//   node scripts/examples.mjs [dir]   writes into dir instead of examples/batch (the tests use a copy)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const root = fileURLToPath(new URL('..', import.meta.url));
const into = process.argv[2] ?? join(root, 'examples', 'batch');

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

const documents = {
  'nda.pdf': await pdf('Mutual non-disclosure agreement', [
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
  'offer-letter.pdf': await pdf('Offer letter', [
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
};

mkdirSync(into, { recursive: true });
for (const [name, bytes] of Object.entries(documents)) {
  writeFileSync(join(into, name), bytes);
  console.log(`wrote ${join(into, name)}`);
}
