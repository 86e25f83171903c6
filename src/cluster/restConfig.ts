// Ported from client-go tools/clientcmd (client_config.go DirectClientConfig.ClientConfig,
// validation.go ConfirmUsable): one context of a merged kubeconfig as the rest.Config kubectl
// would build, checked as kubectl checks it before its first request.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KubeconfigError } from './errors';
import type { LoadedKubeconfig } from './kubeconfig';

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

/** An exec credential plugin (clientcmdapi.ExecConfig). */
export interface ExecConfig {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  readonly installHint: string;
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: InteractiveMode;
  /** The cluster's `client.authentication.k8s.io/exec` extension, passed to the plugin. */
  readonly config?: unknown;
}

export interface ImpersonationConfig {
  readonly user: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export interface TlsConfig {
  readonly insecure: boolean;
  readonly serverName: string;
  readonly caFile: string;
  readonly caData: Buffer | undefined;
  readonly certFile: string;
  readonly certData: Buffer | undefined;
  readonly keyFile: string;
  readonly keyData: Buffer | undefined;
}

/** What a client needs for one context: client-go's rest.Config, plus names for messages. */
export interface RestConfig {
  readonly context: string;
  readonly cluster: string;
  readonly user: string;
  /** The kubeconfig files the cluster and user came from (for messages). */
  readonly clusterFile: string;
  readonly userFile: string;
  /** The server URL, with its path prefix if any (a proxy in front of the apiserver). */
  readonly server: string;
  readonly proxyUrl: string;
  readonly disableCompression: boolean;
  readonly tls: TlsConfig;
  readonly token: string;
  readonly tokenFile: string;
  readonly username: string;
  readonly password: string;
  readonly exec: ExecConfig | undefined;
  readonly authProvider: { readonly name: string; readonly config: Readonly<Record<string, string>> } | undefined;
  readonly impersonate: ImpersonationConfig | undefined;
}

const EXEC_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];
const EXEC_EXTENSION = 'client.authentication.k8s.io/exec';
/** An ANSI escape sequence (CSI), which client-go strips from an install hint. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');

function str(v: unknown): string {
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function bool(v: unknown): boolean {
  return v === true || v === 'true';
}

/** Kubeconfig `-data` fields are base64, as Go's []byte in YAML. */
function data(v: unknown): Buffer | undefined {
  const s = str(v);
  return s === '' ? undefined : Buffer.from(s, 'base64');
}

/** The text of a Go *PathError for a Node errno error, as kubectl prints it. */
export function goOpenError(file: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const reason: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'not a directory' };
  return `open ${file}: ${(code && reason[code]) || (e as Error).message}`;
}

