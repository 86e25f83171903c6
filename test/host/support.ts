// Helpers for tests inside the extension host.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { KubernetesEventsApi } from '../../src/extension';

export const EXTENSION_ID = 'kubernetes-events.kubernetes-events';

export async function extensionApi(): Promise<KubernetesEventsApi> {
  const extension = vscode.extensions.getExtension<KubernetesEventsApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension.activate();
}

export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A line in the host report (the extension host's console does not reach it). */
export function report(line: string): void {
  const file = process.env.KEV_HOST_REPORT;
  if (file) fs.appendFileSync(file, `      ${line}\n`);
}
