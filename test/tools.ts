// `npm run test:tools`: installs, with Debian's apt-get, the system tools the tests drive
// (test/helpers/tools.ts) that are missing; `--check` only lists them. As root, or through sudo.
// The last line says what is installed; the exit status is 0 only when nothing is missing.
import { spawnSync } from 'node:child_process';
import { TOOLS, missingPackages } from './helpers/tools.ts';

const checkOnly = process.argv.includes('--check');
const names = Object.keys(TOOLS).join(', ');
let missing = missingPackages();
if (missing.length === 0) {
  console.log(`system tools the tests drive: all installed (${names})`);
  process.exit(0);
}
console.log(`system tools the tests drive: missing Debian packages ${missing.join(' ')}`);
if (checkOnly) process.exit(1);

const root = process.getuid?.() === 0;
const sudo = root ? [] : ['sudo', '--non-interactive'];
const aptGet = (args: string[]) => {
  const [cmd, ...rest] = [...sudo, 'apt-get', ...args];
  console.log(`$ ${[cmd, ...rest].join(' ')}`);
  return spawnSync(cmd!, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
};
const installed =
  aptGet(['update', '-qq']) && aptGet(['install', '-o', 'DPkg::Lock::Timeout=300', '-y', '-qq', '--no-install-recommends', ...missing]);
missing = missingPackages();
if (!installed || missing.length > 0) {
  console.error(
    `system tools the tests drive: still missing ${missing.join(' ') || '(apt-get failed)'}; as root: apt-get install ${missing.join(' ')}`,
  );
  process.exit(1);
}
console.log(`system tools the tests drive: all installed (${names})`);
