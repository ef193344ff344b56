/**
 * The house's layers, kept by dependency-cruiser in `npm run lint` (ARCHITECTURE.md explains each floor).
 * A module imports its own folder and the floors below its own; never a floor above or a folder beside it on its
 * floor, and never in a cycle. The emulator stands apart and imports only what both sides of the contract share.
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
const emulatorImports = ['api', 'pdf', 'files', 'core', 'shared'];
/** Who may start the emulator: its commands and the entry points above them. */
const emulatorImportedBy = [...floors[0], ...floors[1]];

const folder = (name) => (name === 'main' ? 'src/main\\.ts$' : `src/${name}/`);
const oneOf = (names) => `^(${names.map(folder).join('|')})`;

const layerRules = floors.flatMap((floor, index) =>
  floor.map((name) => {
    const below = floors.slice(index + 1).flat();
    return {
      name: `${name}-imports-down`,
      comment: `src/${name} imports only ${below.length ? below.join(', ') : 'nothing else of src'}.`,
      severity: 'error',
      from: { path: `^${folder(name)}` },
      to: { path: '^src/', pathNot: oneOf([name, ...below, ...(emulatorImportedBy.includes(name) ? ['emulator'] : [])]) },
    };
  }),
);

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'No import cycles, inside a folder or across folders.', severity: 'error', from: {}, to: { circular: true } },
    ...layerRules,
    {
      name: 'emulator-stands-apart',
      comment: `src/emulator imports only ${emulatorImports.join(', ')}: never commands, cli, auth, config or output.`,
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/', pathNot: oneOf(['emulator', ...emulatorImports]) },
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
