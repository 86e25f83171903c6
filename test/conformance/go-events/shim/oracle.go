//go:build kevoracle

// Compiled into client-go's package events by build.sh's overlay (never committed inside
// client-go): exports the unexported entry points the oracle drives, and the clock that the
// package's two wall-clock reads are pointed at (eventf's EventTime, finishSeries' now).
package events

import (
	"context"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	testclock "k8s.io/utils/clock/testing"
)

var oracleClock = testclock.NewFakeClock(time.Unix(0, 0))

// oracleNow replaces time.Now() in event_broadcaster.go and event_recorder.go.
func oracleNow() time.Time { return oracleClock.Now() }

// OracleSetTime sets the clock recordToSink, finishSeries and eventf read.
func OracleSetTime(t time.Time) { oracleClock.SetTime(t) }

// OracleBroadcaster is newBroadcaster with no wait between attempts, as client-go's tests make it.
type OracleBroadcaster struct{ impl *eventBroadcasterImpl }

func OracleNewBroadcaster(sink EventSink) *OracleBroadcaster {
	return &OracleBroadcaster{newBroadcaster(sink, 0, map[eventKey]*eventsv1.Event{}).(*eventBroadcasterImpl)}
}

func (o *OracleBroadcaster) RecordToSink(ctx context.Context, e *eventsv1.Event) {
	o.impl.recordToSink(ctx, e, oracleClock)
}

func (o *OracleBroadcaster) Refresh(ctx context.Context) { o.impl.refreshExistingEventSeries(ctx) }

func (o *OracleBroadcaster) Finish(ctx context.Context) { o.impl.finishSeries(ctx) }

// OracleEntry is one cached event and its key, the key's 19 strings in the struct's order.
type OracleEntry struct {
	Key   []string        `json:"key"`
	Event *eventsv1.Event `json:"event"`
}

func (o *OracleBroadcaster) Cache() []OracleEntry {
	o.impl.mu.Lock()
	defer o.impl.mu.Unlock()
	out := []OracleEntry{}
	for k, e := range o.impl.eventCache {
		key := []string{k.eventType, k.action, k.reason, k.reportingController, k.reportingInstance}
		for _, r := range []struct{ Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath string }{
			{k.regarding.Kind, k.regarding.Namespace, k.regarding.Name, string(k.regarding.UID), k.regarding.APIVersion, k.regarding.ResourceVersion, k.regarding.FieldPath},
			{k.related.Kind, k.related.Namespace, k.related.Name, string(k.related.UID), k.related.APIVersion, k.related.ResourceVersion, k.related.FieldPath},
		} {
			key = append(key, r.Kind, r.Namespace, r.Name, r.UID, r.APIVersion, r.ResourceVersion, r.FieldPath)
		}
		out = append(out, OracleEntry{Key: key, Event: e.DeepCopy()})
	}
	return out
}
