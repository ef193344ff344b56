/**
 * How `esign batch validate|plan` read and check what they are given: encodings, rows files, expressions, ids, YAML
 * constructs, the same input twice. Each refusal is exit 2 with `file:line:column`, before anything is sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEsign, tempDir, type RunOptions } from './support/cli.js';
import { ndaPdf } from './support/pdfs.js';

let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-batch-input-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options });
}

function write(name: string, content: string | Buffer): string {
  writeFileSync(join(dir, name), content);
  return name;
}

/** A valid envelope spec (one signer, one position field); `extra` lines are added at the top level. */
function spec(title: string, extra: string[] = [], file = 'nda.pdf'): string {
  return [
    'ref: s1',
    `title: ${title}`,
    ...extra,
    'participants:',
    '  - { ref: ada, name: "Ada", email: ada@example.test }',
    'documents:',
    `  - { ref: nda, file: ${file} }`,
    'fields:',
    '  - { type: SIGNATURE, documentRef: nda, participantRef: ada, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }',
    '',
  ].join('\n');
}

async function refused(args: readonly string[], options: RunOptions = {}) {
  const result = await esign(args, options);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result.stderr;
}

describe('batch specs and rows are read as UTF-8', () => {
  it('refuses a Latin-1 byte in an each: CSV, naming the file, line and column, instead of sending "M\uFFFDller"', async () => {
    write('latin1.csv', Buffer.concat([Buffer.from('name,email,company\nM'), Buffer.from([0xfc]), Buffer.from('ller,ada@example.test,Acme\n')]));
    write('latin1-rows.yaml', spec('NDA ${{ row.company }}', ['each: latin1.csv']));
    expect(await refused(['batch', 'plan', 'latin1-rows.yaml'])).toContain('latin1.csv:2:2: byte 0xFC is not UTF-8');
  });

  it('refuses a byte 0xFF in a spec at its line and column', async () => {
    const [before, after] = spec('NDA @').split('@');
    write('ff.yaml', Buffer.concat([Buffer.from(before!), Buffer.from([0xff]), Buffer.from(after!)]));
    expect(await refused(['batch', 'validate', 'ff.yaml'])).toContain('ff.yaml:2:12: byte 0xFF is not UTF-8');
  });

  it('names UTF-16 when the spec starts with its byte order mark', async () => {
    write('utf16.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(spec('NDA'), 'utf16le')]));
    expect(await refused(['batch', 'validate', 'utf16.yaml'])).toContain('utf16.yaml:1:1: the text is UTF-16 (little-endian)');
  });

  it('counts columns on line 1 from after a UTF-8 byte order mark', async () => {
    write('bom.yaml', '\uFEFFversion: "1"\nenvelopes: []\n');
    expect(await refused(['batch', 'validate', 'bom.yaml'])).toContain('bom.yaml:1:10:');
  });
});

describe('batch document files', () => {
  it('says a folder named x.pdf is a folder, and a FIFO is not a regular file', async () => {
    mkdirSync(join(dir, 'folder.pdf'));
    execFileSync('mkfifo', [join(dir, 'fifo.pdf')]);
    write('folder-doc.yaml', spec('NDA', [], 'folder.pdf'));
    write('fifo-doc.yaml', spec('NDA', [], 'fifo.pdf'));
    expect(await refused(['batch', 'validate', 'folder-doc.yaml'])).toMatch(/folder-doc\.yaml:6:\d+: \S*folder\.pdf is a folder, not a regular file\./);
    expect(await refused(['batch', 'validate', 'fifo-doc.yaml'])).toMatch(/fifo-doc\.yaml:6:\d+: \S*fifo\.pdf is a named pipe, not a regular file\./);
  });
});

describe('YAML aliases and merge keys in batch files', () => {
  const merged = [
    'version: 1', //                                                           1
    'envelopes:', //                                                           2
    '  - &base', //                                                            3
    '    ref: a', //                                                           4
    '    title: A', //                                                         5
    '    participants: [{ ref: ada, name: Ada, email: ada@example.test }]', // 6
    '    documents: [{ ref: nda, file: nda.pdf }]', //                         7
    '    fields:', //                                                          8
    '      - { type: SIGNATURE, documentRef: nda, participantRef: ada, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }',
    '  - <<: *base', //                                                        10
    '    ref: b', //                                                           11
    '    title: B', //                                                         12
  ];

  it('merges `<<: *base` into an envelope', async () => {
    write('merged.yaml', [...merged, ''].join('\n'));
    const result = await esign(['--json', 'batch', 'validate', 'merged.yaml']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ envelopes: [{ ref: 'a', documents: 1 }, { ref: 'b', documents: 1 }] });
  });

  it('points a problem of a merged value at the line it is written on', async () => {
    write('merged-bad.yaml', [...merged, ''].join('\n').replace('file: nda.pdf', 'file: missing.pdf'));
    const stderr = await refused(['batch', 'validate', 'merged-bad.yaml']);
    // Envelope a's own value and envelope b's merged one: both written on line 7.
    expect(stderr).toMatch(/2 problems[^]*merged-bad\.yaml:7:\d+: no such file \(\S*missing\.pdf\)[^]*merged-bad\.yaml:7:\d+: no such file \(\S*missing\.pdf\)/);
  });

  it('says an alias is not defined, at its line and column', async () => {
    write('no-anchor.yaml', 'version: 1\nenvelopes: [*nope]\n');
    expect(await refused(['batch', 'validate', 'no-anchor.yaml'])).toContain('no-anchor.yaml:2:13: the alias *nope is not defined');
  });
});

