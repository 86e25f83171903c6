// `npm start`: installs what is missing, builds, and opens the extension in a real VS Code
// (code-server on loopback), against the cluster in KUBECONFIG or ~/.kube/config or, when
// there is none, a local control plane started here and seeded with a small workload.
// Plain JavaScript so it runs before anything is built.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
function step(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`npm start: ${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

const marker = path.join(root, 'node_modules', '.package-lock.json');
if (!fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(path.join(root, 'package-lock.json')).mtimeMs) {
  step('npm', ['ci', '--no-audit', '--no-fund']);
}
step('bash', [path.join(__dirname, 'setup.sh'), 'vscode']);
step(process.execPath, [path.join(root, 'esbuild.js'), '--tests']);
require(path.join(root, 'out', 'test', 'env', 'startWorkbench.js'));
