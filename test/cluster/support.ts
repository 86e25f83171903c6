// Shared helpers for tests against the real control plane that `npm test` starts.
import * as path from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { ApiClient } from '../../src/cluster/apiRequest';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { ListWatch, type ListWatchOptions } from '../../src/cluster/listWatch';
import type { RawEvent } from '../../src/cluster/normalize';
import { restConfigFor, type RestConfig } from '../../src/cluster/restConfig';
import { pollUntil } from '../support/wait';

/** The folder of the running control plane; the runner sets it. */
export function controlPlaneDir(): string {
  const dir = process.env.KEV_CONTROL_PLANE_DIR;
  if (!dir) throw new Error('KEV_CONTROL_PLANE_DIR is not set: run these tests through `npm test` (or `npm test -- --only=cluster`).');
  return dir;
}

export function kubeConfigFor(file: 'admin.kubeconfig' | 'limited.kubeconfig'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path.join(controlPlaneDir(), file));
  return kc;
}

/** Our own RestConfig of one of the control plane's kubeconfigs (the current context by default). */
export function restConfigOf(file: 'admin.kubeconfig' | 'limited.kubeconfig', context?: string): RestConfig {
  return restConfigFor(loadKubeconfig(path.join(controlPlaneDir(), file)), context);
}

/** Creates a namespace of its own for one test file (no controller deletes it in time anyway). */
export async function createNamespace(kc: KubeConfig, prefix: string): Promise<string> {
  const name = `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}

/** One list of events through a ListWatch, to its end (the watch after it is stopped); each page to onPage. */
export async function listOnce(client: ApiClient, options: ListWatchOptions, onPage: (items: RawEvent[]) => void): Promise<void> {
  let done = false;
  const watch = new ListWatch<RawEvent>(client, options, {
    onListPage: onPage,
    onListDone: () => {
      done = true;
    },
    onEvent: () => undefined,
  });
  try {
    watch.start();
    await pollUntil('the list to end', () => done);
  } finally {
    await watch.stop();
  }
}
