// The body of `npm start` (see launch.js): picks a cluster, packages and installs the
// extension in code-server, prints the URL, and cleans up on Ctrl-C.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeconfigFiles } from '../../src/cluster/kubeconfig';
import { packageExtension } from '../ui/support';
import { CodeServer } from './codeServer';
import { writeDemoWorkspace } from './demoWorkspace';
import { ControlPlane } from './controlPlane';
import { repoRoot } from './paths';
import { seedCluster } from './seedCluster';

async function main(): Promise<void> {
  const runDir = path.join(repoRoot, '.run', 'start');
  const existing = kubeconfigFiles();
  let plane: ControlPlane | undefined;
  let kubeconfig: string;
  if (existing.length > 0) {
    kubeconfig = existing.join(path.delimiter);
    console.log(`Using the cluster in ${kubeconfig}`);
  } else {
    console.log('No KUBECONFIG and no ~/.kube/config: starting a local control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, KWOK) and seeding it...');
    plane = await ControlPlane.start(path.join(runDir, 'control-plane'));
    kubeconfig = plane.info.adminKubeconfig;
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    await seedCluster(kc).catch(async (e: Error) => {
      await plane?.stop();
      throw e;
    });
    console.log(`Control plane at ${plane.info.server}; KUBECONFIG=${kubeconfig} (kubectl: ${path.join(plane.info.binDir, 'kubectl')})`);
  }
  const vsix = packageExtension(path.join(runDir, 'vsix'));
  const port = process.env.KEV_PORT ? Number(process.env.KEV_PORT) : undefined;
  const workspace = path.join(runDir, 'workspace');
  // On the local cluster the workspace holds its manifests, which start the extension with the
  // workbench: it opens the Events view and the walkthrough. On your own cluster the Welcome
  // page offers the walkthrough; the Events view is in the activity bar.
  const settings = plane ? {} : { 'workbench.startupEditor': 'welcomePage' };
  const server = await CodeServer.start({ runDir: path.join(runDir, 'code-server'), workspace, vsix, port, settings, prepareWorkspace: plane ? writeDemoWorkspace : undefined, env: { KUBECONFIG: kubeconfig } });
  console.log(`\nKubernetes Events is running in VS Code at:\n\n  ${server.workbenchUrl()}\n\nOpen it in a browser (the Events view is in the activity bar). Ctrl-C stops everything.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await server.stop();
    await plane?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  fs.writeFileSync(path.join(runDir, 'url'), server.workbenchUrl() + '\n');
}

main().catch((e: Error) => {
  console.error(`npm start: ${e.message}`);
  process.exit(1);
});
