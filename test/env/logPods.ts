// The log tests' pods (kwokLogs.ts): ticker, hostile and big in LOGS_NAMESPACE, each with the
// one container LOGS_CONTAINER whose log KWOK serves from the file of the pod's name. Made
// once per plane, by whichever test comes first.
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { pollUntil } from '../support/wait';
import { LOGS_CONTAINER, LOGS_NAMESPACE, TEST_LOG_PODS } from './kwokLogs';
import { KWOK_NODE_KEY } from './kwokStages';

const TOLERATE_KWOK = { key: KWOK_NODE_KEY, operator: 'Exists', effect: 'NoSchedule' };

/** A create that found the object there already is done; anything else is not. */
const exists = (e: unknown) => {
  if ((e as { code?: number }).code !== 409) throw e as Error;
};

/** Creates the namespace and the pods when missing, and waits until every pod runs. */
export async function ensureLogPods(kc: KubeConfig): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: LOGS_NAMESPACE } } }).catch(exists);
  for (const name of TEST_LOG_PODS) {
    const body: V1Pod = { metadata: { name }, spec: { containers: [{ name: LOGS_CONTAINER, image: 'registry.example/logs:1' }], tolerations: [TOLERATE_KWOK] } };
    await core.createNamespacedPod({ namespace: LOGS_NAMESPACE, body }).catch(exists);
  }
  await pollUntil(`the pods of ${LOGS_NAMESPACE} running`, async () => {
    const pods = await core.listNamespacedPod({ namespace: LOGS_NAMESPACE });
    return pods.items.length >= TEST_LOG_PODS.length && pods.items.every((p) => p.status?.containerStatuses?.[0]?.state?.running);
  }, 60_000, 250);
}
