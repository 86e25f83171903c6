// Command clientgo-bench is the client-go v0.34.4 side of `npm run bench`: each
// subcommand does one measured job the way a Go program using client-go would, and prints
// one JSON object on stdout for the TypeScript harness (test/bench/*.bench.ts).
//
//	pager      list every event with tools/pager (500 per page) into a store by UID,
//	           grouped by involved object; time to a complete store
//	informer   a SharedIndexInformer on events in all namespaces, with an index by involved
//	           object; time to HasSynced
//	latency    an informer on all namespaces, and a keep-alive producer creating events at a
//	           steady rate: time from each create response to the informer's handler
//	correlator tools/record's EventCorrelator over a JSON-line stream (fake clock)
//	logs       follow one container's log (GetLogs, Follow, Timestamps) until a numbered
//	           line; lines read, order, lag from each line's timestamp, peak RSS
//
// Clients are built as client-go programs build them (clientcmd, kubernetes.NewForConfig: one
// HTTP/2 connection; protobuf for built-in types, which typed clients prefer when no content
// type is set), with client-side throttling off (QPS < 0): the apiserver's pace is what is
// measured, not a 5 requests/s limiter. -json sets the content type to JSON, as ours reads.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "clientgo-bench: "+format+"\n", args...)
	os.Exit(1)
}

func printJSON(v interface{}) {
	if err := json.NewEncoder(os.Stdout).Encode(v); err != nil {
		fail("%v", err)
	}
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// clientset builds a clientset from a kubeconfig file, unthrottled; json asks for JSON
// instead of the protobuf a typed client prefers for built-in types.
func clientset(kubeconfig string, json bool) *kubernetes.Clientset {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	cfg.QPS = -1
	if json {
		cfg.ContentType = "application/json"
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		fail("client: %v", err)
	}
	return cs
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: clientgo-bench pager|informer|latency|correlator|logs [flags]")
	}
	cmd, args := os.Args[1], os.Args[2:]
	flags := flag.NewFlagSet(cmd, flag.ExitOnError)
	kubeconfig := flags.String("kubeconfig", "", "kubeconfig file")
	expect := flags.Int("expect", 0, "events the list must return (fail otherwise)")
	asJSON := flags.Bool("json", false, "pager, informer: read JSON instead of protobuf")
	fieldSelector := flags.String("field-selector", "", "pager: list only the events this field selector matches")
	namespace := flags.String("namespace", "", "latency: namespace to create events in")
	template := flags.String("template", "", "latency: file with the event JSON to create (name and message are varied)")
	prefix := flags.String("prefix", "latency", "latency: prefix of the created events' names")
	rate := flags.Int("rate", 200, "latency: events created per second")
	seconds := flags.Int("seconds", 10, "latency: how long to create events")
	passes := flags.Int("passes", 5, "correlator: timed passes over the stream (after one untimed pass)")
	pod := flags.String("pod", "", "logs: the pod (in -namespace)")
	container := flags.String("container", "", "logs: the container")
	marker := flags.String("marker", "", "logs: the word each counted line starts with")
	if err := flags.Parse(args); err != nil {
		fail("%v", err)
	}
	ctx := context.Background()
	switch cmd {
	case "pager":
		printJSON(runPager(ctx, clientset(*kubeconfig, *asJSON), *fieldSelector, *expect))
	case "informer":
		printJSON(runInformer(clientset(*kubeconfig, *asJSON), *expect))
	case "latency":
		printJSON(runLatency(ctx, clientset(*kubeconfig, false), *namespace, *template, *prefix, *rate, *seconds))
	case "logs":
		printJSON(runLogs(ctx, clientset(*kubeconfig, false), *namespace, *pod, *container, *marker, *expect))
	case "correlator":
		printJSON(runCorrelator(os.Stdin, *passes))
	default:
		fail("unknown subcommand %q", cmd)
	}
}
