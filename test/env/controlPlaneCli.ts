// Starts and stops the test control plane from the shell (after `node esbuild.js --tests`):
//   node out/test/env/controlPlaneCli.js start [DIR]   starts it, prints `export` lines
//   node out/test/env/controlPlaneCli.js stop [DIR]    stops every process it started
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ControlPlane } from './controlPlane';
import { repoRoot } from './paths';

async function cli(argv: string[]): Promise<void> {
  const [command, dirArg] = argv;
  const dir = path.resolve(dirArg ?? path.join(repoRoot, '.run', 'control-plane'));
  if (command === 'start') {
    const plane = await ControlPlane.start(dir);
    const s = plane.info;
    process.stdout.write(`export KUBECONFIG=${s.adminKubeconfig}\nexport KEV_CONTROL_PLANE_DIR=${s.dir}\n# apiserver ${s.server}\n`);
  } else if (command === 'stop') {
    if (fs.existsSync(path.join(dir, 'state.json'))) await ControlPlane.attach(dir).stop();
  } else {
    process.stderr.write('usage: controlPlaneCli.js start|stop [DIR]\n');
    process.exitCode = 2;
  }
}

cli(process.argv.slice(2)).catch((e: Error) => {
  process.stderr.write(`control plane: ${e.message}\n`);
  process.exit(1);
});
