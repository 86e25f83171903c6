import { CoreV1Api, CoreV1Event, KubeConfig } from '@kubernetes/client-node';

/** Page size of the initial list: the apiserver's own default chunk size. */
export const LIST_PAGE_SIZE = 500;

/** Lists core/v1 events in every namespace, page by page. */
export async function listEvents(kc: KubeConfig): Promise<CoreV1Event[]> {
  const api = kc.makeApiClient(CoreV1Api);
  const events: CoreV1Event[] = [];
  let continueToken: string | undefined;
  do {
    const page = await api.listEventForAllNamespaces({ limit: LIST_PAGE_SIZE, _continue: continueToken });
    events.push(...page.items);
    continueToken = page.metadata?._continue || undefined;
  } while (continueToken);
  return events;
}
