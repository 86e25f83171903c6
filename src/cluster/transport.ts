// One cluster context's transport, as client-go's rest/transport builds it from a rest.Config:
// TLS (CA file or data, insecure-skip-tls-verify, tls-server-name, client certificate files
// re-read as they rotate), credentials (token, tokenFile, basic, exec plugin, oidc id-token),
// impersonation headers, proxy-url or the proxy environment, and one keep-alive agent that
// every request of the context shares (client-node 1.4 opens a new TLS connection for most).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import type { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { asksForCompression } from './compression';
import { proxyFromEnvironment } from './envProxy';
import { KubeconfigError } from './errors';
import { ExecAuthenticator, type ExecCluster, type ExecCredentials } from './execCredential';
import { dialThroughProxy, ProxyRefusedError } from './proxyDial';
import { clusterIdentity, goOpenError, type RestConfig } from './restConfig';
import { CachedFileTokenSource } from './tokenFile';

/** Idle keep-alive connections are closed after this (the apiserver's own idle limit is longer). */
export const IDLE_SOCKET_MS = 60_000;
/** Idle connections kept per host (client-go: MaxIdleConnsPerHost 25). */
export const MAX_IDLE_SOCKETS = 25;
/** TCP keep-alive probes start after this much silence (client-go's dialer: 30 s). */
export const TCP_KEEPALIVE_MS = 30_000;
/** Client certificate files are read again at most this often (client-go: once a second). */
export const CERT_FILE_CACHE_MS = 1_000;
export const USER_AGENT = 'kubernetes-events-vscode';

/** What one request sends besides its own headers. */
interface Credential {
  readonly headers: Record<string, string | string[]>;
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  readonly exec?: ExecCredentials;
}

export interface TransportRequest {
  readonly method: string;
  /** The path and query, appended to the server URL (which may have a path prefix). */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** The private key of an option bag the agent hands back to createConnection. */
const DIAL_SIGNAL = 'kevDialSignal';

/** client-go's headerKeyEscape: bytes that are not legal in a header name are %-encoded. */
function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Every certificate in a PEM bundle parses, as Go's rootCertPool requires. */
function checkPemBundle(pem: Buffer): string | undefined {
  const blocks = pem.toString('latin1').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return 'unable to parse bytes as PEM block';
  for (const b of blocks) {
    try {
      new crypto.X509Certificate(b);
    } catch (e) {
      return `failed to parse certificate: ${(e as Error).message}`;
    }
  }
  return undefined;
}

export class ClusterTransport {
  /** Who the requests are from (server, user, impersonation): the history's key. */
  readonly identity: string;
  readonly serverUrl: URL;
  private readonly base: string;
  private readonly agent: http.Agent;
  private readonly tlsOptions: tls.ConnectionOptions;
  private readonly tokenFile: CachedFileTokenSource | undefined;
  private readonly exec: ExecAuthenticator | undefined;
  private readonly staticHeaders: Record<string, string | string[]>;
  private certFiles: { at: number; cert: Buffer; key: Buffer } | undefined;
  private disposed = false;
  readonly proxy: URL | undefined;

  constructor(
    readonly config: RestConfig,
    options: { env?: NodeJS.ProcessEnv } = {},
  ) {
    this.identity = clusterIdentity(config);
    this.base = config.server;
    this.serverUrl = new URL(config.server);
    const secure = this.serverUrl.protocol === 'https:';
    this.proxy = config.proxyUrl ? new URL(config.proxyUrl) : proxyFromEnvironment(this.serverUrl, options.env);
    this.tlsOptions = secure ? this.buildTls() : {};
    const headers: Record<string, string | string[]> = { 'User-Agent': USER_AGENT };
    if (asksForCompression(this.serverUrl, config.disableCompression)) headers['Accept-Encoding'] = 'gzip';
    const hasCert = config.tls.certFile !== '' || config.tls.certData !== undefined;
    if (config.token || config.tokenFile) {
      if (config.username || config.password) throw this.configError('has both a token and a username/password', 'username/password or bearer token may be set, but not both');
      if (config.tokenFile) this.tokenFile = new CachedFileTokenSource(config.tokenFile);
      // client-go reads the file once before the first request when there is no token beside it.
      if (!config.token && this.tokenFile) this.tokenFile.current('', config.user, config.userFile);
      else headers.Authorization = `Bearer ${config.token}`;
    } else if (config.username || config.password) {
      headers.Authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
    }
    if (config.authProvider) this.applyAuthProvider(headers);
    // An exec plugin is used only when nothing else authenticates the user (client-go's UpdateTransportConfig).
    if (config.exec && !headers.Authorization && !this.tokenFile && !hasCert) {
      this.exec = ExecAuthenticator.for(config.exec, config.exec.provideClusterInfo ? this.execCluster() : undefined, { user: config.user, kubeconfig: config.userFile });
    }
    const as = config.impersonate;
    if (as) {
      headers['Impersonate-User'] = as.user;
      if (as.uid) headers['Impersonate-Uid'] = as.uid;
      if (as.groups.length) headers['Impersonate-Group'] = [...as.groups];
      for (const [k, values] of Object.entries(as.extra)) headers[`Impersonate-Extra-${headerKeyEscape(k)}`] = [...values];
    }
    this.staticHeaders = headers;
    this.agent = this.buildAgent(secure);
  }

