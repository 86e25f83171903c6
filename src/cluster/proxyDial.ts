// A connection to the apiserver through the kubeconfig's proxy-url (or HTTPS_PROXY), as
// client-go's net/http transport makes it: an http or https proxy gets CONNECT host:port
// (an https proxy's certificate is checked with the cluster's TLS settings, as Go's
// transport does), a socks5 proxy gets a SOCKS5 CONNECT with the host name. Credentials in
// the proxy URL are sent as Basic proxy authorization or SOCKS5 user/password.
import * as net from 'node:net';
import * as tls from 'node:tls';
import { SocksClient } from 'socks';

export interface ProxyTarget {
  readonly host: string;
  readonly port: number;
}

/** A refusal by the proxy itself (it answered, but not with a tunnel). */
export class ProxyRefusedError extends Error {
  override name = 'ProxyRefusedError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function aborted(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** Resolves when the socket connects; destroys it and rejects on error or abort. */
function connected<T extends net.Socket>(socket: T, event: 'connect' | 'secureConnect', signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => socket.destroy(aborted(signal));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once(event, () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
  });
}

function defaultPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : url.protocol === 'socks5:' ? 1080 : 80;
}

/** Sends CONNECT on an open connection to the proxy and reads its answer's head. */
function connectTunnel(socket: net.Socket, proxy: URL, target: ProxyTarget, signal: AbortSignal): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const authority = `${net.isIPv6(target.host) ? `[${target.host}]` : target.host}:${target.port}`;
    const auth = proxy.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n` : '';
    let head = Buffer.alloc(0);
    const done = (e?: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('end', onEnd);
      if (e) {
        socket.destroy();
        reject(e);
      } else resolve(socket);
    };
    const onAbort = () => done(aborted(signal));
    const onError = (e: Error) => done(e);
    const onEnd = () => done(new Error(`the proxy ${proxy.host} closed the connection before answering CONNECT`));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > 16_384) done(new Error(`the proxy ${proxy.host} answered CONNECT with an over-long head`));
        return;
      }
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (status !== 200) {
        done(new ProxyRefusedError(`the proxy ${proxy.host} refused the tunnel to ${authority}: ${statusLine || 'no status line'}`, status));
        return;
      }
      // A proxy sends nothing after its 200 until the client speaks; anything else is not ours to drop.
      if (head.length > end + 4) socket.unshift(head.subarray(end + 4));
      done();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('end', onEnd);
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
  });
}

/**
 * A connected socket to target through the proxy, not yet speaking TLS to the apiserver.
 * proxyTls: the TLS options to check an https proxy with (the cluster's CA and server name rules).
 */
export async function dialThroughProxy(proxy: URL, target: ProxyTarget, signal: AbortSignal, proxyTls: tls.ConnectionOptions): Promise<net.Socket> {
  if (signal.aborted) throw aborted(signal);
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const port = defaultPort(proxy);
  if (proxy.protocol === 'socks5:') {
    const ac = new AbortController();
    const onAbort = () => ac.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const pending = SocksClient.createConnection({
        proxy: { host, port, type: 5, ...(proxy.username ? { userId: decodeURIComponent(proxy.username), password: decodeURIComponent(proxy.password) } : {}) },
        command: 'connect',
        destination: { host: target.host, port: target.port },
      });
      const result = await Promise.race([pending, new Promise<never>((_, reject) => ac.signal.addEventListener('abort', () => reject(aborted(signal)), { once: true }))]).catch((e: unknown) => {
        // A SOCKS handshake that finishes after the deadline must not leak its socket.
        void pending.then((r) => r.socket.destroy(), () => undefined);
        throw e;
      });
      return result.socket;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
  const socket =
    proxy.protocol === 'https:'
      ? await connected(tls.connect({ ...proxyTls, host, port, servername: proxyTls.servername || (net.isIP(host) ? undefined : host) }), 'secureConnect', signal)
      : await connected(net.connect({ host, port }), 'connect', signal);
  return connectTunnel(socket, proxy, target, signal);
}
