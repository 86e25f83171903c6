// A bare HTTPS client for the benchmarks' own traffic (the producer, the bare paged list,
// the latency producer): the kubeconfig's server and client certificate, and one
// keep-alive agent, so no request pays for a TLS handshake.
import * as https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

/** What a keep-alive client needs; plain data, so it can be handed to a worker thread. */
export interface Credentials {
  readonly server: string;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

export async function credentialsOf(kubeconfigFile: string): Promise<Credentials> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigFile);
  const opts: https.RequestOptions & { ca?: string | Buffer | (string | Buffer)[]; cert?: string | Buffer | (string | Buffer)[]; key?: string | Buffer | (string | Buffer)[] } = {};
  await kc.applyToHTTPSOptions(opts);
  const text = (x: string | Buffer | (string | Buffer)[] | undefined) => (x === undefined ? undefined : Array.isArray(x) ? x.map((y) => y.toString()).join('\n') : x.toString());
  return { server: kc.getCurrentCluster()?.server ?? '', ca: text(opts.ca), cert: text(opts.cert), key: text(opts.key) };
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
