// Command correlator runs client-go's real EventCorrelator over an event stream and writes
// its decisions, one JSON line per event, for the TypeScript port to be compared against.
//
// Input (stdin): a stream as package replay reads it (test/support/replay). With the fake
// clock the time is set to atNanos before each event; with the interval clock every reading
// moves it by stepSeconds and the event's first and last timestamps are set from one
// reading first, as events_cache_test.go does.
//
// After each decision that is not a skip, the server is simulated: the event comes back with
// resourceVersion "<line number>" and goes to UpdateState, as a sink's create or patch would.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"time"
	"unsafe"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	testclock "k8s.io/utils/clock/testing"

	"kubernetes-events.local/replay"
)

type decision struct {
	Skip      bool      `json:"skip"`
	Event     *v1.Event `json:"event,omitempty"`
	Patch     *string   `json:"patch"`
	LocalKeys []string  `json:"localKeys"`
}

func nanos(s string) int64 {
	n, err := replay.Nanos(s)
	if err != nil {
		fail("%v", err)
	}
	return n
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "correlator: "+format+"\n", args...)
	os.Exit(1)
}

// field reads an unexported struct field without changing anything (inspection only).
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	if !f.IsValid() {
		fail("client-go changed: no field %s in %s", name, v.Type())
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// interfaceContent makes the struct an addressable interface{} holds readable by field:
// an interface's second word points at its (non-pointer) content.
func interfaceContent(iface reflect.Value) reflect.Value {
	data := (*[2]unsafe.Pointer)(unsafe.Pointer(iface.UnsafeAddr()))[1]
	return reflect.NewAt(iface.Elem().Type(), data).Elem()
}

// localKeys returns the aggregate group's local keys for aggregateKey, read straight from
// the aggregator's LRU map so the LRU order is not touched (Go's PopAny is random: the
// TypeScript port replays the choice Go made, and checks it was one it could make).
func localKeys(c *record.EventCorrelator, aggregateKey string) []string {
	aggregator := field(reflect.ValueOf(c).Elem(), "aggregator").Elem()
	utilsLRU := field(aggregator, "cache").Elem()
	inner := field(utilsLRU, "cache").Elem()
	entries := field(inner, "cache")
	keys := []string{}
	if entries.IsNil() {
		return keys
	}
	elem := entries.MapIndex(reflect.ValueOf(interface{}(aggregateKey)))
	if !elem.IsValid() {
		return keys
	}
	entry := field(elem.Elem(), "Value").Elem().Elem()
	record := interfaceContent(field(entry, "value"))
	for _, k := range field(record, "localKeys").MapKeys() {
		keys = append(keys, k.String())
	}
	sort.Strings(keys)
	return keys
}

func main() {
	humanDurations := flag.Bool("human-durations", false, "instead, read one duration in milliseconds per line and print apimachinery's duration.HumanDuration of it")
	watchFrames := flag.String("watch-frames", "", "instead, write a watch's body as the apiserver encodes it, in protobuf or json, from one event a line (watchframes.go)")
	flag.Parse()
	if *watchFrames != "" {
		writeWatchFrames(*watchFrames)
		return
	}
	if *humanDurations {
		printHumanDurations()
		return
	}
	stream := replay.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()

	h, err := stream.Header()
	if err != nil {
		fail("%v", err)
	}
	var clk clock.PassiveClock
	var fake *testclock.FakePassiveClock
	var interval *testclock.SimpleIntervalClock
	switch h.Clock {
	case "fake":
		fake = testclock.NewFakePassiveClock(time.Unix(0, 0))
		clk = fake
	case "interval":
		interval = &testclock.SimpleIntervalClock{Time: time.Unix(0, nanos(h.StartNanos)), Duration: time.Duration(h.StepSeconds) * time.Second}
		clk = interval
	default:
		fail("unknown clock %q", h.Clock)
	}
	correlator := record.NewEventCorrelatorWithOptions(record.CorrelatorOptions{Clock: clk, BurstSize: h.BurstSize})

	for stream.Scan() {
		e, line := stream.Line(), stream.Number()
		ev := e.Event
		if fake != nil {
			fake.SetTime(time.Unix(0, nanos(e.AtNanos)))
		} else {
			now := metav1.NewTime(interval.Now())
			ev.FirstTimestamp = now
			ev.LastTimestamp = now
		}
		aggregateKey, _ := record.EventAggregatorByReasonFunc(&ev)
		result, err := replay.Correlate(correlator, &ev, line)
		if err != nil {
			fail("line %d: %v", line, err)
		}
		d := decision{Skip: result.Skip}
		if !result.Skip {
			d.Event = result.Event
			if result.Patch != nil {
				p := string(result.Patch)
				d.Patch = &p
			}
		}
		d.LocalKeys = localKeys(correlator, aggregateKey)
		b, err := json.Marshal(d)
		if err != nil {
			fail("line %d: %v", line, err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := stream.Err(); err != nil {
		fail("reading: %v", err)
	}
}

// printHumanDurations is the oracle for the kubectl age format: the same function kubectl
// events and kubectl describe call, from the same apimachinery module.
func printHumanDurations() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		ms, err := strconv.ParseInt(in.Text(), 10, 64)
		if err != nil {
			fail("bad duration %q: %v", in.Text(), err)
		}
		fmt.Fprintln(out, duration.HumanDuration(time.Duration(ms)*time.Millisecond))
	}
}
