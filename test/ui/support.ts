// Shared set-up for UI tests: the extension packaged as a .vsix, installed into a fresh
// code-server, and the workbench opened in Chromium.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { seedWorkload } from './cluster';
import { EventsViewPage } from './eventsViewPage';
import { launchBrowser } from '../env/browser';
import { CodeServer, type CodeServerOptions } from '../env/codeServer';
import { repoRoot } from '../env/paths';

export const SCREENSHOTS = path.join(repoRoot, 'test-results', 'screenshots');

const packaged = new Map<string, string>();

/** Packages the extension the way users get it (`npm run package`) and returns the .vsix (once per run). */
export function packageExtension(outDir: string): string {
  const known = packaged.get(outDir);
  if (known) return known;
  fs.mkdirSync(outDir, { recursive: true });
  const vsix = path.join(outDir, 'kubernetes-events.vsix');
  execFileSync(process.execPath, [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', vsix], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  packaged.set(outDir, vsix);
  return vsix;
}

export interface Workbench {
  readonly page: Page;
  readonly server: CodeServer;
  close(): Promise<void>;
}

/**
 * Opens the workbench with the packaged extension installed and KUBECONFIG from the
 * environment; `extensions` and `path` add other extensions and PATH folders (explorerSetup.ts).
 */
export async function openWorkbench(name: string, options: Pick<CodeServerOptions, 'workspaceTrust' | 'workspaceSettings' | 'settings' | 'extensions' | 'path' | 'prepareWorkspace'> = {}): Promise<Workbench> {
  const runDir = path.join(repoRoot, '.run', `ui-${name}`);
  const vsix = packageExtension(path.join(repoRoot, '.run', 'vsix'));
  // The first run's walkthrough would open in every fresh workbench: only its own suite wants it.
  const settings = { 'kubernetesEvents.walkthrough.openOnFirstRun': false, ...options.settings };
  const server = await CodeServer.start({ runDir, workspace: path.join(runDir, 'workspace'), vsix, shareInstalled: true, ...options, settings });
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  await page.goto(server.workbenchUrl());
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
  await widenSideBar(page, 620);
  return {
    page,
    server,
    close: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

/** Drags the side bar's sash so long labels show in screenshots. */
async function widenSideBar(page: Page, width: number): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar) return;
  const edge = sidebar.x + sidebar.width;
  for (const sash of await page.locator('.monaco-sash.vertical').all()) {
    const box = await sash.boundingBox();
    if (!box || Math.abs(box.x + box.width / 2 - edge) > 4 || box.height < sidebar.height / 2) continue;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(sidebar.x + width, y, { steps: 8 });
    await page.mouse.up();
    return;
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** What a suite of UI tests works with, filled in by its `before` hook. */
export interface ViewSuite {
  workbench: Workbench;
  page: Page;
  v: EventsViewPage;
}

/**
 * Registers the hooks of a suite on the Events view: a seeded namespace of its own that the
 * view watches (other suites' objects stay out of it, as users narrow theirs), the workbench
 * opened on it, a screenshot and Escapes after a failed test (no question left open over the
 * next one), and the workbench closed at the end.
 */
export function useEventsView(name: string, namespace: string, settings: Record<string, unknown> = {}): ViewSuite {
  const suite = {} as ViewSuite;
  before(async () => {
    await seedWorkload(namespace);
    suite.workbench = await openWorkbench(name, { settings: { 'kubernetesEvents.namespaces': [namespace], ...settings } });
    suite.page = suite.workbench.page;
    suite.v = new EventsViewPage(suite.page);
    await suite.v.open();
    await suite.v.row(/^Deployment\/web$/).waitFor({ timeout: 90_000 });
  });
  after(async () => {
    await suite.workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !suite.page) return;
    await screenshot(suite.page, `failed-${name}-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
    for (let i = 0; i < 3; i++) await suite.page.keyboard.press('Escape');
  });
  return suite;
}
