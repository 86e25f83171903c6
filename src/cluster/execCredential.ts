// Ported from client-go plugin/pkg/client/auth/exec/exec.go (Authenticator) and rest/exec.go
// (ConfigToExecCluster): runs a kubeconfig's exec credential plugin with its args and env and
// KUBERNETES_EXEC_INFO, caches what it prints until its expirationTimestamp (or a 401), shares
// one run among concurrent requests, and hands out a token or a client certificate. The
// extension host has no terminal: the plugin gets no stdin, as kubectl gives it without a TTY.
import { spawn } from 'node:child_process';
import { KubeconfigError } from './errors';
import type { ExecConfig } from './restConfig';

/** What a plugin may learn about the cluster (clientauthentication/v1 Cluster, provideClusterInfo). */
export interface ExecCluster {
  readonly server: string;
  readonly 'tls-server-name'?: string;
  readonly 'insecure-skip-tls-verify'?: boolean;
  /** Base64, as Go encodes []byte in JSON. */
  readonly 'certificate-authority-data'?: string;
  readonly 'proxy-url'?: string;
  readonly 'disable-compression'?: boolean;
  readonly config: unknown;
}

export interface ExecCredentials {
  readonly token: string;
  readonly cert: string | undefined;
  readonly key: string | undefined;
}

/** The text client-go adds when the plugin's executable is not found (shown up to 10 times an hour there). */
const INSTALL_HINT_HELP = 'It looks like you are trying to use a client-go credential plugin that is not installed.';
/** The most of the plugin's stderr kept for a message. */
const STDERR_KEPT = 2000;

interface ExecCredentialOutput {
  apiVersion?: string;
  kind?: string;
  status?: { token?: string; clientCertificateData?: string; clientKeyData?: string; expirationTimestamp?: string };
}

/** One authenticator per plugin configuration and cluster, for the whole extension host (client-go's globalCache). */
const cache = new Map<string, ExecAuthenticator>();

export class ExecAuthenticator {
  private cached: ExecCredentials | undefined;
  private expiry = 0;
  private running: Promise<ExecCredentials> | undefined;
  /** How many times the plugin ran (for tests and the log). */
  runs = 0;

  private constructor(
    readonly config: ExecConfig,
    private readonly cluster: ExecCluster | undefined,
    private readonly where: { user: string; kubeconfig: string },
    private readonly now: () => number,
  ) {}

  /** The shared authenticator of a plugin configuration (and cluster, when the plugin is given it). */
  static for(config: ExecConfig, cluster: ExecCluster | undefined, where: { user: string; kubeconfig: string }, now: () => number = Date.now): ExecAuthenticator {
    const key = JSON.stringify([config, cluster ?? null]);
    let a = cache.get(key);
    if (!a) {
      a = new ExecAuthenticator(config, cluster, where, now);
      cache.set(key, a);
    }
    return a;
  }

  /** Credentials: the cached ones until they expire, else one run of the plugin shared by every caller. */
  async credentials(): Promise<ExecCredentials> {
    if (this.cached && (this.expiry === 0 || this.now() <= this.expiry)) return this.cached;
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  /** After a 401 with these credentials: the next request runs the plugin again (unless another did already). */
  invalidate(used: ExecCredentials): void {
    if (this.cached === used) this.cached = undefined;
  }

  private describe(): string {
    return `The exec credential plugin "${this.config.command}" of user "${this.where.user}" (kubeconfig ${this.where.kubeconfig})`;
  }

  private fail(what: string, kubectl: string): KubeconfigError {
    return new KubeconfigError(`${this.describe()} ${what} (kubectl: ${kubectl})`);
  }

  private async run(): Promise<ExecCredentials> {
    const c = this.config;
    if (c.interactiveMode === 'Always') {
      throw this.fail('needs a terminal (interactiveMode: Always), which the editor cannot give it: log in from a terminal first, or set interactiveMode to IfAvailable or Never.', 'exec plugin cannot support interactive mode: standard input is not a terminal');
    }
    const info = { kind: 'ExecCredential', apiVersion: c.apiVersion, spec: { ...(this.cluster ? { cluster: this.cluster } : {}), interactive: false } };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of c.env) env[e.name] = e.value;
    env.KUBERNETES_EXEC_INFO = JSON.stringify(info);
    this.runs++;
    const { code, stdout, stderr, error } = await new Promise<{ code: number | null; stdout: Buffer; stderr: string; error?: NodeJS.ErrnoException }>((resolve) => {
      const child = spawn(c.command, [...c.args], { env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let spawnError: NodeJS.ErrnoException | undefined;
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => (spawnError = e));
      child.on('close', (exitCode) => resolve({ code: exitCode, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8').trim().slice(-STDERR_KEPT), error: spawnError }));
    });
    if (error) {
      if (error.code === 'ENOENT') {
        const hint = c.installHint ? ` Install hint: ${c.installHint}` : '';
        throw this.fail(`was not found: install it, or give its full path in the kubeconfig, or start the editor with its folder on PATH.${hint}`, `exec: executable ${c.command} not found. ${INSTALL_HINT_HELP}`);
      }
      throw this.fail(`cannot be started: ${error.message}.`, `exec: fork/exec ${c.command}: ${error.code === 'EACCES' ? 'permission denied' : error.message}`);
    }
    if (code !== 0) {
      throw this.fail(`failed with exit code ${code ?? 'unknown (killed)'}${stderr ? `: ${stderr}` : ''}.`, `exec: executable ${c.command} failed with exit code ${code ?? -1}`);
    }
    return this.accept(stdout);
  }

  /** Checks the plugin's ExecCredential as client-go does and caches it. */
  private accept(stdout: Buffer): ExecCredentials {
    let out: ExecCredentialOutput;
    try {
      out = JSON.parse(stdout.toString('utf8')) as ExecCredentialOutput;
    } catch (e) {
      throw this.fail(`printed something that is not an ExecCredential: ${(e as Error).message}.`, `decoding stdout: ${(e as Error).message}`);
    }
    if (out.apiVersion !== this.config.apiVersion) {
      throw this.fail(`answered with apiVersion "${out.apiVersion ?? ''}", but the kubeconfig says "${this.config.apiVersion}".`, `exec plugin is configured to use API version ${this.config.apiVersion}, plugin returned version ${out.apiVersion ?? ''}`);
    }
    const s = out.status;
    if (!s) throw this.fail('printed no status.', "exec plugin didn't return a status field");
    if (!s.token && !s.clientCertificateData && !s.clientKeyData) throw this.fail('printed neither a token nor a client certificate and key.', "exec plugin didn't return a token or cert/key pair");
    if (!s.clientCertificateData !== !s.clientKeyData) throw this.fail('printed only a certificate or only a key, not both.', 'exec plugin returned only certificate or key, not both');
    const expiry = s.expirationTimestamp ? Date.parse(s.expirationTimestamp) : 0;
    this.expiry = Number.isNaN(expiry) ? 0 : expiry;
    this.cached = { token: s.token ?? '', cert: s.clientCertificateData || undefined, key: s.clientKeyData || undefined };
    return this.cached;
  }
}
