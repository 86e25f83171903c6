// Package replay reads the correlator's event streams (test/conformance/streams.ts writes
// them) and feeds each event to client-go's EventCorrelator as a recorder with a sink does:
// EventCorrelate, then, unless the event was skipped, UpdateState with the copy the server
// gave back. The conformance oracle (test/conformance/go) writes each decision; the
// benchmark (test/bench/go) times whole passes.
//
// A stream is JSON lines: a header, {"clock":"fake"} or {"clock":"interval","startNanos":
// "...","stepSeconds":N}, with an optional "burstSize"; then one {"atNanos":"...","event":
// {core/v1 Event}} per event.
package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
)

// Header is a stream's first line.
type Header struct {
	// Clock is "fake" (set to each line's atNanos) or "interval" (moved by StepSeconds on
	// every reading, from StartNanos).
	Clock       string `json:"clock"`
	StartNanos  string `json:"startNanos"`
	StepSeconds int64  `json:"stepSeconds"`
	// BurstSize is the spam filter's burst; 0 is client-go's default.
	BurstSize int `json:"burstSize"`
}

// Line is one event of a stream.
type Line struct {
	AtNanos string   `json:"atNanos"`
	Event   v1.Event `json:"event"`
}

// At is the time the fake clock reads for this event.
func (l Line) At() (time.Time, error) {
	n, err := Nanos(l.AtNanos)
	return time.Unix(0, n), err
}

// Nanos reads nanoseconds since the Unix epoch, written as a decimal string (JSON numbers
// lose precision past 2^53).
func Nanos(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad nanoseconds %q: %v", s, err)
	}
	return n, nil
}

// Reader reads a stream as bufio.Scanner reads lines: Header first, then Scan and Line
// for each event until Scan is false, then Err.
type Reader struct {
	in     *bufio.Scanner
	line   Line
	number int
	err    error
}

// NewReader reads r, whose lines may be as long as a whole event.
func NewReader(r io.Reader) *Reader {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	return &Reader{in: in}
}

// Header reads the stream's first line.
func (r *Reader) Header() (Header, error) {
	var h Header
	if !r.in.Scan() {
		if err := r.in.Err(); err != nil {
			return h, err
		}
		return h, fmt.Errorf("no header line")
	}
	if err := json.Unmarshal(r.in.Bytes(), &h); err != nil {
		return h, fmt.Errorf("header: %v", err)
	}
	return h, nil
}

// Scan reads the next line; false at the end of the stream or at an error (Err).
func (r *Reader) Scan() bool {
	if r.err != nil || !r.in.Scan() {
		return false
	}
	r.number++
	r.line = Line{}
	if err := json.Unmarshal(r.in.Bytes(), &r.line); err != nil {
		r.err = fmt.Errorf("line %d: %v", r.number, err)
		return false
	}
	return true
}

// Line is the line Scan read.
func (r *Reader) Line() Line { return r.line }

// Number is the number of the line Scan read: the first after the header is 1.
func (r *Reader) Number() int { return r.number }

// Err is the first error after the header, if any.
func (r *Reader) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.in.Err()
}

// Correlate gives one event to the correlator and, unless it was skipped, hands the
// server's copy (the event as correlated, with resourceVersion rv) back to UpdateState, as
// the sink's create or patch would.
func Correlate(c *record.EventCorrelator, ev *v1.Event, rv int) (*record.EventCorrelateResult, error) {
	result, err := c.EventCorrelate(ev)
	if err != nil {
		return nil, err
	}
	if !result.Skip {
		server := *result.Event
		server.ResourceVersion = strconv.Itoa(rv)
		c.UpdateState(&server)
	}
	return result, nil
}