function canOpen(file: string): unknown {
  try {
    fs.closeSync(fs.openSync(file, 'r'));
    return undefined;
  } catch (e) {
    return e;
  }
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The apiserver's base URL as client-go's DefaultServerURL makes it (a bare host:port gets a scheme). */
function serverUrl(server: string, defaultTls: boolean): string {
  let url: URL | undefined;
  try {
    url = new URL(server);
    if (!url.host) url = undefined;
  } catch {
    url = undefined;
  }
  url ??= new URL(`${defaultTls ? 'https' : 'http'}://${server}`);
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** Which problems kubectl reports for this user and cluster before it sends anything (clientcmd's validation). */
function confirmUsable(userName: string, user: Record<string, unknown>, clusterName: string, cluster: Record<string, unknown>): string[] {
  const errors: string[] = [];
  if (!str(cluster.server)) errors.push(`no server found for cluster "${clusterName}"`);
  const proxy = str(cluster['proxy-url']);
  if (proxy) {
    let scheme = '';
    try {
      scheme = new URL(proxy).protocol.replace(/:$/, '');
    } catch {
      errors.push(`invalid 'proxy-url' "${proxy}" for cluster "${clusterName}": could not parse: ${proxy}`);
    }
    if (scheme && !['http', 'https', 'socks5'].includes(scheme)) errors.push(`invalid 'proxy-url' "${proxy}" for cluster "${clusterName}": unsupported scheme "${scheme}", must be http, https, or socks5`);
  }
  const caFile = str(cluster['certificate-authority']);
  if (caFile && str(cluster['certificate-authority-data'])) errors.push(`certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`);
  if (caFile) {
    const e = canOpen(caFile);
    if (e) errors.push(`unable to read certificate-authority ${caFile} for ${clusterName} due to ${goOpenError(caFile, e)}`);
  }
  const methods: string[] = [];
  if (str(user.token)) methods.push('token');
  if (str(user.username) || str(user.password)) methods.push('basicAuth');
  const certFile = str(user['client-certificate']);
  const keyFile = str(user['client-key']);
  if (certFile || str(user['client-certificate-data'])) {
    if (certFile && str(user['client-certificate-data'])) errors.push(`client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`);
    if (keyFile && str(user['client-key-data'])) errors.push(`client-key-data and client-key are both specified for ${userName}; client-key-data will override`);
    if (!keyFile && !str(user['client-key-data'])) errors.push(`client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
    for (const [what, file] of [['client-cert', certFile], ['client-key', keyFile]]) {
      const e = file ? canOpen(file) : undefined;
      if (e) errors.push(`unable to read ${what} ${file} for ${userName} due to ${goOpenError(file, e)}`);
    }
  }
  const exec = user.exec === undefined || user.exec === null ? undefined : record(user.exec);
  if (exec) {
    if (user['auth-provider']) errors.push(`authProvider cannot be provided in combination with an exec plugin for ${userName}`);
    if (!str(exec.command)) errors.push(`command must be specified for ${userName} to use exec authentication plugin`);
    if (!str(exec.apiVersion)) errors.push(`apiVersion must be specified for ${userName} to use exec authentication plugin`);
    for (const v of Array.isArray(exec.env) ? exec.env : []) if (!str(record(v).name)) errors.push(`env variable name must be specified for ${userName} to use exec authentication plugin`);
    const mode = interactiveMode(exec);
    if (mode === '') errors.push(`interactiveMode must be specified for ${userName} to use exec authentication plugin`);
    else if (!['Never', 'IfAvailable', 'Always'].includes(mode)) errors.push(`invalid interactiveMode for ${userName}: "${mode}"`);
  }
  if (methods.length > 1) errors.push(`more than one authentication method found for ${userName}; found [${methods.join(' ')}], only one is allowed`);
  const extra = record(user['as-user-extra']);
  if ((str(user['as-uid']) || (Array.isArray(user['as-groups']) && user['as-groups'].length > 0) || Object.keys(extra).length > 0) && !str(user.as)) {
    errors.push(`requesting uid, groups or user-extra for ${userName} without impersonating a user`);
  }
  return errors;
}

/** v1beta1 plugins default to IfAvailable; v1 ones must say (clientcmd/api/v1 SetDefaults_ExecConfig). */
function interactiveMode(exec: Record<string, unknown>): string {
  const mode = str(exec.interactiveMode);
  if (mode) return mode;
  return str(exec.apiVersion) === 'client.authentication.k8s.io/v1beta1' ? 'IfAvailable' : '';
}

/** kubectl's aggregate of validation errors: one as is, several in brackets. */
function kubectlInvalid(errors: readonly string[]): string {
  return `error: invalid configuration: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
}

/**
 * The rest.Config of one context (the current one by default), checked as kubectl checks it.
 * Throws KubeconfigError naming the file, and kubectl's own words, when kubectl would refuse.
 */
export function restConfigFor(loaded: LoadedKubeconfig, contextName?: string): RestConfig {
  const name = contextName || loaded.currentContext;
  const where = loaded.files.join(path.delimiter);
  if (!name) throw new KubeconfigError(`Kubeconfig ${where} has no current context; pick one of: ${loaded.contexts.map((c) => c.name).join(', ') || '(none)'}.`);
  const context = loaded.contexts.find((c) => c.name === name);
  if (!context) throw new KubeconfigError(`Context "${name}" is not in kubeconfig ${where}; it has: ${loaded.contexts.map((c) => c.name).join(', ') || '(no contexts)'}.`);
  const clusterEntry = loaded.clusters.get(context.cluster);
  if (!clusterEntry) throw new KubeconfigError(`Context "${name}" names cluster "${context.cluster}", which is not in kubeconfig ${where} (kubectl: error: invalid configuration: no configuration has been provided).`);
  // kubectl takes a context without a user, or naming a user that is not there, as anonymous.
  const userEntry = loaded.users.get(context.user);
  const cluster = clusterEntry.value;
  const user = userEntry?.value ?? {};
  const problems = confirmUsable(context.user, user, context.cluster, cluster);
  if (problems.length > 0) {
    const file = userEntry && problems.some((p) => p.includes(` ${context.user}`)) ? userEntry.file : clusterEntry.file;
    throw new KubeconfigError(`Kubeconfig ${file}, context "${name}": ${problems.join('; ')} (kubectl: ${kubectlInvalid(problems)})`);
  }
  const tls: TlsConfig = {
    insecure: bool(cluster['insecure-skip-tls-verify']),
    serverName: str(cluster['tls-server-name']),
    caFile: str(cluster['certificate-authority']),
    caData: data(cluster['certificate-authority-data']),
    certFile: str(user['client-certificate']),
    certData: data(user['client-certificate-data']),
    keyFile: str(user['client-key']),
    keyData: data(user['client-key-data']),
  };
  const defaultTls = tls.caFile !== '' || tls.caData !== undefined || tls.certFile !== '' || tls.certData !== undefined || tls.insecure;
  const server = serverUrl(str(cluster.server), defaultTls);
  const impersonate: ImpersonationConfig | undefined = str(user.as)
    ? {
        user: str(user.as),
        uid: str(user['as-uid']),
        groups: Array.isArray(user['as-groups']) ? user['as-groups'].map(str) : [],
        extra: Object.fromEntries(Object.entries(record(user['as-user-extra'])).map(([k, v]) => [k, Array.isArray(v) ? v.map(str) : [str(v)]])),
      }
    : undefined;
  const base = { context: name, cluster: context.cluster, user: context.user, clusterFile: clusterEntry.file, userFile: userEntry?.file ?? clusterEntry.file, proxyUrl: str(cluster['proxy-url']), disableCompression: bool(cluster['disable-compression']), impersonate };
  const none = { token: '', tokenFile: '', username: '', password: '', exec: undefined, authProvider: undefined };
  // client-go reads credentials only for https servers: an http:// server (kubectl proxy) gets none.
  if (!server.startsWith('https:')) {
    return { ...base, ...none, server, tls: { ...tls, certFile: '', certData: undefined, keyFile: '', keyData: undefined, caFile: '', caData: undefined } };
  }
  const execRaw = user.exec === undefined || user.exec === null ? undefined : record(user.exec);
  const exec: ExecConfig | undefined = execRaw && {
    command: str(execRaw.command),
    args: Array.isArray(execRaw.args) ? execRaw.args.map(str) : [],
    env: Array.isArray(execRaw.env) ? execRaw.env.map((v) => ({ name: str(record(v).name), value: str(record(v).value) })) : [],
    apiVersion: str(execRaw.apiVersion),
    // client-go strips ANSI escapes from the hint before printing it.
    installHint: str(execRaw.installHint).replace(ANSI_ESCAPE, ''),
    provideClusterInfo: bool(execRaw.provideClusterInfo),
    interactiveMode: interactiveMode(execRaw) as InteractiveMode,
    config: record(cluster.extensions === undefined ? {} : extensionsOf(cluster.extensions))[EXEC_EXTENSION],
  };
  if (exec && !EXEC_API_VERSIONS.includes(exec.apiVersion)) {
    throw new KubeconfigError(`Kubeconfig ${userEntry?.file}, user "${context.user}": exec plugin ${exec.command} has apiVersion "${exec.apiVersion}", which kubectl no longer runs; use client.authentication.k8s.io/v1 (kubectl: exec plugin: invalid apiVersion "${exec.apiVersion}").`);
  }
  const provider = user['auth-provider'] === undefined || user['auth-provider'] === null ? undefined : record(user['auth-provider']);
  return {
    ...base,
    server,
    tls,
    token: str(user.token),
    tokenFile: str(user.tokenFile),
    username: str(user.username),
    password: str(user.password),
    exec,
    authProvider: provider && { name: str(provider.name), config: Object.fromEntries(Object.entries(record(provider.config)).map(([k, v]) => [k, str(v)])) },
  };
}

/** Kubeconfig extensions are a list of {name, extension}; the exec plugin gets one by name. */
function extensionsOf(v: unknown): Record<string, unknown> {
  if (!Array.isArray(v)) return record(v);
  return Object.fromEntries(v.map((e) => [str(record(e).name), record(e).extension]));
}

/**
 * Who the requests of a config are from, as a key: two clusters with the same context name,
 * or one server seen as two users, never share a history.
 */
export function clusterIdentity(config: RestConfig): string {
  const as = config.impersonate;
  const parts = [config.server, `user=${config.user}`];
  if (as) {
    parts.push(`as=${as.user}`);
    if (as.uid) parts.push(`as-uid=${as.uid}`);
    if (as.groups.length) parts.push(`as-groups=${as.groups.join(',')}`);
    const extra = Object.keys(as.extra).sort();
    if (extra.length) parts.push(`as-user-extra=${extra.map((k) => `${k}:${as.extra[k].join(',')}`).join(';')}`);
  }
  return parts.join(' ');
}
