// Port of client-go/tools/record/util/util.go.
import { randomUUID } from 'node:crypto';
import { StatusError } from './errors';

/** The event types the recorder accepts (case-sensitive). */
export const EVENT_TYPE_NORMAL = 'Normal';
export const EVENT_TYPE_WARNING = 'Warning';

export function validateEventType(eventType: string): boolean {
  return eventType === EVENT_TYPE_NORMAL || eventType === EVENT_TYPE_WARNING;
}

/** True only for an apiserver answer with HTTP status 404 (the reason is not consulted). */
export function isKeyNotFoundError(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

/** Longest DNS-1123 subdomain. */
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isDNS1123Subdomain(name: string): boolean {
  return name.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && DNS1123_SUBDOMAIN.test(name);
}

/**
 * `<refName>.<unixNano in lowercase hex>`; a random UUID when that is not a valid DNS-1123
 * subdomain (an IPv6 address, a name with a colon, a very long name).
 */
export function generateEventName(refName: string, unixNano: bigint): string {
  const name = `${refName}.${unixNano.toString(16)}`;
  return isDNS1123Subdomain(name) ? name : randomUUID();
}
