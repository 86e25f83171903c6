// Command tools-events runs client-go's own tools/events (v0.37.2: recordToSink, with its
// goroutine, attemptRecording and recordEvent; refreshExistingEventSeries; finishSeries)
// over a stream of operations, against a simulated sink that answers as each operation
// says, and writes for each operation one JSON line: the sink calls made, in order, and the
// event cache after it. build.sh compiles shim/oracle.go into the package and points its
// wall-clock reads at the stream's clock; nothing else in client-go is changed.
//
// Input (stdin), one JSON object a line:
//
//	{"op":"event","at":"<unix ns>","event":{events.k8s.io/v1 Event},"answers":["ok","404",...]}
//	{"op":"refresh"|"finish","at":"<unix ns>","byName":{"<event name>":["ok",...]}}
//
// An event's answers are used by its sink calls in turn; a pass over the cache visits it in
// Go's random map order, so its answers are per event name. Missing answers are "ok".
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	// The shim's clock: imported here so that go mod vendor brings it.
	_ "k8s.io/utils/clock/testing"
)

type operation struct {
	Op      string              `json:"op"`
	At      int64               `json:"at,string"`
	Event   *eventsv1.Event     `json:"event,omitempty"`
	Answers []string            `json:"answers,omitempty"`
	ByName  map[string][]string `json:"byName,omitempty"`
}

type call struct {
	Op     string          `json:"op"`
	Event  json.RawMessage `json:"event"`
	Patch  *string         `json:"patch"`
	Answer string          `json:"answer"`
}

type result struct {
	Calls []call               `json:"calls"`
	Cache []events.OracleEntry `json:"cache"`
}

// sink answers each call as the current operation says.
type sink struct {
	mu      sync.Mutex
	line    int
	calls   []call
	answers []string
	byName  map[string][]string
}

var eventsResource = schema.GroupResource{Group: "events.k8s.io", Resource: "events"}

func (s *sink) answer(op string, e *eventsv1.Event, patch []byte) (*eventsv1.Event, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, err := json.Marshal(e)
	if err != nil {
		fail("marshal: %v", err)
	}
	a := "ok"
	if s.byName != nil {
		if list := s.byName[e.Name]; len(list) > 0 {
			a, s.byName[e.Name] = list[0], list[1:]
		}
	} else if len(s.answers) > 0 {
		a, s.answers = s.answers[0], s.answers[1:]
	}
	c := call{Op: op, Event: body, Answer: a}
	if patch != nil {
		p := string(patch)
		c.Patch = &p
	}
	s.calls = append(s.calls, c)
	switch a {
	case "ok":
		// What the apiserver answers: the object, with a resourceVersion of its own.
		out := e.DeepCopy()
		out.ResourceVersion = fmt.Sprintf("%d-%s-%s", s.line, op, e.Name)
		return out, nil
	case "nil":
		return nil, nil
	case "404":
		return nil, apierrors.NewNotFound(eventsResource, e.Name)
	case "409exists":
		return nil, apierrors.NewAlreadyExists(eventsResource, e.Name)
	case "409conflict":
		return nil, apierrors.NewConflict(eventsResource, e.Name, fmt.Errorf("the object has been modified"))
	case "422":
		return nil, apierrors.NewInvalid(schema.GroupKind{Group: "events.k8s.io", Kind: "Event"}, e.Name, field.ErrorList{field.Required(field.NewPath("note"), "")})
	case "429":
		return nil, apierrors.NewTooManyRequests("slow down", 1)
	case "500":
		return nil, apierrors.NewInternalError(fmt.Errorf("etcd timeout"))
	case "403terminating":
		return nil, apierrors.NewForbidden(eventsResource, e.Name, fmt.Errorf("namespace is being terminated"))
	case "transport":
		return nil, fmt.Errorf("dial tcp 127.0.0.1:6443: connect: connection refused")
	case "construct":
		return nil, &restclient.RequestConstructionError{Err: fmt.Errorf("bad request")}
	case "unexpected":
		return nil, &apierrors.UnexpectedObjectError{Object: &metav1.Status{}}
	case "wrapped404":
		return nil, fmt.Errorf("wrapped: %w", apierrors.NewNotFound(eventsResource, e.Name))
	}
	fail("unknown answer %q", a)
	return nil, nil
}

