// The proxy for a request when the kubeconfig has no proxy-url: client-go uses Go's
// http.ProxyFromEnvironment (golang.org/x/net/http/httpproxy): HTTPS_PROXY for https,
// HTTP_PROXY for http, NO_PROXY exceptions, and never a proxy for localhost or loopback.
import * as net from 'node:net';

function env(e: NodeJS.ProcessEnv, name: string): string {
  return e[name] ?? e[name.toLowerCase()] ?? '';
}

/** Whether host:port is excluded by NO_PROXY (entries: *, IP, CIDR, domain with optional leading dot, optional port). */
function excluded(host: string, port: string, noProxy: string): boolean {
  for (const raw of noProxy.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    if (raw === '*') return true;
    if (raw.includes('/') && net.isIP(host)) {
      const [range, bits] = raw.split('/');
      const list = new net.BlockList();
      try {
        list.addSubnet(range, Number(bits), net.isIPv6(range) ? 'ipv6' : 'ipv4');
        if (list.check(host, net.isIPv6(host) ? 'ipv6' : 'ipv4')) return true;
      } catch {
        /* not a CIDR: ignored, as Go ignores it */
      }
      continue;
    }
    let entryHost = raw;
    let entryPort = '';
    const m = /^(.*):(\d+)$/.exec(raw);
    if (m && !net.isIPv6(raw)) [, entryHost, entryPort] = m;
    entryHost = entryHost.replace(/^\[|\]$/g, '');
    if (entryPort && entryPort !== port) continue;
    if (net.isIP(entryHost)) {
      if (entryHost === host) return true;
      continue;
    }
    if (entryHost.startsWith('*.')) entryHost = entryHost.slice(1);
    if (entryHost.startsWith('.') ? host.endsWith(entryHost) : host === entryHost || host.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

/** The proxy URL for a request to url, or undefined for a direct connection. */
export function proxyFromEnvironment(url: URL, e: NodeJS.ProcessEnv = process.env): URL | undefined {
  const value = url.protocol === 'https:' ? env(e, 'HTTPS_PROXY') : e.REQUEST_METHOD ? '' : env(e, 'HTTP_PROXY');
  if (!value) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || (net.isIP(host) && (host.startsWith('127.') || host === '::1'))) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (excluded(host, port, env(e, 'NO_PROXY'))) return undefined;
  try {
    const proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    if (proxy.protocol === 'socks5h:') return new URL(proxy.href.replace(/^socks5h:/, 'socks5:'));
    return ['http:', 'https:', 'socks5:'].includes(proxy.protocol) ? proxy : undefined;
  } catch {
    return undefined;
  }
}