  get server(): string {
    return this.base;
  }

  private configError(what: string, kubectl: string, where: 'user' | 'cluster' = 'user'): KubeconfigError {
    const c = this.config;
    const file = where === 'user' ? c.userFile : c.clusterFile;
    return new KubeconfigError(`Kubeconfig ${file}, ${where} "${where === 'user' ? c.user : c.cluster}"${what.startsWith(':') ? '' : ' '}${what} (kubectl: ${kubectl})`);
  }

  /** The CA, server name and static client certificate, checked once as client-go's TLSConfigFor does. */
  private buildTls(): tls.ConnectionOptions {
    const t = this.config.tls;
    const hasCa = t.caFile !== '' || t.caData !== undefined;
    if (hasCa && t.insecure) throw this.configError('has insecure-skip-tls-verify together with a certificate authority', 'specifying a root certificates file with the insecure flag is not allowed', 'cluster');
    const options: tls.ConnectionOptions = { minVersion: 'TLSv1.2', rejectUnauthorized: !t.insecure };
    if (t.serverName) options.servername = t.serverName;
    if (hasCa) {
      let ca = t.caData;
      if (!ca) {
        try {
          ca = fs.readFileSync(t.caFile);
        } catch (e) {
          throw this.configError(`cannot read its certificate-authority ${t.caFile}: ${goOpenError(t.caFile, e)}`, `error: ${goOpenError(t.caFile, e)}`, 'cluster');
        }
      }
      const problem = checkPemBundle(ca);
      if (problem) throw this.configError(`has a certificate authority (${t.caFile || 'certificate-authority-data'}) that is not a PEM certificate bundle: ${problem}`, `unable to load root certificates: ${problem}`, 'cluster');
      options.ca = ca;
    }
    const certData = t.certData;
    const keyData = t.keyData;
    if (certData || keyData) {
      // Data (not files) is static; files are read per connection so a rotated pair is picked up.
      const cert = certData ?? this.readCertFile(t.certFile, 'client-certificate');
      const key = keyData ?? this.readCertFile(t.keyFile, 'client-key');
      this.checkKeyPair(cert, key);
      options.cert = cert;
      options.key = key;
    } else if (t.certFile) {
      const files = this.loadCertFiles();
      this.checkKeyPair(files.cert, files.key);
    }
    return options;
  }

  private readCertFile(file: string, what: string): Buffer {
    try {
      return fs.readFileSync(file);
    } catch (e) {
      throw this.configError(`cannot read its ${what} ${file}: ${goOpenError(file, e)}`, `error: ${goOpenError(file, e)}`);
    }
  }

  private checkKeyPair(cert: Buffer, key: Buffer): void {
    try {
      tls.createSecureContext({ cert, key });
    } catch (e) {
      const where = this.config.tls.certFile ? `${this.config.tls.certFile} and ${this.config.tls.keyFile}` : 'client-certificate-data and client-key-data';
      const mismatch = /key values mismatch/i.test((e as Error).message);
      throw this.configError(`has a client certificate and key (${where}) that cannot be used: ${(e as Error).message}`, mismatch ? 'tls: private key does not match public key' : `tls: failed to find any PEM data in certificate input`);
    }
  }

  private loadCertFiles(): { cert: Buffer; key: Buffer } {
    const now = Date.now();
    if (!this.certFiles || now - this.certFiles.at > CERT_FILE_CACHE_MS) {
      this.certFiles = { at: now, cert: this.readCertFile(this.config.tls.certFile, 'client-certificate'), key: this.readCertFile(this.config.tls.keyFile, 'client-key') };
    }
    return this.certFiles;
  }

