/**
 * A batch spec of `count` envelopes, one signer each, on `nda.pdf` (ndaPdf() beside the spec), titled `<prefix> e<i>`
 * so that countEnvelopes(emulator, `${prefix} `) finds them.
 */
export function ndaBatchSpec(prefix: string, count: number, deadline?: string): string {
  return [
    'version: 1',
    'defaults:',
    '  documents: [{ ref: nda, file: nda.pdf }]',
    ...(deadline ? [`  deadline: ${deadline}`] : []),
    'envelopes:',
    ...Array.from({ length: count }, (_, index) => [
      `  - ref: e${index}`,
      `    title: ${prefix} e${index}`,
      `    participants: [{ ref: p, name: Person ${index}, email: p${index}@example.test }]`,
      '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: p, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }]',
    ]).flat(),
    '',
  ].join('\n');
}