describe('${{ }} expressions', () => {
  const key = 'em_test_AAAAAAAAAAAAAAAAAAAA9m8S';

  it.each([
    ['an environment variable', 'key-env.yaml', spec('${{ env.ESIGN_API_KEY }}'), /key-env\.yaml:2:8: title: holds text shaped like an API key \(from \$\{\{ env\.ESIGN_API_KEY \}\}\)/],
    ['a row', 'key-row.yaml', spec('NDA ${{ row.company }}', ['each: key-rows.csv']), /key-row\.yaml:2:8: title: holds text shaped like an API key \(from \$\{\{ row\.company \}\}\).*\(row key-rows\.csv:2\)/],
    ['the spec itself', 'key-literal.yaml', spec(`NDA ${key}`), /key-literal\.yaml:2:8: title: holds text shaped like an API key;/],
  ])('refuse an API key from %s as envelope data, without printing it (exit 2)', async (_from, name, text, says) => {
    write('key-rows.csv', `name,email,company\nAda,ada@example.test,${key}\n`);
    write(name, text);
    for (const command of ['validate', 'plan']) {
      const stderr = await refused(['batch', command, name], { env: { ESIGN_API_KEY: key } });
      expect(stderr).toMatch(says);
      expect(stderr).toContain('an API key is never sent as envelope data');
      expect(stderr).not.toContain('AAAAAAAAAAAA');
    }
  });

  it('refuse a list, a mapping or null put into text, naming the expression and what it found', async () => {
    write('odd-rows.yaml', '- { company: { nested: 1 } }\n- { company: null }\n- { company: [1, 2] }\n- { company: 7 }\n');
    write('odd.yaml', spec('NDA ${{ row.company }}', ['each: odd-rows.yaml']));
    const stderr = await refused(['batch', 'plan', 'odd.yaml']);
    expect(stderr).toContain('3 problems');
    for (const [kind, row] of [['a mapping', '1:3'], ['nothing (null)', '2:3'], ['a list', '3:3']]) {
      expect(stderr).toContain(`odd.yaml:2:8: title: \${{ row.company }} is ${kind}, which cannot be put into text: only text, a number or true/false can (row odd-rows.yaml:${row})`);
    }
  });

  it('refuse a ${{ that is never closed instead of sending it as written', async () => {
    write('unclosed.yaml', spec('NDA ${{ row.company'));
    expect(await refused(['batch', 'plan', 'unclosed.yaml'])).toContain('unclosed.yaml:2:8: title: ${{ is not closed with }} (in "NDA ${{ row.company")');
  });
});

describe('each: CSV rows', () => {
  it('refuse a column named twice or not at all in the header line, at its line and column', async () => {
    write('dup-header.csv', 'name,"a,b",,email,name\nAda,x,y,ada@example.test,Z\n');
    write('dup-header.yaml', spec('NDA ${{ row.name }}', ['each: dup-header.csv']));
    const stderr = await refused(['batch', 'validate', 'dup-header.yaml']);
    expect(stderr).toContain('dup-header.csv:1:12: column 3 has no name in the header line');
    expect(stderr).toContain('dup-header.csv:1:19: column "name" is named twice in the header line (first at dup-header.csv:1:1)');
  });
});