func (s *sink) Create(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	return s.answer("create", e, nil)
}

func (s *sink) Update(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	return s.answer("update", e, nil)
}

func (s *sink) Patch(_ context.Context, e *eventsv1.Event, p []byte) (*eventsv1.Event, error) {
	return s.answer("patch", e, p)
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "tools-events: "+format+"\n", args...)
	os.Exit(1)
}

// settle waits until the goroutines recordToSink started have ended (its writes done).
func settle(baseline int) {
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > baseline; {
		if time.Now().After(deadline) {
			fail("recordToSink's goroutine did not end")
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// nopSink answers every call at once with the event itself, as client-go's tests' sink does.
type nopSink struct{}

func (nopSink) Create(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) { return e, nil }
func (nopSink) Update(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) { return e, nil }
func (nopSink) Patch(_ context.Context, e *eventsv1.Event, _ []byte) (*eventsv1.Event, error) {
	return e, nil
}

// bench times recordToSink over the stream's events, passes times, each pass on a new
// broadcaster after one untimed pass; every event's goroutine is waited for. Prints
// {"nsPerEvent": n}.
func bench(ops []operation, passes int) {
	list := []*eventsv1.Event{}
	for _, o := range ops {
		if o.Op == "event" {
			list = append(list, o.Event)
		}
	}
	ctx := context.Background()
	var total time.Duration
	for pass := 0; pass <= passes; pass++ {
		b := events.OracleNewBroadcaster(nopSink{})
		// Counted after the broadcaster, whose distribution goroutine stays.
		baseline := runtime.NumGoroutine()
		start := time.Now()
		for _, e := range list {
			b.RecordToSink(ctx, e)
		}
		for runtime.NumGoroutine() > baseline {
			runtime.Gosched()
		}
		if pass > 0 {
			total += time.Since(start)
		}
	}
	fmt.Printf("{\"nsPerEvent\":%d}\n", total.Nanoseconds()/int64(passes*len(list)))
}

func main() {
	passes := flag.Int("bench-passes", 0, "time recordToSink over the stream's events instead of comparing")
	flag.Parse()
	// client-go's log lines are not compared: kept off stderr.
	flags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(flags)
	for k, v := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "stderrthreshold": "FATAL"} {
		if err := flags.Set(k, v); err != nil {
			fail("klog: %v", err)
		}
	}
	klog.SetOutput(io.Discard)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	if *passes > 0 {
		ops := []operation{}
		for in.Scan() {
			var o operation
			if err := json.Unmarshal(in.Bytes(), &o); err != nil {
				fail("%v", err)
			}
			ops = append(ops, o)
		}
		bench(ops, *passes)
		return
	}
	s := &sink{}
	b := events.OracleNewBroadcaster(s)
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	baseline := runtime.NumGoroutine()
	for line := 0; in.Scan(); line++ {
		var o operation
		if err := json.Unmarshal(in.Bytes(), &o); err != nil {
			fail("line %d: %v", line, err)
		}
		s.mu.Lock()
		s.line, s.calls, s.answers, s.byName = line, nil, o.Answers, o.ByName
		s.mu.Unlock()
		events.OracleSetTime(time.Unix(0, o.At))
		switch o.Op {
		case "event":
			b.RecordToSink(ctx, o.Event)
			settle(baseline)
		case "refresh":
			b.Refresh(ctx)
		case "finish":
			b.Finish(ctx)
		default:
			fail("line %d: unknown op %q", line, o.Op)
		}
		s.mu.Lock()
		r := result{Calls: s.calls, Cache: b.Cache()}
		if r.Calls == nil {
			r.Calls = []call{}
		}
		s.mu.Unlock()
		if err := json.NewEncoder(out).Encode(r); err != nil {
			fail("write: %v", err)
		}
	}
	if err := in.Err(); err != nil {
		fail("read: %v", err)
	}
}
