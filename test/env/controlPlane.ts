// A real Kubernetes control plane on loopback for tests and `npm start`: etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler built from the Go module
// proxy (build-control-plane.sh), with generated PKI and RBAC on, KWOK (kwok.ts) as
// the kubelet of simulated nodes, and the writer of their containers' steady log
// (steadyLogWriter.ts).
// controlPlaneCli.ts starts and stops it from the shell.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as path from 'node:path';
import { kwokArgs, kwokBinary, kwokEnv, kwokHealthy } from './kwok';
import { kwokLogFile } from './kwokLogs';
import { generatePki, kubeconfigYaml, type ClientIdentity } from './pki';
import { freePort } from './ports';

import { repoRoot } from './paths';

/** The components, in start order. */
export type Component = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kwok' | 'log-writer';
const COMPONENTS: readonly Component[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok', 'log-writer'];
/** The steady log's writer, as `node esbuild.js --tests` builds it (it runs with this process's Node). */
const LOG_WRITER_SCRIPT = path.join(repoRoot, 'out', 'test', 'env', 'steadyLogWriter.js');

/** How long a component may take to become healthy before start fails. */
const HEALTH_TIMEOUT_MS = 90_000;
/** How long a stopped process gets after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 10_000;
/**
 * How long a node's lease may lapse before the node lifecycle controller calls it NotReady
 * (50 s by default): longer than the apiserver outages the fault tests make, so KWOK's nodes
 * stay Ready through them (a node whose apiserver is down has done nothing wrong).
 */
const NODE_MONITOR_GRACE_SECONDS = 120;

const ADMIN: ClientIdentity = { file: 'admin', user: 'kev-admin', groups: ['system:masters'] };
/** An authenticated user with no role bindings: every read of events is forbidden. */
const LIMITED: ClientIdentity = { file: 'limited', user: 'kev-limited', groups: [] };
const CONTROLLER_MANAGER: ClientIdentity = { file: 'controller-manager', user: 'system:kube-controller-manager', groups: [] };
const SCHEDULER: ClientIdentity = { file: 'scheduler', user: 'system:kube-scheduler', groups: [] };
/** The apiserver's identity towards kubelets (KWOK), named and grouped as kubeadm's apiserver-kubelet-client. */
const APISERVER_KUBELET_CLIENT: ClientIdentity = { file: 'apiserver-kubelet-client', user: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins'] };
/** The static token of user kev-exec (system:masters), handed out by the exec-plugin test's plugin. */
export const EXEC_TOKEN = 'kev-exec-token-0123456789abcdef';
/** Static tokens of more users, for the kubeconfig tests: kev-token (system:masters) and kev-token-file (system:masters). */
export const USER_TOKEN = 'kev-token-0123456789abcdef0123';
export const FILE_TOKEN = 'kev-token-file-0123456789abcdef';
/** A user (client certificate) allowed to impersonate any user, group, uid and extra, and nothing else. */
export const IMPERSONATOR: ClientIdentity = { file: 'impersonator', user: 'kev-impersonator', groups: [] };
/** A name in the apiserver's certificate that no DNS resolves: only tls-server-name can ask for it. */
export const APISERVER_ALT_NAME = 'kev-apiserver.test';

/** kev-impersonator may impersonate anyone: users, groups, uids and extras (the `as` kubeconfig fields). */
const IMPERSONATION_RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: kev-impersonator}
rules:
- apiGroups: [""]
  resources: [users, groups, serviceaccounts]
  verbs: [impersonate]
- apiGroups: [authentication.k8s.io]
  resources: [uids, userextras/scopes, userextras/example.com/team]
  verbs: [impersonate]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kev-impersonator}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kev-impersonator}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: kev-impersonator}
