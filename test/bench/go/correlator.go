package main

import (
	"io"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	testclock "k8s.io/utils/clock/testing"

	"kubernetes-events.local/replay"
)

type correlatorResult struct {
	NsPerEvent float64 `json:"nsPerEvent"`
}

// runCorrelator reads the whole stream (test/support/replay) first, then times only the
// correlator: one untimed pass, then `passes` timed ones, each with a fresh correlator on a
// fake clock set to each event's time, replayed as a recorder with a sink does.
func runCorrelator(r io.Reader, passes int) correlatorResult {
	stream := replay.NewReader(r)
	h, err := stream.Header()
	if err != nil {
		fail("correlator: %v", err)
	}
	var events []v1.Event
	var at []time.Time
	for stream.Scan() {
		l := stream.Line()
		t, err := l.At()
		if err != nil {
			fail("correlator: line %d: %v", stream.Number(), err)
		}
		events = append(events, l.Event)
		at = append(at, t)
	}
	if err := stream.Err(); err != nil {
		fail("correlator: %v", err)
	}
	clock := testclock.NewFakePassiveClock(time.Unix(0, 0))
	var total time.Duration
	for p := 0; p <= passes; p++ {
		c := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clock, BurstSize: h.BurstSize})
		start := time.Now()
		for i := range events {
			ev := events[i]
			clock.SetTime(at[i])
			if _, err := replay.Correlate(c, &ev, i); err != nil {
				fail("correlator: event %d: %v", i, err)
			}
		}
		if p > 0 {
			total += time.Since(start)
		}
	}
	return correlatorResult{NsPerEvent: float64(total.Nanoseconds()) / float64(passes*len(events))}
}
