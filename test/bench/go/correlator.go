package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	testclock "k8s.io/utils/clock/testing"
)

// The stream format of test/conformance (a header line, then {"atNanos","event"} lines).
type streamHeader struct {
	BurstSize int `json:"burstSize"`
}

type streamLine struct {
	AtNanos string   `json:"atNanos"`
	Event   v1.Event `json:"event"`
}

type correlatorResult struct {
	NsPerEvent float64 `json:"nsPerEvent"`
}

// runCorrelator parses the whole stream first, then times only the correlator: one
// untimed pass, then passes timed ones, each with a fresh correlator, EventCorrelate per
// event and UpdateState after each decision (the server's copy, as a sink would return).
func runCorrelator(r io.Reader, passes int) correlatorResult {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	if !in.Scan() {
		fail("correlator: no header line")
	}
	var h streamHeader
	if err := json.Unmarshal(in.Bytes(), &h); err != nil {
		fail("correlator: header: %v", err)
	}
	var events []v1.Event
	var at []time.Time
	for in.Scan() {
		var l streamLine
		if err := json.Unmarshal(in.Bytes(), &l); err != nil {
			fail("correlator: %v", err)
		}
		n, err := strconv.ParseInt(l.AtNanos, 10, 64)
		if err != nil {
			fail("correlator: atNanos %q: %v", l.AtNanos, err)
		}
		events = append(events, l.Event)
		at = append(at, time.Unix(0, n))
	}
	if err := in.Err(); err != nil {
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
			result, _ := c.EventCorrelate(&ev)
			if !result.Skip {
				server := *result.Event
				server.ResourceVersion = strconv.Itoa(i)
				c.UpdateState(&server)
			}
		}
		if p > 0 {
			total += time.Since(start)
		}
	}
	return correlatorResult{NsPerEvent: float64(total.Nanoseconds()) / float64(passes*len(events))}
}
