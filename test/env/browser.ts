// Debian's Chromium driven by playwright-core, with the flags this offline machine needs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's package puts Chromium here; override with KEV_CHROMIUM. */
export const CHROMIUM = process.env.KEV_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium without background networking (its calls out are refused here, many at a time),
 * without a sandbox (we run as root) and with a fresh profile each time.
 */
export async function launchBrowser(viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run bash test/env/setup.sh apt`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