  /** gcp and azure are gone from kubectl; oidc's id-token is sent as is (refreshing it is the plugin's job now). */
  private applyAuthProvider(headers: Record<string, string | string[]>): void {
    const p = this.config.authProvider;
    if (!p) return;
    if (p.name === 'gcp' || p.name === 'azure') {
      const plugin = p.name === 'gcp' ? 'gke-gcloud-auth-plugin' : 'kubelogin';
      throw this.configError(`uses the ${p.name} auth-provider, which kubectl no longer has: use the "${plugin}" exec credential plugin instead`, `The ${p.name} auth plugin has been removed. Please use the "${plugin}" kubectl/client-go credential plugin instead.`);
    }
    if (p.name === 'oidc') {
      if (!p.config['id-token']) throw this.configError('uses the oidc auth-provider without an id-token; log in with an oidc exec plugin (for example kubelogin) instead', 'the oidc provider refreshes tokens itself');
      if (!headers.Authorization) headers.Authorization = `Bearer ${p.config['id-token']}`;
      return;
    }
    throw this.configError(`uses the auth-provider "${p.name}", which is not supported: use an exec credential plugin`, `no Auth Provider found for name "${p.name}"`);
  }

  /** client-go's ConfigToExecCluster: what a plugin with provideClusterInfo is told. */
  private execCluster(): ExecCluster {
    const c = this.config;
    let caData: Buffer | undefined = c.tls.caData;
    if (!caData && c.tls.caFile) {
      try {
        caData = fs.readFileSync(c.tls.caFile);
      } catch (e) {
        throw this.configError(`cannot read its certificate-authority ${c.tls.caFile} for the exec plugin`, `failed to load CA bundle for execProvider: ${goOpenError(c.tls.caFile, e)}`, 'cluster');
      }
    }
    return {
      server: c.server,
      ...(c.tls.serverName ? { 'tls-server-name': c.tls.serverName } : {}),
      ...(c.tls.insecure ? { 'insecure-skip-tls-verify': true } : {}),
      ...(caData ? { 'certificate-authority-data': caData.toString('base64') } : {}),
      ...(this.proxy ? { 'proxy-url': this.proxy.href.replace(/\/$/, '') } : {}),
      ...(c.disableCompression ? { 'disable-compression': true } : {}),
      config: c.exec?.config ?? null,
    };
  }

