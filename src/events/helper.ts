// Port of client-go/tools/events/helper.go (v0.37.2): the field selector that picks the
// events about one object, in whichever events API the client speaks.

/** The field that names the object an event is about, per events API group version. */
const REGARDING_FIELD: Readonly<Record<string, string>> = {
  'events.k8s.io/v1': 'regarding',
  'events.k8s.io/v1beta1': 'regarding',
  v1: 'involvedObject',
};

export interface RegardingKind {
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
}

/** fields.EscapeValue: a backslash, comma or equals sign in a value is escaped with a backslash. */
function escapeValue(v: string): string {
  return v.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * GetFieldSelector: `<prefix>.name`, `.kind`, `.apiVersion` and `.uid` for each one given,
 * sorted by field as fields.Set.AsSelector writes them. Throws for an unknown events API.
 */
export function getFieldSelector(eventsGroupVersion: string, regarding: RegardingKind, name: string, uid: string): string {
  const prefix = REGARDING_FIELD[eventsGroupVersion];
  if (!prefix) throw new Error(`unknown version ${eventsGroupVersion}`);
  const fields: [string, string][] = [];
  if (name) fields.push([`${prefix}.name`, name]);
  if (regarding.kind) fields.push([`${prefix}.kind`, regarding.kind]);
  // schema.GroupVersion.String(): the version alone in the core group.
  const groupVersion = regarding.group ? `${regarding.group}/${regarding.version ?? ''}` : (regarding.version ?? '');
  if (regarding.group || regarding.version) fields.push([`${prefix}.apiVersion`, groupVersion]);
  if (uid) fields.push([`${prefix}.uid`, uid]);
  return fields
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${escapeValue(v)}`)
    .join(',');
}
