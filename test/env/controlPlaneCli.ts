// Starts and stops the test control plane from the shell (after `node esbuild.js --tests`):
//   node out/test/env/controlPlaneCli.js start [DIR] [--seed]
//       starts it (with --seed, and seeds the lively cluster of seedCluster.ts), prints `export` lines
//   node out/test/env/controlPlaneCli.js stop [DIR]
//       stops every process it started
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ControlPlane } from './controlPlane';
import { repoRoot } from './paths';
import { seedCluster } from './seedCluster';

async function cli(argv: string[]): Promise<void> {
  const seed = argv.includes('--seed');
  const [command, dirArg] = argv.filter((a) => !a.startsWith('--'));
  const dir = path.resolve(dirArg ?? path.join(repoRoot, '.run', 'control-plane'));
  if (command === 'start') {
    let t = Date.now();
    const plane = await ControlPlane.start(dir);
    const s = plane.info;
    process.stderr.write(`control plane: started in ${((Date.now() - t) / 1000).toFixed(1)}s\n`);
    if (seed) {
      t = Date.now();
      const kc = new KubeConfig();
      kc.loadFromFile(s.adminKubeconfig);
      await seedCluster(kc);
      process.stderr.write(`control plane: seeded in ${((Date.now() - t) / 1000).toFixed(1)}s\n`);
    }
    process.stdout.write(`export KUBECONFIG=${s.adminKubeconfig}\nexport KEV_CONTROL_PLANE_DIR=${s.dir}\n# apiserver ${s.server}\n`);
  } else if (command === 'stop') {
    if (fs.existsSync(path.join(dir, 'state.json'))) await ControlPlane.attach(dir).stop();
  } else {
    process.stderr.write('usage: controlPlaneCli.js start [DIR] [--seed] | stop [DIR]\n');
    process.exitCode = 2;
  }
}

cli(process.argv.slice(2)).catch((e: Error) => {
  process.stderr.write(`control plane: ${e.message}\n`);
  process.exit(1);
});
