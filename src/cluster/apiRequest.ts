// One JSON request to the apiserver with the kubeconfig's TLS, proxy and credentials
// (exec plugins included), and client-go's split of failures: an HTTP answer that is not
// 2xx is a StatusError (never retried); no answer at all is a plain Error (retried).
import type { IncomingMessage } from 'node:http';
import * as https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { StatusError, type StatusCause } from '../record/errors';

/** A request with no answer by then is abandoned, as a transport failure. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

interface Status {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: StatusCause[] };
}

/** Sends requests for one kubeconfig context; reuses one agent so connections are not leaked. */
export class ApiClient {
  private agent: https.Agent | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  get server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    return cluster.server;
  }

  private async options(req: { method: string; body?: string; contentType?: string }): Promise<https.RequestOptions> {
    const options: https.RequestOptions = {
      method: req.method,
      headers: { Accept: 'application/json', ...(req.body !== undefined ? { 'Content-Type': req.contentType ?? 'application/json' } : {}) },
    };
    // Credentials are applied per request so exec plugins can refresh their tokens.
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (e) {
      const user = this.kubeConfig.getCurrentUser();
      const exec = (user as { exec?: { command?: string } } | null)?.exec?.command;
      throw new Error(`Cannot get credentials for context "${this.kubeConfig.getCurrentContext()}"${exec ? `: its exec plugin ${exec} failed` : ''}: ${(e as Error).message.trim()}`);
    }
    this.agent ??= options.agent as https.Agent;
    options.agent = this.agent;
    return options;
  }

  /**
   * A GET whose body is read as it arrives (a watch). Resolves with the response once the
   * apiserver answers 2xx; rejects with a StatusError otherwise. Aborting the signal ends it.
   */
  async stream(path: string, signal: AbortSignal): Promise<IncomingMessage> {
    const url = new URL(path, this.server);
    const options = await this.options({ method: 'GET' });
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = https.request(url, { ...options, signal }, (res) => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code <= 299) {
          resolve(res);
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => reject(statusError(code, Buffer.concat(chunks).toString('utf8'), `GET ${url.pathname}`)));
      });
      request.on('error', reject);
      request.end();
    });
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const url = new URL(req.path, this.server);
    const options = await this.options(req);
    return new Promise<T>((resolve, reject) => {
      const request = https.request(url, { ...options, signal: req.signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            reject(statusError(code, text, `${req.method} ${url.pathname}`));
            return;
          }
          try {
            resolve(JSON.parse(text) as T);
          } catch {
            reject(new Error(`${req.method} ${url.pathname}: the apiserver answered ${code} with a body that is not JSON`));
          }
        });
      });
      request.setTimeout(this.timeoutMs, () => request.destroy(new Error(`${req.method} ${url.pathname}: no answer within ${this.timeoutMs} ms`)));
      request.on('error', reject);
      if (req.body !== undefined) request.write(req.body);
      request.end();
    });
  }

  /** Closes idle connections. */
  dispose(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}

/** The apiserver's Status body as a StatusError; a body that is not a Status still keeps the HTTP code. */
export function statusError(code: number, body: string, what: string): StatusError {
  let status: Status = {};
  try {
    status = JSON.parse(body) as Status;
  } catch {
    /* not a Status: use the code alone */
  }
  const message = status.message || `${what}: HTTP ${code}${body ? `: ${body.slice(0, 200)}` : ''}`;
  return new StatusError(code, status.reason ?? '', message, status.details?.causes ?? []);
}
