// The pinned versions of test/env/versions.sh, the one place they are written, read from TypeScript.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './paths';

const cache = new Map<string, string>();

/** The value versions.sh gives `name` (KUBE_VERSION honours KEV_K8S_VERSION). */
export function pinned(name: string): string {
  let v = cache.get(name);
  if (v === undefined) {
    v = execFileSync('bash', ['-c', `. "${path.join(repoRoot, 'test', 'env', 'versions.sh')}" && echo "$${name}"`]).toString().trim();
    cache.set(name, v);
  }
  return v;
}

/** The Kubernetes release this run's control plane is built from. */
export function kubeRelease(): { version: string; minor: number } {
  const version = pinned('KUBE_VERSION');
  return { version, minor: Number.parseInt(version.split('.')[1], 10) };
}
