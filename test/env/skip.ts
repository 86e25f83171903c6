// Skipping a suite with a reason: the runners (test/runMocha.js, test/host/index.ts) print
// every skipped test by name with the reason its suite gives, and count it as skipped.
import type { Context } from 'mocha';

interface WithReason {
  skipReason?: string;
  parent?: WithReason;
}

/** From a `before` hook: skips every test of the suite, saying why. */
export function skipSuite(ctx: Context, reason: string): never {
  const suite = (ctx.test?.parent ?? ctx.currentTest?.parent) as WithReason | undefined;
  if (suite) suite.skipReason = reason;
  ctx.skip();
}

/** The reason a skipped test's suite (or a suite around it) gave. */
export function skipReasonOf(test: { parent?: unknown }): string {
  for (let s = test.parent as WithReason | undefined; s; s = s.parent) if (s.skipReason) return s.skipReason;
  return 'marked pending in the code, with no reason given';
}