  private buildAgent(secure: boolean): http.Agent {
    const options = { keepAlive: true, keepAliveMsecs: TCP_KEEPALIVE_MS, maxFreeSockets: MAX_IDLE_SOCKETS, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    const proxy = this.proxy;
    if (!proxy) return secure ? new https.Agent(options) : new http.Agent(options);
    const proxyTls = this.tlsOptions;
    type Done = ((err: Error | null, stream: Duplex) => void) | undefined;
    const dial = (opts: http.ClientRequestArgs, done: Done, wrap: (s: net.Socket) => net.Socket) => {
      const signal = ((opts as Record<string, unknown>)[DIAL_SIGNAL] as AbortSignal | undefined) ?? new AbortController().signal;
      dialThroughProxy(proxy, { host: String(opts.host), port: Number(opts.port) }, signal, proxyTls).then(
        (socket) => done?.(null, wrap(socket)),
        (e: Error) => done?.(e, undefined as unknown as Duplex),
      );
    };
    // createConnection may answer through its callback (Node's agents support it for async dials).
    if (secure) {
      return new (class extends https.Agent {
        override createConnection(opts: http.ClientRequestArgs, done?: Done): undefined {
          dial(opts, done, (socket) => tls.connect({ ...(opts as tls.ConnectionOptions), socket }));
          return undefined;
        }
      })(options);
    }
    return new (class extends http.Agent {
      override createConnection(opts: http.ClientRequestArgs, done?: Done): undefined {
        dial(opts, done, (socket) => socket);
        return undefined;
      }
    })(options);
  }

  /** The credential of the next request: a cached exec or file token, or the client certificate files. */
  private async credential(): Promise<Credential> {
    const headers = { ...this.staticHeaders };
    if (this.tokenFile) headers.Authorization = `Bearer ${this.tokenFile.current(this.config.token, this.config.user, this.config.userFile)}`;
    if (this.exec) {
      const exec = await this.exec.credentials();
      if (exec.token) headers.Authorization = `Bearer ${exec.token}`;
      return { headers, exec, cert: exec.cert, key: exec.key };
    }
    if (this.config.tls.certFile && !this.config.tls.certData && !this.config.tls.keyData) {
      const files = this.loadCertFiles();
      return { headers, cert: files.cert, key: files.key };
    }
    return { headers };
  }

  /**
   * Sends one request and resolves with the response once its headers arrive. Aborting the
   * signal stops it wherever it is (credentials, DNS, TCP, proxy, TLS, headers) with the
   * signal's reason. A 401 with credentials that can be refreshed (exec plugin) is sent once
   * more with fresh ones, as client-go's next request would be.
   */
  async open(req: TransportRequest, signal: AbortSignal): Promise<http.IncomingMessage> {
    let res = await this.openOnce(req, signal);
    if (res.statusCode === 401 && this.exec) {
      res.resume();
      res = await this.openOnce(req, signal);
    }
    return res;
  }

  private async openOnce(req: TransportRequest, signal: AbortSignal, retried = false): Promise<http.IncomingMessage> {
    if (this.disposed) throw new Error(`the connection to ${this.base} was closed (the context changed)`);
    if (signal.aborted) throw abortReason(signal);
    const credential = await raceAbort(this.credential(), signal);
    const url = new URL(this.base + req.path);
    const headers: Record<string, string | string[]> = { Accept: 'application/json', ...credential.headers, ...req.headers };
    if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
    const options: https.RequestOptions & Record<string, unknown> = {
      method: req.method,
      headers,
      agent: this.agent,
      ...this.tlsOptions,
      ...(credential.cert ? { cert: credential.cert, key: credential.key } : {}),
      [DIAL_SIGNAL]: signal,
    };
    const send = this.serverUrl.protocol === 'https:' ? https.request : http.request;
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = send(url, options, resolve);
        const onAbort = () => request.destroy(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        request.on('close', () => signal.removeEventListener('abort', onAbort));
        request.on('error', (e: Error & { reusedSocket?: boolean }) => reject(Object.assign(e, { reusedSocket: request.reusedSocket })));
        if (req.body !== undefined) request.write(req.body);
        request.end();
      });
      if (res.statusCode === 401 && credential.exec) this.exec?.invalidate(credential.exec);
      return res;
    } catch (e) {
      const err = e as Error & { reusedSocket?: boolean; code?: string };
      // A keep-alive connection the server closed while idle: an idempotent request goes again on a new one.
      if (!retried && !signal.aborted && err.reusedSocket && ['ECONNRESET', 'EPIPE'].includes(err.code ?? '') && ['GET', 'HEAD', 'PUT', 'DELETE'].includes(req.method)) {
        return this.openOnce(req, signal, true);
      }
      throw signal.aborted ? abortReason(signal) : this.classify(err);
    }
  }

  /**
   * A TLS failure that retrying cannot fix (an untrusted or mismatched server certificate, a
   * proxy that refuses) becomes a KubeconfigError naming the CA; anything else stays a
   * network error.
   */
  private classify(e: Error & { code?: string }): Error {
    const t = this.config.tls;
    const trust = t.caFile ? `the certificate-authority ${t.caFile}` : t.caData ? `the certificate-authority-data of cluster "${this.config.cluster}"` : "the system's trusted certificate authorities";
    const untrusted = ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE'];
    const host = this.config.tls.serverName || this.serverUrl.hostname;
    if (e.code && untrusted.includes(e.code)) {
      return this.configError(`: the server ${this.base} has a certificate that ${trust} does not trust (${e.message}). Fix the cluster's certificate-authority in the kubeconfig`, 'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority', 'cluster');
    }
    if (e.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      return this.configError(`: the server's certificate is not valid for the name "${host}" (${e.message}). Fix the server address or set tls-server-name to a name the certificate has`, `Unable to connect to the server: tls: failed to verify certificate: x509: certificate is valid for other names, not ${host}`, 'cluster');
    }
    if (e.code === 'CERT_HAS_EXPIRED' || e.code === 'CERT_NOT_YET_VALID') {
      return this.configError(`: the server's certificate is ${e.code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not yet valid'} (${e.message})`, 'Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid', 'cluster');
    }
    if (e instanceof ProxyRefusedError && (e.status === 407 || e.status === 403)) {
      return this.configError(`: ${e.message}. Check the proxy-url and its credentials`, `proxyconnect tcp: ${e.message}`, 'cluster');
    }
    return e;
  }

  /** Closes every open connection; later requests open new ones. */
  closeConnections(): void {
    this.agent.destroy();
  }

  /** Closes every connection of the context for good; later requests fail at once. */
  dispose(): void {
    this.disposed = true;
    this.agent.destroy();
  }
}

export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** The promise, or the signal's reason as soon as it aborts. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
