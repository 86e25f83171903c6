// `npm run bench`: builds, then runs every compiled benchmark (out/test/bench/*.bench.js)
// one after the other. Each runs its reference side by side and prints the ratio.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const only = process.argv[2];
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (run([path.join(root, 'esbuild.js'), '--tests']) !== 0) process.exit(1);
const dir = path.join(root, 'out', 'test', 'bench');
let failed = 0;
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.bench.js') && (!only || f.startsWith(only))).sort()) {
  console.log(`\n━━ ${f.replace(/\.bench\.js$/, '')}`);
  if (run(['--expose-gc', path.join(dir, f)]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
