// The logs of the seeded crash loop's container (payments/checkout, seedCluster.ts): a Go
// service that starts, connects to its database and cache, serves, and a few seconds later
// dies of a nil pointer in a background goroutine (the Go runtime's panic and stack trace on
// stderr). Its previous instance is that crash; its current one is starting again.
import { prng } from '../support/prng';
import { criLine, rfc3339Nano } from './kwokLogs';

type Line = readonly [offsetMs: number, stream: 'stdout' | 'stderr', text: string];

/** The instance that crashed started this long before the plane; the current one 14 s later (a back-off of 10 s). */
const PREVIOUS_START_MS = -48_000;
const CURRENT_START_MS = -34_000;
/** Any fixed seed: every start writes the same sub-millisecond digits. */
const NANOS_SEED = 230;

/** The start-up, as slog's text handler logs it (TIME is replaced by each line's time). */
const STARTUP: readonly Line[] = [
  [0, 'stdout', 'time=TIME level=INFO msg="starting checkout" version=2.3.0 commit=9f3c1e2 go=go1.23.4 pid=1'],
  [3, 'stdout', 'time=TIME level=INFO msg="loaded configuration" file=/etc/checkout/config.yaml env=production region=eu-west-1'],
  [5, 'stdout', 'time=TIME level=INFO msg="connecting to postgres" host=payments-db.payments.svc.cluster.local port=5432 database=payments user=checkout sslmode=require'],
  [41, 'stdout', 'time=TIME level=INFO msg="postgres pool ready" max_conns=20 idle=4 latency=35.8ms'],
  [58, 'stdout', 'time=TIME level=INFO msg="schema version check" current=42 expected=42'],
  [60, 'stdout', 'time=TIME level=INFO msg="connecting to redis" addr=redis.payments.svc.cluster.local:6379 db=0'],
  [63, 'stdout', 'time=TIME level=INFO msg="redis ready" latency=2.1ms'],
  [64, 'stdout', 'time=TIME level=INFO msg="registered payment provider" provider=stripe mode=live'],
  [64, 'stdout', 'time=TIME level=WARN msg="payment provider not configured, skipping" provider=adyen missing=ADYEN_API_KEY'],
  [66, 'stdout', 'time=TIME level=INFO msg="starting exchange rate refresher" source=https://rates.internal.acme-shop.example/v2 interval=30s'],
  [67, 'stdout', 'time=TIME level=INFO msg="metrics listening" addr=:9090 path=/metrics'],
  [68, 'stdout', 'time=TIME level=INFO msg="grpc listening" addr=:9000 services=checkout.v1.Checkout,grpc.health.v1.Health'],
  [68, 'stdout', 'time=TIME level=INFO msg="http listening" addr=:8080'],
  [69, 'stdout', 'time=TIME level=INFO msg=ready startup=69.4ms'],
];

/** What the crashed instance did after its start-up, down to its death. */
const CRASH: readonly Line[] = [
  [1_210, 'stdout', 'time=TIME level=INFO msg="order placed" order=ord_8Jx2kqT4 amount=129.90 currency=EUR latency=48ms'],
  [2_480, 'stdout', 'time=TIME level=INFO msg="order placed" order=ord_8Jx2mV0c amount=18.50 currency=EUR latency=31ms'],
  [3_002, 'stdout', 'time=TIME level=WARN msg="exchange rates incomplete" missing=CHF,SEK source=https://rates.internal.acme-shop.example/v2'],
  ...[
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x9b4e12]',
    '',
    'goroutine 41 [running]:',
    'github.com/acme-shop/checkout/internal/fx.(*RateCache).convert(0xc0001a6b40, {0xc0003d21e0, 0x3}, 0x0)',
    '\t/src/internal/fx/cache.go:112 +0x32',
    'github.com/acme-shop/checkout/internal/fx.(*RateCache).refresh(0xc0001a6b40, {0xd41a28, 0xc000281b90})',
    '\t/src/internal/fx/cache.go:87 +0x2c5',
    'github.com/acme-shop/checkout/internal/fx.(*RateCache).Start.func1()',
    '\t/src/internal/fx/cache.go:54 +0x9d',
    'created by github.com/acme-shop/checkout/internal/fx.(*RateCache).Start in goroutine 1',
    '\t/src/internal/fx/cache.go:49 +0x13a',
  ].map((text): Line => [3_004, 'stderr', text]),
];

/** Lines that go out together are stamped a few microseconds apart, in order. */
const MIN_GAP_NS = 8_000;
const JITTER_NS = 60_000;

function render(start: Date, lines: readonly Line[]): string {
  const random = prng(NANOS_SEED);
  let last = -Infinity;
  return lines.map(([offsetMs, stream, text]) => {
    // Nanoseconds since start: the line's offset, a little jitter, never before the line above.
    const ns = Math.max(offsetMs * 1_000_000 + Math.floor(random() * JITTER_NS), last + MIN_GAP_NS + Math.floor(random() * JITTER_NS));
    last = ns;
    const time = new Date(start.getTime() + Math.floor(ns / 1_000_000));
    return criLine(rfc3339Nano(time, ns % 1_000_000), stream, text.replace('TIME', time.toISOString()));
  }).join('');
}

/** The crashed instance's log, for a plane started at planeStart (`kubectl logs --previous`). */
export function checkoutPreviousLog(planeStart: Date): string {
  return render(new Date(planeStart.getTime() + PREVIOUS_START_MS), [...STARTUP, ...CRASH]);
}

/** The running instance's log: starting again. */
export function checkoutCurrentLog(planeStart: Date): string {
  return render(new Date(planeStart.getTime() + CURRENT_START_MS), STARTUP);
}