`;

/** Everything a test needs to reach the control plane; saved as DIR/state.json. */
export interface ControlPlaneState {
  readonly dir: string;
  readonly binDir: string;
  readonly server: string;
  /** Contexts kev-admin (current; system:masters) and kev-limited (no permissions). */
  readonly adminKubeconfig: string;
  /** Only the kev-limited context. */
  readonly limitedKubeconfig: string;
  readonly ports: Record<'etcd' | 'etcdPeer' | 'apiserver' | 'controllerManager' | 'scheduler' | 'kwok', number>;
  /** The kwok binary (built beside the control plane, see build-kwok.sh). */
  readonly kwokBin: string;
  readonly pids: Partial<Record<Component, number>>;
}

/** Builds (or finds in the cache) the control plane binaries and returns their folder. */
export function controlPlaneBinaries(): string {
  const out = execFileSync('bash', [path.join(repoRoot, 'test', 'env', 'build-control-plane.sh')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return out.toString().trim().split('\n').pop() as string;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** GET url over TLS with the given client files; resolves to the HTTP status, or 0 when unreachable. */
function httpsStatus(url: string, pki?: string, client?: string): Promise<number> {
  return new Promise((resolve) => {
    const options: https.RequestOptions = { timeout: 3000, rejectUnauthorized: false };
    if (pki && client) {
      options.ca = fs.readFileSync(path.join(pki, 'ca.crt'));
      options.cert = fs.readFileSync(path.join(pki, `${client}.crt`));
      options.key = fs.readFileSync(path.join(pki, `${client}.key`));
      options.rejectUnauthorized = true;
    }
    const req = https.get(url, options, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** The control plane of one folder: start, stop, and stop/start single components. */
/** Starts of the whole control plane tried when a port it was given is taken meanwhile. */
const START_ATTEMPTS = 3;

/** A component could not bind the port it was given: another process took it after freePort(). */
class PortTakenError extends Error {}

export class ControlPlane {
  private constructor(private state: ControlPlaneState) {}

  get info(): ControlPlaneState {
    return this.state;
  }

  /** Reads the state that `start` saved in dir (from this or another process). */
  static attach(dir: string): ControlPlane {
    return new ControlPlane(JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as ControlPlaneState);
  }

  /**
   * Generates PKI and kubeconfigs in a fresh dir, starts every component and waits until each
   * is healthy. A port found free can be taken by another process before a component binds
   * it: then everything starts again on fresh ports, up to START_ATTEMPTS times.
   */
  static async start(dir: string, binDir = controlPlaneBinaries(), components: readonly Component[] = COMPONENTS): Promise<ControlPlane> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ControlPlane.startOnce(dir, binDir, components);
      } catch (e) {
        if (!(e instanceof PortTakenError) || attempt >= START_ATTEMPTS) throw e;
        process.stderr.write(`control plane: ${e.message}; starting again on fresh ports\n`);
      }
    }
  }

  private static async startOnce(dir: string, binDir: string, components: readonly Component[]): Promise<ControlPlane> {
    const kwokBin = components.includes('kwok') ? kwokBinary() : '';
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    const pki = path.join(dir, 'pki');
    generatePki(pki, [ADMIN, LIMITED, CONTROLLER_MANAGER, SCHEDULER, IMPERSONATOR, APISERVER_KUBELET_CLIENT], [APISERVER_ALT_NAME]);
    const ports = {
      etcd: await freePort(),
      etcdPeer: await freePort(),
      apiserver: await freePort(),
      controllerManager: await freePort(),
      scheduler: await freePort(),
      kwok: await freePort(),
    };
    const server = `https://127.0.0.1:${ports.apiserver}`;
    const write = (name: string, contexts: { name: string; identity: ClientIdentity }[]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, kubeconfigYaml(pki, server, contexts), { mode: 0o600 });
      return file;
    };
    const adminKubeconfig = write('admin.kubeconfig', [
      { name: 'kev-admin', identity: ADMIN },
      { name: 'kev-limited', identity: LIMITED },
    ]);
    const limitedKubeconfig = write('limited.kubeconfig', [{ name: 'kev-limited', identity: LIMITED }]);
    // A bearer token for exec-credential-plugin tests: the plugin prints it, the apiserver knows it.
    fs.writeFileSync(
      path.join(pki, 'tokens.csv'),
      [`${EXEC_TOKEN},kev-exec,kev-exec-uid,"system:masters"`, `${USER_TOKEN},kev-token,kev-token-uid,"system:masters"`, `${FILE_TOKEN},kev-token-file,kev-token-file-uid,"system:masters"`, ''].join('\n'),
      { mode: 0o600 },
    );
    write('controller-manager.kubeconfig', [{ name: 'controller-manager', identity: CONTROLLER_MANAGER }]);
    write('scheduler.kubeconfig', [{ name: 'scheduler', identity: SCHEDULER }]);

    const plane = new ControlPlane({ dir, binDir, kwokBin, server, adminKubeconfig, limitedKubeconfig, ports, pids: {} });
    try {
      for (const c of components) await plane.startComponent(c);
      if (components.includes('kube-apiserver')) plane.kubectl(['apply', '-f', '-'], IMPERSONATION_RBAC);
    } catch (e) {
      await plane.stop();
      throw e;
    }
    return plane;
  }

  /** Runs the kubectl built beside the control plane as kev-admin; returns its stdout. */
  kubectl(args: string[], input?: string): string {
    return execFileSync(path.join(this.state.binDir, 'kubectl'), ['--kubeconfig', this.state.adminKubeconfig, ...args], { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
  }

  /**
   * Freezes a component (SIGSTOP to its process group): its sockets stay open and accept
   * connections, but nothing answers, as with a hung apiserver. thaw() resumes it.
   */
  freeze(component: Component = 'kube-apiserver'): void {
    const pid = this.state.pids[component];
    if (pid === undefined) throw new Error(`${component} is not running`);
    process.kill(-pid, 'SIGSTOP');
  }

  /** Resumes a frozen component (SIGCONT). */
  thaw(component: Component = 'kube-apiserver'): void {
    const pid = this.state.pids[component];
    if (pid === undefined) throw new Error(`${component} is not running`);
    process.kill(-pid, 'SIGCONT');
  }

  private args(component: Component): string[] {
    const { dir, ports } = this.state;
    const pki = path.join(dir, 'pki');
    const p = (f: string) => path.join(pki, f);
    switch (component) {
      case 'etcd':
        return [
          '--name=kev', `--data-dir=${path.join(dir, 'etcd-data')}`,
          `--listen-client-urls=http://127.0.0.1:${ports.etcd}`, `--advertise-client-urls=http://127.0.0.1:${ports.etcd}`,
          `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
          `--initial-cluster=kev=http://127.0.0.1:${ports.etcdPeer}`,
          // Test data: durability across a machine crash is not needed, speed is.
          '--unsafe-no-fsync', '--log-level=warn',
        ];
      case 'kube-apiserver':
        return [
          `--etcd-servers=http://127.0.0.1:${ports.etcd}`,
          '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${ports.apiserver}`,
          `--cert-dir=${path.join(dir, 'apiserver-certs')}`,
          `--tls-cert-file=${p('apiserver.crt')}`, `--tls-private-key-file=${p('apiserver.key')}`,
          `--client-ca-file=${p('ca.crt')}`,
          `--token-auth-file=${p('tokens.csv')}`,
          '--service-account-issuer=https://kubernetes.default.svc',
          `--service-account-key-file=${p('sa.pub')}`, `--service-account-signing-key-file=${p('sa.key')}`,
          '--service-cluster-ip-range=10.0.0.0/24',
          '--authorization-mode=RBAC',
          // The loopback address cannot back the `kubernetes` Service's endpoints.
          '--endpoint-reconciler-type=none',
          // Kubelets (KWOK's server) as kubeadm sets them up: reached at the node's InternalIP,
          // their serving certificates checked against the cluster CA, and kubeadm's client
          // certificate for the apiserver (KWOK does not ask for one; a kubelet would).
          '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
          `--kubelet-certificate-authority=${p('ca.crt')}`,
          `--kubelet-client-certificate=${p(`${APISERVER_KUBELET_CLIENT.file}.crt`)}`, `--kubelet-client-key=${p(`${APISERVER_KUBELET_CLIENT.file}.key`)}`,
          '--allow-privileged=true', '--profiling=false', '--v=1',
        ];
      case 'kube-controller-manager': {
        const kubeconfig = path.join(dir, 'controller-manager.kubeconfig');
        return [
          `--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`,
          '--bind-address=127.0.0.1', `--secure-port=${ports.controllerManager}`, `--cert-dir=${path.join(dir, 'controller-manager-certs')}`,
          '--leader-elect=false',
          // As in kubeadm clusters: each controller acts as its own service account.
          '--use-service-account-credentials=true',
          // The fault tests stop the apiserver for 30 s, and on a slow machine its restart adds
          // 10 s more: with the default 50 s, KWOK's nodes went NotReady for our own outage,
          // their last lease renewal being up to 10 s older than the stop.
          `--node-monitor-grace-period=${NODE_MONITOR_GRACE_SECONDS}s`,
          `--service-account-private-key-file=${p('sa.key')}`, `--root-ca-file=${p('ca.crt')}`,
          '--profiling=false', '--v=1',
        ];
      }
      case 'kube-scheduler': {
        const kubeconfig = path.join(dir, 'scheduler.kubeconfig');
        return [
          `--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`,
          '--bind-address=127.0.0.1', `--secure-port=${ports.scheduler}`, '--leader-elect=false', '--profiling=false', '--v=1',
        ];
      }
      case 'kwok':
        return kwokArgs(dir, this.state.adminKubeconfig, ports.kwok);
      case 'log-writer':
        return [LOG_WRITER_SCRIPT, kwokLogFile(dir, 'steady')];
    }
  }

  private async healthy(component: Component): Promise<boolean> {
    const { ports, dir } = this.state;
    switch (component) {
      case 'etcd':
        return new Promise((resolve) => {
          const socket = net.connect(ports.etcd, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        });
      case 'kube-apiserver':
        return (await httpsStatus(`${this.state.server}/readyz`, path.join(dir, 'pki'), 'admin')) === 200;
      case 'kube-controller-manager':
        return (await httpsStatus(`https://127.0.0.1:${ports.controllerManager}/healthz`)) === 200;
      case 'kube-scheduler':
        return (await httpsStatus(`https://127.0.0.1:${ports.scheduler}/healthz`)) === 200;
      case 'kwok':
        return kwokHealthy(ports.kwok, path.join(dir, 'pki', 'ca.crt'));
      case 'log-writer':
        // Its backlog is written: the steady log has lines for KWOK to serve.
        return fs.existsSync(kwokLogFile(dir, 'steady')) && fs.statSync(kwokLogFile(dir, 'steady')).size > 0;
    }
  }

  /** Starts one component (in its own process group) and waits until it is healthy. */
  async startComponent(component: Component): Promise<void> {
    const log = fs.openSync(path.join(this.state.dir, 'logs', `${component}.log`), 'a');
    const bin = component === 'kwok' ? this.state.kwokBin : component === 'log-writer' ? process.execPath : path.join(this.state.binDir, component);
    const env = component === 'kwok' ? kwokEnv(this.state.dir) : process.env;
    const child = spawn(bin, this.args(component), { detached: true, stdio: ['ignore', log, log], env });
    fs.closeSync(log);
    child.unref();
    const pid = child.pid as number;
    this.state = { ...this.state, pids: { ...this.state.pids, [component]: pid } };
    this.save();
    const deadline = Date.now() + HEALTH_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!isAlive(pid) || child.exitCode !== null) {
        const logFile = path.join(this.state.dir, 'logs', `${component}.log`);
        if (/address already in use/.test(fs.readFileSync(logFile, 'utf8'))) throw new PortTakenError(`${component} found its port taken (see ${logFile})`);
        throw new Error(`${component} exited during start-up; see ${logFile}`);
      }
      if (await this.healthy(component)) return;
      await sleep(200);
    }
    throw new Error(`${component} not healthy after ${HEALTH_TIMEOUT_MS / 1000}s; see ${path.join(this.state.dir, 'logs', `${component}.log`)}`);
  }

  /** Stops one component by its PID: SIGTERM to its process group, SIGKILL after a grace period. */
  async stopComponent(component: Component, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const pid = this.state.pids[component];
    if (pid === undefined) return;
    const send = (s: NodeJS.Signals) => {
      try {
        process.kill(-pid, s);
      } catch {
        /* already gone */
      }
    };
    send(signal);
    const deadline = Date.now() + STOP_GRACE_MS;
    while (isAlive(pid) && Date.now() < deadline) await sleep(50);
    if (isAlive(pid)) send('SIGKILL');
    while (isAlive(pid)) await sleep(50);
    const pids = { ...this.state.pids };
    delete pids[component];
    this.state = { ...this.state, pids };
    this.save();
  }

  /**
   * Restarts the controller manager and the scheduler: after an apiserver outage their
   * reflectors back off for up to 30 s, which would slow every test that follows. KWOK
   * stays: a new KWOK would wait out the nodes' leases (40 s) before taking them over.
   */
  async restartControllers(): Promise<void> {
    await Promise.all([this.stopComponent('kube-scheduler'), this.stopComponent('kube-controller-manager')]);
    await this.startComponent('kube-controller-manager');
    await this.startComponent('kube-scheduler');
  }

  /** etcd's current revision, from its JSON gateway. */
  async etcdRevision(): Promise<string> {
    const r = await this.etcdCall('/v3/kv/range', { key: Buffer.from('/').toString('base64') });
    return (r as { header: { revision: string } }).header.revision;
  }

  /** Compacts etcd up to its current revision: watches from an older resourceVersion get 410 Gone. */
  async compactEtcd(): Promise<string> {
    const revision = await this.etcdRevision();
    await this.etcdCall('/v3/kv/compaction', { revision, physical: true });
    return revision;
  }

  private async etcdCall(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`http://127.0.0.1:${this.state.ports.etcd}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`etcd ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Stops KWOK, the log writer and the controllers together, then the apiserver, then etcd. */
  async stop(): Promise<void> {
    await Promise.all([this.stopComponent('log-writer'), this.stopComponent('kwok'), this.stopComponent('kube-scheduler'), this.stopComponent('kube-controller-manager')]);
    await this.stopComponent('kube-apiserver');
    await this.stopComponent('etcd');
  }

  private save(): void {
    fs.writeFileSync(path.join(this.state.dir, 'state.json'), JSON.stringify(this.state, null, 2));
  }
}
