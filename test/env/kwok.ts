// KWOK as a component of the local control plane: it plays the kubelet of every node that
// carries the kwok.x-k8s.io/node=fake annotation, renews their leases, moves their pods
// through our stages (kwokStages.ts), and serves their containers' logs (kwokLogRules.ts)
// over HTTPS to the apiserver, as kubelets do. Built from the Go module proxy by build-kwok.sh.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as path from 'node:path';
import { kwokLogRulesYaml, prepareKwokLogs } from './kwokLogRules';
import { KWOK_NODE_KEY, KWOK_NODE_VALUE, kwokStagesYaml } from './kwokStages';
import { repoRoot } from './paths';
import { KUBELET_ADDRESS, KUBELET_SERVING } from './pki';
import { pinned } from './versions';

/** The kubelet's own default: the node lifecycle controller sees a node whose lease lapses for 40 s and more as unhealthy. */
export const NODE_LEASE_SECONDS = 40;
/** Pod IPs KWOK hands out when a node has no podCIDR (the service range is 10.0.0.0/24). */
const POD_CIDR = '10.244.0.0/16';
/**
 * Every node's InternalIP: KWOK's server, which answers for all the kubelets it plays, listens
 * on the loopback, as in kwokctl's binary runtime. The apiserver calls a node's kubelet there,
 * at the port the node reports (KWOK's --node-port).
 */
const NODE_IP = KUBELET_ADDRESS;


/** Builds (or finds in the cache) the kwok binary and returns its path. */
export function kwokBinary(): string {
  const out = execFileSync('bash', [path.join(repoRoot, 'test', 'env', 'build-kwok.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(out.toString().trim().split('\n').pop() as string, 'kwok');
}

/**
 * Writes DIR/kwok/config.yaml (our stages and log rules), creates the log files that are missing,
 * and returns KWOK's command-line arguments (every other option keeps KWOK's default).
 */
export function kwokArgs(dir: string, kubeconfig: string, port: number): string[] {
  const work = path.join(dir, 'kwok');
  fs.mkdirSync(work, { recursive: true });
  const config = path.join(work, 'config.yaml');
  const stages = kwokStagesYaml({ kubeletVersion: `v${pinned('KUBE_VERSION')}`, cpu: '4', memoryKi: 16_373_304, pods: 110 });
  fs.writeFileSync(config, `${stages}---\n${kwokLogRulesYaml(dir)}`);
  prepareKwokLogs(dir, new Date());
  const pki = path.join(dir, 'pki');
  return [
    `--kubeconfig=${kubeconfig}`, `--config=${config}`,
    '--manage-all-nodes=false', `--manage-nodes-with-annotation-selector=${KWOK_NODE_KEY}=${KWOK_NODE_VALUE}`,
    `--node-lease-duration-seconds=${NODE_LEASE_SECONDS}`,
    `--cidr=${POD_CIDR}`, `--node-ip=${NODE_IP}`, `--node-port=${port}`,
    `--server-address=${NODE_IP}:${port}`,
    `--tls-cert-file=${path.join(pki, `${KUBELET_SERVING}.crt`)}`, `--tls-private-key-file=${path.join(pki, `${KUBELET_SERVING}.key`)}`,
  ];
}

/** KWOK's environment: its work folder inside the plane, so a ~/.kwok/kwok.yaml of the user's is never read. */
export function kwokEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, KWOK_WORKDIR: path.join(dir, 'kwok') };
}

/**
 * True once KWOK's server answers /healthz over HTTPS with the kubelet certificate the CA in
 * caFile signed (it starts serving after its controllers have started).
 */
export function kwokHealthy(port: number, caFile: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = https.get({ host: NODE_IP, port, path: '/healthz', timeout: 3000, ca: fs.readFileSync(caFile) }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
