// The host benchmark (test/hostbench) in code-server against a control plane of its own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ControlPlane } from '../env/controlPlane';
import { repoRoot } from '../env/paths';

async function main(): Promise<void> {
  const plane = await ControlPlane.start(path.join(repoRoot, '.run', 'bench-host-control-plane'));
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'out', 'test', 'env', 'hostRunner.js'), path.join(repoRoot, 'test-results', 'hostbench.json'), 'hostbench'], {
      stdio: 'inherit',
      env: { ...process.env, KUBECONFIG: plane.info.adminKubeconfig, KEV_CONTROL_PLANE_DIR: plane.info.dir },
    });
  } finally {
    await plane.stop();
  }
  const results = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test-results', 'hostbench.json'), 'utf8')) as { failed: number };
  if (results.failed > 0) process.exitCode = 1;
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