describe('ids in specs', () => {
  it('refuse every id the API layer would refuse (templateId, folderId, templateParticipantId), at its place, before anything is sent', async () => {
    write(
      'bad-ids.yaml',
      [
        'version: 1', //                                  1
        'envelopes:', //                                  2
        '  - ref: t', //                                  3
        '    via: template', //                           4
        '    templateId: "ab/cd\\u0001"', //              5
        '    folderId: "a%2Fb"', //                       6
        '    participants:', //                           7
        '      - { templateParticipantId: "..", name: Ada, email: ada@example.test }', // 8
        '  - ref: f', //                                  9
        '    title: F', //                                10
        '    folderId: "x?y"', //                         11
        '    participants: [{ ref: ada, name: Ada, email: ada@example.test }]',
        '    documents: [{ ref: nda, file: nda.pdf }]',
        '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: ada, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }]',
        '',
      ].join('\n'),
    );
    const stderr = await refused(['batch', 'validate', 'bad-ids.yaml']);
    for (const where of ['5:17: templateId: "ab/cd\\u0001"', '6:15: folderId: "a%2Fb"', '8:34: participants[0].templateParticipantId: ".."', '11:15: folderId: "x?y"']) {
      expect(stderr).toContain(`bad-ids.yaml:${where} is not a usable id: an id cannot be empty`);
    }
  });
});

describe('every problem of a batch in one run', () => {
  it('a duplicate ref does not hide the other problems: typo, e-mail, missing file, page out of range', async () => {
    const envelope = (ref: string, email: string, file: string, extra: string[] = []) => [
      `  - ref: ${ref}`,
      '    title: T',
      ...extra,
      `    participants: [{ ref: ada, name: Ada, email: ${email} }]`,
      `    documents: [{ ref: nda, file: ${file} }]`,
      '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: ada, pageNumber: 9, position: { x: 72, y: 100 }, size: { width: 150, height: 40 } }]',
    ];
    write('all-problems.yaml', ['version: 1', 'envelopes:', ...envelope('a', 'ada-at-example', 'missing.pdf', ['    titel: x']), ...envelope('a', 'ada@example.test', 'nda.pdf'), ''].join('\n'));
    const stderr = await refused(['batch', 'validate', 'all-problems.yaml']);
    expect(stderr).toContain('5 problems');
    expect(stderr).toContain('all-problems.yaml:9:10: ref "a" is already used at all-problems.yaml:3:10');
    expect(stderr).toContain('all-problems.yaml:5:12: titel: unknown key');
    expect(stderr).toContain('all-problems.yaml:6:50: participants[0].email');
    expect(stderr).toMatch(/all-problems\.yaml:7:\d+: no such file \(\S*missing\.pdf\)/);
    expect(stderr).toMatch(/all-problems\.yaml:13:\d+: FIELD_PAGE_OUT_OF_BOUNDS/);
  });
});

describe('the same input given twice', () => {
  it('says a file is given twice, by any path to it, instead of a duplicate ref at its own place', async () => {
    write('twice.yaml', spec('Twice'));
    expect(await refused(['batch', 'validate', 'twice.yaml', './twice.yaml'])).toContain('twice.yaml:1:1: ./twice.yaml is given twice (arguments 1 and 2, as twice.yaml); each spec file is read once');
  });

  it('says standard input is given twice, instead of "the file is empty"', async () => {
    expect(await refused(['batch', 'plan', '-', '-'], { input: spec('Twice') })).toContain('<stdin>:1:1: standard input (-) is given twice (arguments 1 and 2); it can be read only once');
  });
});

describe('values of the wrong kind', () => {
  it.each([
    ['deadline: null', /kind-deadline-null\.yaml:3:11: deadline: expected an ISO 8601 date-time \(2030-01-31T17:00:00Z\) or a duration from now \(7d, 36h\); found nothing \(null\)/],
    ['deadline: 7', /deadline: expected an ISO 8601 date-time .*; found a whole number \(7\)/],
    ['message: .nan', /message: expected text, found not a number \(\.nan\)/],
    ['message: 1e400', /message: expected text, found an infinite number/],
  ])('%s is said plainly, with what is accepted', async (line, says) => {
    const name = write(`kind-${line.replace(/\W+/g, '-')}.yaml`, spec('T', [line]));
    const stderr = await refused(['batch', 'validate', name]);
    expect(stderr).toMatch(says);
    expect(stderr).not.toMatch(/Invalid input|found a number$/m);
  });

  it('a page number too large for a whole number says the largest accepted', async () => {
    write('huge-page.yaml', spec('T').replace('pageNumber: 1', 'pageNumber: 99999999999999999999999'));
    expect(await refused(['batch', 'validate', 'huge-page.yaml'])).toContain('huge-page.yaml:8:75: fields[0].pageNumber: too large: must be at most 9007199254740991, found 1e+23');
  });
});
