// Whether a context's requests ask the apiserver for gzip. client-go asks unless the
// kubeconfig says `disable-compression: true`; we also leave it off when the apiserver is on
// this machine (kind, k3d, minikube's docker driver, a port-forward, `kubectl proxy`): there
// is no network to save, and compressing a 500-event list page costs the apiserver CPU and
// holds back its first bytes (the continue token the next page is asked for with), and
// inflating it costs the extension host. Measured on a local apiserver: 50,000 events list
// in 1.8 s with gzip, 1.6 s without; client-go's pager takes 1.6 s either way.
import * as net from 'node:net';

/** Whether a host name or address is this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  if (net.isIPv6(host)) return host === '::1' || /^::ffff:127\./.test(host) || /^(0+:){7}0*1$/.test(host);
  return false;
}

/** Whether requests to `server` ask for gzip. */
export function asksForCompression(server: URL, disableCompression: boolean): boolean {
  return !disableCompression && !isLoopbackHost(server.hostname);
}
