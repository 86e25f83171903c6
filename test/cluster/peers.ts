// Real peers for the kubeconfig tests: the kubectl built beside the control plane, `kubectl
// proxy`, and Debian's proxies (tinyproxy for http CONNECT, stunnel in front of it for an
// https proxy, microsocks for socks5), each started on loopback and stopped by its PID.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { ControlPlane } from '../env/controlPlane';
import { freePort } from '../env/ports';
import { controlPlaneDir } from './support';

/** What kubectl did: its user when it worked, its stderr when it did not. */
export interface KubectlOutcome {
  readonly ok: boolean;
  readonly user?: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  readonly stderr: string;
}

export function kubectlPath(): string {
  return path.join(ControlPlane.attach(controlPlaneDir()).info.binDir, 'kubectl');
}

/**
 * kubectl's SelfSubjectReview (what `kubectl auth whoami` sends, but with the apiserver's own
 * error message kept) on a kubeconfig, without a terminal (stdin closed), as the extension host runs.
 */
export function kubectlWhoami(kubeconfig: string | undefined, env: NodeJS.ProcessEnv = process.env): KubectlOutcome {
  const body = path.join(controlPlaneDir(), 'selfsubjectreview.json');
  fs.writeFileSync(body, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  const args = [...(kubeconfig ? ['--kubeconfig', kubeconfig] : []), 'create', '--raw', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '-f', body, '--request-timeout=20s'];
  const r = spawnSync(kubectlPath(), args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const stderr = r.stderr.toString('utf8').trim();
  if (r.status !== 0) return { ok: false, stderr };
  const review = JSON.parse(r.stdout.toString('utf8')) as { status: { userInfo: KubectlOutcome['user'] } };
  return { ok: true, user: review.status.userInfo, stderr };
}

/** Resolves once something listens on the port. */
async function listening(port: number, what: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
}

function need(binary: string, pkg: string): string {
  const found = ['/usr/bin', '/usr/sbin', '/usr/local/bin'].map((d) => path.join(d, binary)).find((p) => fs.existsSync(p));
  if (!found) throw new Error(`${binary} is missing: install the Debian package ${pkg} (bash test/env/setup.sh apt)`);
  return found;
}

/** A started peer; stop() ends it by its PID. */
export interface Peer {
  readonly url: string;
  readonly log: string;
  stop(): void;
}

function peer(child: ChildProcess, url: string, log: string): Peer {
  return {
    url,
    log,
    stop: () => {
      if (child.exitCode === null && child.pid) child.kill('SIGTERM');
    },
  };
}

/** tinyproxy on loopback: an HTTP proxy that tunnels CONNECT to any port and logs each one. */
export async function startTinyproxy(dir: string): Promise<Peer> {
  const binary = need('tinyproxy', 'tinyproxy');
  const port = await freePort();
  const log = path.join(dir, 'tinyproxy.log');
  const conf = path.join(dir, 'tinyproxy.conf');
  fs.writeFileSync(conf, [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 600', `LogFile "${log}"`, 'LogLevel Connect', 'MaxClients 50', 'Allow 127.0.0.1', 'DisableViaHeader Yes', ''].join('\n'));
  const child = spawn(binary, ['-d', '-c', conf], { stdio: 'ignore' });
  await listening(port, 'tinyproxy', child);
  return peer(child, `http://127.0.0.1:${port}`, log);
}

/** stunnel terminating TLS in front of an HTTP proxy: an https:// proxy, with a certificate from the given files. */
export async function startStunnel(dir: string, target: string, cert: string, key: string): Promise<Peer> {
  const binary = need('stunnel4', 'stunnel4');
  const port = await freePort();
  const log = path.join(dir, 'stunnel.log');
  const conf = path.join(dir, 'stunnel.conf');
  fs.writeFileSync(conf, ['foreground = yes', 'pid =', `output = ${log}`, '[proxy]', `accept = 127.0.0.1:${port}`, `connect = ${new URL(target).host}`, `cert = ${cert}`, `key = ${key}`, ''].join('\n'));
  const child = spawn(binary, [conf], { stdio: 'ignore' });
  await listening(port, 'stunnel', child);
  return peer(child, `https://127.0.0.1:${port}`, log);
}

/** microsocks: a SOCKS5 proxy. */
export async function startSocks(dir: string): Promise<Peer> {
  const binary = need('microsocks', 'microsocks');
  const port = await freePort();
  const log = path.join(dir, 'microsocks.log');
  const out = fs.openSync(log, 'a');
  const child = spawn(binary, ['-i', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  await listening(port, 'microsocks', child);
  return peer(child, `socks5://127.0.0.1:${port}`, log);
}

/** The real `kubectl proxy` as kev-admin: a plain http:// apiserver address. */
export async function startKubectlProxy(adminKubeconfig: string): Promise<Peer> {
  const port = await freePort();
  const child = spawn(kubectlPath(), ['--kubeconfig', adminKubeconfig, 'proxy', `--port=${port}`, '--address=127.0.0.1'], { stdio: 'ignore' });
  await listening(port, 'kubectl proxy', child);
  return peer(child, `http://127.0.0.1:${port}`, '');
}
