// KWOK as a component of the local control plane: it plays the kubelet of every node that
// carries the kwok.x-k8s.io/node=fake annotation, renews their leases, and moves their pods
// through our stages (kwokStages.ts). Built from the Go module proxy by build-kwok.sh.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { KWOK_NODE_KEY, KWOK_NODE_VALUE, kwokStagesYaml } from './kwokStages';
import { repoRoot } from './paths';

/** The kubelet's own default: the node lifecycle controller sees a node whose lease lapses for 40 s and more as unhealthy. */
export const NODE_LEASE_SECONDS = 40;
/** Pod IPs KWOK hands out when a node has no podCIDR (the service range is 10.0.0.0/24). */
const POD_CIDR = '10.244.0.0/16';
/** The InternalIP of a node without its own address annotation. */
const DEFAULT_NODE_IP = '10.89.0.1';

function env(name: string): string {
  return execFileSync('bash', ['-c', `. "${path.join(repoRoot, 'test', 'env', 'versions.sh')}" && echo "$${name}"`]).toString().trim();
}

/** Builds (or finds in the cache) the kwok binary and returns its path. */
export function kwokBinary(): string {
  const out = execFileSync('bash', [path.join(repoRoot, 'test', 'env', 'build-kwok.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(out.toString().trim().split('\n').pop() as string, 'kwok');
}

/** Writes DIR/kwok/stages.yaml and returns KWOK's command-line arguments (every other option keeps KWOK's default). */
export function kwokArgs(dir: string, kubeconfig: string, port: number): string[] {
  const work = path.join(dir, 'kwok');
  fs.mkdirSync(work, { recursive: true });
  const config = path.join(work, 'stages.yaml');
  fs.writeFileSync(config, kwokStagesYaml({ kubeletVersion: `v${env('KUBE_VERSION')}`, cpu: '4', memoryKi: 16_373_304, pods: 110 }));
  return [
    `--kubeconfig=${kubeconfig}`, `--config=${config}`,
    '--manage-all-nodes=false', `--manage-nodes-with-annotation-selector=${KWOK_NODE_KEY}=${KWOK_NODE_VALUE}`,
    `--node-lease-duration-seconds=${NODE_LEASE_SECONDS}`,
    `--cidr=${POD_CIDR}`, `--node-ip=${DEFAULT_NODE_IP}`,
    `--server-address=127.0.0.1:${port}`,
  ];
}

/** KWOK's environment: its work folder inside the plane, so a ~/.kwok/kwok.yaml of the user's is never read. */
export function kwokEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, KWOK_WORKDIR: path.join(dir, 'kwok') };
}

/** True once KWOK's server answers /healthz (it starts serving after its controllers have started). */
export function kwokHealthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 3000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
