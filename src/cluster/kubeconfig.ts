import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig that cannot be used, with a message meant for the user. */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

/**
 * The kubeconfig files to read, in kubectl's order: an explicit path, else every
 * existing file of KUBECONFIG, else ~/.kube/config.
 */
export function kubeconfigFiles(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (explicitPath) return [explicitPath];
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((p) => p !== '');
  if (fromEnv.length > 0) return fromEnv.filter((p) => fs.existsSync(p));
  return [path.join(env.HOME ?? os.homedir(), '.kube', 'config')].filter((p) => fs.existsSync(p));
}

/**
 * Loads the kubeconfig, refusing client-node's silent fallback to
 * http://localhost:8080 when no file exists.
 */
export function loadKubeConfig(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): KubeConfig {
  const files = kubeconfigFiles(explicitPath, env);
  if (files.length === 0) {
    throw new KubeconfigError('No kubeconfig found: set KUBECONFIG, create ~/.kube/config, or set kubernetesEvents.kubeconfig.');
  }
  const kc = new KubeConfig();
  for (const file of files) {
    if (!fs.existsSync(file)) throw new KubeconfigError(`Kubeconfig ${file} does not exist.`);
  }
  try {
    if (files.length === 1) kc.loadFromFile(files[0]);
    else kc.loadFromDefault({}, false);
  } catch (e) {
    throw new KubeconfigError(`Kubeconfig ${files.join(path.delimiter)} cannot be read: ${(e as Error).message}`);
  }
  if (!kc.getCurrentCluster()) {
    throw new KubeconfigError(`Kubeconfig ${files.join(path.delimiter)} has no current context with a cluster.`);
  }
  return kc;
}
