package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// drainTimeout is how long arrivals are awaited after the last create.
const drainTimeout = 10 * time.Second

type latencyResult struct {
	Created int `json:"created"`
	Arrived int `json:"arrived"`
	// From each create's response to the informer's add handler; an event whose watch
	// notification came before its create response counts 0 (Early says how many).
	LatenciesMs []float64 `json:"latenciesMs"`
	Early       int       `json:"early"`
	// From each create's request (before it is sent) to the handler.
	FromRequestMs []float64 `json:"fromRequestMs"`
}

// runLatency watches every namespace with a shared informer (as the extension watches),
// and creates rate events per second for seconds in namespace, each from its own
// goroutine on schedule over client-go's one kept-alive connection.
func runLatency(ctx context.Context, cs *kubernetes.Clientset, namespace, templateFile, prefix string, rate, seconds int) latencyResult {
	raw, err := os.ReadFile(templateFile)
	if err != nil {
		fail("latency: %v", err)
	}
	var template v1.Event
	if err := json.Unmarshal(raw, &template); err != nil {
		fail("latency: template: %v", err)
	}
	var mu sync.Mutex
	created := map[string]time.Time{}
	requested := map[string]time.Time{}
	arrived := map[string]time.Time{}

	stop := make(chan struct{})
	defer close(stop)
	factory := informers.NewSharedInformerFactory(cs, 0)
	inf := factory.Core().V1().Events().Informer()
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj interface{}) {
		now := time.Now()
		e := obj.(*v1.Event)
		if strings.HasPrefix(e.Name, prefix) {
			mu.Lock()
			arrived[e.Name] = now
			mu.Unlock()
		}
	}}); err != nil {
		fail("latency: %v", err)
	}
	factory.Start(stop)
	for !inf.HasSynced() {
		time.Sleep(time.Millisecond)
	}

	total := rate * seconds
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < total; i++ {
		if wait := time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(rate))); wait > 0 {
			time.Sleep(wait)
		}
		e := template.DeepCopy()
		e.Name = fmt.Sprintf("%s.%d", prefix, i)
		e.Namespace = namespace
		e.Message = fmt.Sprintf("%s (%d)", template.Message, i)
		// Each event about an object of its own, as events about many pods arrive.
		e.InvolvedObject.Name = fmt.Sprintf("%s-%d", template.InvolvedObject.Name, i)
		e.InvolvedObject.UID = types.UID(fmt.Sprintf("%s-%d", template.InvolvedObject.UID, i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			before := time.Now()
			if _, err := cs.CoreV1().Events(namespace).Create(ctx, e, metav1.CreateOptions{}); err != nil {
				fail("latency: create: %v", err)
			}
			now := time.Now()
			mu.Lock()
			created[e.Name] = now
			requested[e.Name] = before
			mu.Unlock()
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(drainTimeout)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(arrived)
		mu.Unlock()
		if n >= total {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	out := latencyResult{Created: len(created), Arrived: len(arrived), LatenciesMs: []float64{}, FromRequestMs: []float64{}}
	for name, at := range arrived {
		sent, ok := created[name]
		if !ok {
			continue
		}
		d := at.Sub(sent)
		if d < 0 {
			out.Early++
			d = 0
		}
		out.LatenciesMs = append(out.LatenciesMs, ms(d))
		out.FromRequestMs = append(out.FromRequestMs, ms(at.Sub(requested[name])))
	}
	return out
}
