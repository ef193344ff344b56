/**
 * The house's layers, kept by dependency-cruiser (`npm run lint`). ARCHITECTURE.md explains each floor.
 * A module may import its own folder and any folder below its own floor; never one above, and never in a cycle.
 */
const floors = [
  ['main', 'sea', 'manual'],
  ['commands'],
  ['batch'],
  ['workflows'],
  ['cli'],
  ['output'],
  ['auth'],
  ['config'],
  ['input'],
  ['api'],
  ['pdf'],
  ['files'],
  ['core'],
  ['shared'],
];
/** The emulator stands apart: the contract's rules (api's operation table), PDFs, files and shared rules only. */
const emulatorMayImport = ['emulator', 'api', 'pdf', 'files', 'core', 'shared'];

const folder = (name) => (name === 'main' ? 'src/main\\.ts$' : `src/${name}/`);
const any = (names) => `^(${names.map(folder).join('|')})`;

const upward = floors.flatMap((floor, index) => {
  const above = floors.slice(0, index).flat();
  const beside = floor.length > 1 ? floor : [];
  return floor.map((name) => ({
    name: `${name}-imports-down`,
    comment: `src/${name} imports only from floors below it (${floors.slice(index + 1).flat().join(', ')})${beside.length ? '' : ''}.`,
    severity: 'error',
    from: { path: `^${folder(name)}` },
    to: { path: any([...above, ...beside.filter((other) => other !== name), 'emulator'].filter((n) => n !== 'emulator' || index > 1)) },
  }));
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycles, inside a folder or across.', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    {
      name: 'emulator-stands-apart',
      comment: `src/emulator imports only ${emulatorMayImport.join(', ')}.`,
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/', pathNot: any(emulatorMayImport) },
    },
    {
      name: 'only-commands-start-the-emulator',
      comment: 'The emulator is started by its commands (and tests), never by a layer below them.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^(src/emulator/|${any(floors[0].concat(floors[1])).slice(1)})` },
      to: { path: '^src/emulator/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
