// SelfSubjectAccessReview: may the current user create and patch events (what the sink needs)?
import type { ApiClient } from './apiRequest';

export interface AccessAnswer {
  readonly verb: string;
  readonly allowed: boolean;
  readonly reason: string;
}

export async function canI(client: ApiClient, verb: string, resource: string, namespace?: string): Promise<AccessAnswer> {
  const review = await client.request<{ status?: { allowed?: boolean; reason?: string; denied?: boolean } }>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, resource, group: '', namespace } } }),
  });
  return { verb, allowed: review.status?.allowed === true, reason: review.status?.reason ?? '' };
}

/** The sink writes with create and patch on core/v1 events, in any namespace. */
export async function sinkPermissions(client: ApiClient): Promise<AccessAnswer[]> {
  return Promise.all(['create', 'patch'].map((verb) => canI(client, verb, 'events')));
}
