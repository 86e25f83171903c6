// A bare HTTPS client for the benchmarks' own traffic (the producer, the bare paged list,
// the latency producer): the kubeconfig's server and client certificate, and one
// keep-alive agent, so no request pays for a TLS handshake.
import * as fs from 'node:fs';
import * as https from 'node:https';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { restConfigFor } from '../../src/cluster/restConfig';

/** What a keep-alive client needs; plain data, so it can be handed to a worker thread. */
export interface Credentials {
  readonly server: string;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/**
 * The current context's server and client certificate, read with the extension's own
 * kubeconfig loader: no child process loads @kubernetes/client-node (73 MiB of resident
 * memory), so a side's peak RSS is what its own code held.
 */
export async function credentialsOf(kubeconfigFile: string): Promise<Credentials> {
  const { server, tls } = restConfigFor(loadKubeconfig(kubeconfigFile));
  const pem = async (data: Buffer | undefined, file: string) => (data ? data.toString() : file ? await fs.promises.readFile(file, 'utf8') : undefined);
  return { server, ca: await pem(tls.caData, tls.caFile), cert: await pem(tls.certData, tls.certFile), key: await pem(tls.keyData, tls.keyFile) };
}

export class KeepAliveClient {
  readonly agent: https.Agent;
  private readonly url: URL;

  constructor(
    credentials: Credentials,
    maxSockets = 16,
  ) {
    this.url = new URL(credentials.server);
    this.agent = new https.Agent({ keepAlive: true, maxSockets, ca: credentials.ca, cert: credentials.cert, key: credentials.key });
  }

  /** One request; resolves with the body as text, rejects on a status that is not 2xx. */
  request(method: string, path: string, body?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        { host: this.url.hostname, port: this.url.port, path, method, agent: this.agent, headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
            else resolve(text);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  dispose(): void {
    this.agent.destroy();
  }
}

/** Sends `count` requests, `concurrency` at a time; returns how long it took (ms). */
export async function produce(client: KeepAliveClient, count: number, concurrency: number, request: (i: number) => [method: string, path: string, body: string]): Promise<number> {
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const [method, path, body] = request(next++);
      await client.request(method, path, body);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - start;
}
