package main

import (
	"bufio"
	"context"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
)

type logsResult struct {
	Lines int `json:"lines"`
	// Sequence numbers out of order or seen twice, and those never seen (of 0..expect-1).
	Disordered int `json:"disordered"`
	Missing    int `json:"missing"`
	// From each line's kubelet timestamp (when it was written) to when it was read.
	LagP50Ms float64 `json:"lagP50Ms"`
	LagMaxMs float64 `json:"lagMaxMs"`
	// Peak resident memory of the process (getrusage), in bytes.
	MaxRSS int64 `json:"maxRss"`
}

// runLogs follows one container's log as a client-go program does (GetLogs with Follow
// and Timestamps, read line by line) until it has read a line with the sequence number
// expect-1, each line's text being "<marker> <sequence> ...".
func runLogs(ctx context.Context, cs *kubernetes.Clientset, namespace, pod, container, marker string, expect int) logsResult {
	tail := int64(0)
	stream, err := cs.CoreV1().Pods(namespace).GetLogs(pod, &v1.PodLogOptions{Container: container, Follow: true, Timestamps: true, TailLines: &tail}).Stream(ctx)
	if err != nil {
		fail("logs: %v", err)
	}
	defer stream.Close()
	r := bufio.NewReaderSize(stream, 64*1024)
	seen := make([]bool, expect)
	lags := make([]float64, 0, expect)
	res := logsResult{}
	next := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			fail("logs: %v", err)
		}
		now := time.Now()
		ts, rest, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(rest, marker+" ") {
			continue
		}
		res.Lines++
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			lags = append(lags, ms(now.Sub(t)))
		}
		field := strings.SplitN(rest[len(marker)+1:], " ", 2)[0]
		n, err := strconv.Atoi(field)
		if err != nil || n < 0 || n >= expect {
			continue
		}
		if seen[n] || n != next {
			res.Disordered++
		}
		seen[n] = true
		next = n + 1
		if n == expect-1 {
			break
		}
	}
	for _, s := range seen {
		if !s {
			res.Missing++
		}
	}
	res.LagP50Ms, res.LagMaxMs = p50Max(lags)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		res.MaxRSS = ru.Maxrss * 1024
	}
	return res
}

func p50Max(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	return sorted[len(sorted)/2], sorted[len(sorted)-1]
}
