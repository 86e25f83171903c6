// Recording an event the user asks for: checked against the apiserver's limits, recorded
// through the window's recorder (so it shows at once, correlated as client-go would), and
// written to the cluster too while the sink is on. The answer says where it went.
import { objectPlace, requestProblem, type RecordRequest, type RecordResult } from '../model/recordRequest';
import type { EventMachinery } from './eventMachinery';

/** What recording needs to know of the sink. */
export interface SinkState {
  readonly enabled: boolean;
  readonly context: string | undefined;
}

export class RecordingService {
  constructor(
    private readonly machinery: EventMachinery,
    private readonly sink: SinkState,
    /** Told of each event recorded (the walkthrough's last step). */
    private readonly onRecorded: () => void = () => undefined,
  ) {}

  /** Records the event; never throws (a refusal is the result's text). */
  async record(r: RecordRequest): Promise<RecordResult> {
    const toCluster = this.sink.enabled;
    const problem = requestProblem(r);
    if (problem) return { ok: false, text: problem, toCluster: false };
    // The message is the note as it is: formatted with "%s", never as a format of its own.
    const queued =
      r.api === 'events.k8s.io/v1'
        ? await this.machinery.eventsRecorder.eventf(r.object, r.related, r.type, r.reason, r.action ?? '', '%s', r.message)
        : await this.machinery.recorder.event(r.object, r.type, r.reason, r.message);
    if (!queued) return { ok: false, text: `The event on ${objectPlace(r.object)} was not recorded; see the Kubernetes Events log.`, toCluster: false };
    this.onRecorded();
    const what = `${r.type} ${r.reason}${r.api === 'events.k8s.io/v1' ? ` (events.k8s.io/v1, action ${r.action})` : ''}`;
    return {
      ok: true,
      toCluster,
      text: toCluster
        ? `Recorded ${what} on ${objectPlace(r.object)}, and sent it to the cluster of context ${this.sink.context}.`
        : `Recorded ${what} on ${objectPlace(r.object)} in this window only: the sink is off, so the cluster does not have it.`,
    };
  }
}
