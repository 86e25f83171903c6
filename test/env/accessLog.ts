// Lines of an HTTP access log in nginx's combined format (with the request time), the steady
// log every container without a log of its own shows: a shop's API answering its front end,
// the kubelet's health probes, Prometheus's scrapes and the odd error.

const REQUESTS: readonly (readonly [method: string, path: string, weight: number])[] = [
  ['GET', '/api/v1/products?page=PAGE', 6],
  ['GET', '/api/v1/products/ID', 8],
  ['GET', '/api/v1/cart', 5],
  ['POST', '/api/v1/cart/items', 3],
  ['DELETE', '/api/v1/cart/items/ID', 1],
  ['POST', '/api/v1/checkout', 1],
  ['GET', '/static/js/app.3f9c1e.js', 2],
  ['GET', '/healthz', 4],
  ['GET', '/metrics', 1],
];
/** Who asks for /healthz and /metrics, from where, and how big the answer is. */
const PROBE = { client: '10.244.0.1', agent: 'kube-probe/1.34', bytes: 2 };
const SCRAPE = { client: '10.244.1.9', agent: 'Prometheus/2.55.1', bytes: 18_000 };
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Go-http-client/1.1',
  'curl/8.11.0',
];
/** Answers without a body, and the short JSON of an error. */
const ERROR_BYTES: Record<number, number> = { 204: 0, 304: 0, 404: 61, 500: 73 };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A status as a healthy service answers: mostly 200, some 201/304/404, a rare 500. */
function status(random: () => number, method: string): number {
  const r = random();
  if (r < 0.01) return 500;
  if (r < 0.05) return 404;
  if (method === 'POST') return 201;
  if (method === 'DELETE') return 204;
  return r < 0.15 ? 304 : 200;
}

/** nginx's $time_local: 05/Dec/2026:03:22:39 +0000. */
function timeLocal(t: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCDate())}/${MONTHS[t.getUTCMonth()]}/${t.getUTCFullYear()}:${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())} +0000`;
}

/** One access-log line for a request answered at `time`, its details drawn from random. */
export function accessLogLine(time: Date, random: () => number): string {
  const total = REQUESTS.reduce((n, [, , w]) => n + w, 0);
  let r = random() * total;
  const [method, template] = REQUESTS.find(([, , w]) => (r -= w) < 0) ?? REQUESTS[0];
  const path = template.replace('PAGE', String(1 + Math.floor(random() * 12))).replace('ID', String(1000 + Math.floor(random() * 9000)));
  const internal = path === '/healthz' ? PROBE : path === '/metrics' ? SCRAPE : undefined;
  if (internal) {
    const bytes = internal.bytes + Math.floor(random() * internal.bytes * 0.05);
    return `${internal.client} - - [${timeLocal(time)}] "${method} ${path} HTTP/1.1" 200 ${bytes} "-" "${internal.agent}" rt=0.00${1 + Math.floor(random() * 4)}`;
  }
  const code = status(random, method);
  const bytes = ERROR_BYTES[code] ?? 120 + Math.floor(random() * 24_000);
  const client = `10.244.${1 + Math.floor(random() * 3)}.${2 + Math.floor(random() * 250)}`;
  const agent = pick(random, AGENTS);
  const seconds = (0.004 + random() * random() * 0.4 + (code === 500 ? 1.2 : 0)).toFixed(3);
  return `${client} - - [${timeLocal(time)}] "${method} ${path} HTTP/1.1" ${code} ${bytes} "-" "${agent}" rt=${seconds}`;
}
