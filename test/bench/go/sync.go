package main

import (
	"context"
	"syscall"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/pager"
)

// pageSize is the pager's page, as the extension's list asks for.
const pageSize = 500

// objectKey groups events as the extension's store does: kind, namespace, name and UID.
type objectKey struct{ kind, namespace, name, uid string }

func keyOf(e *v1.Event) objectKey {
	o := e.InvolvedObject
	return objectKey{o.Kind, o.Namespace, o.Name, string(o.UID)}
}

type syncResult struct {
	Ms     float64 `json:"ms"`
	Events int     `json:"events"`
	Groups int     `json:"groups"`
	// The process's peak resident set, for the memory table.
	PeakRssMiB float64 `json:"peakRssMiB"`
	// The process's CPU time (user and system, every thread) from the start to synced.
	CPUMs float64 `json:"cpuMs"`
}

func peakRssMiB() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Maxrss) / 1024 // Linux reports KiB
}

// cpuMs is the process's CPU time so far (user and system, every thread, the runtime's GC too).
func cpuMs() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return ms(time.Duration(u.Utime.Nano() + u.Stime.Nano()))
}

// runPager lists with tools/pager (pages fetched ahead while earlier ones are processed)
// into a map by UID and a map of groups by involved object.
func runPager(ctx context.Context, cs *kubernetes.Clientset, fieldSelector string, expect int) syncResult {
	start, cpuStart := time.Now(), cpuMs()
	byUID := map[string]*v1.Event{}
	groups := map[objectKey][]*v1.Event{}
	p := pager.New(pager.SimplePageFunc(func(opts metav1.ListOptions) (runtime.Object, error) {
		return cs.CoreV1().Events("").List(ctx, opts)
	}))
	p.PageSize = pageSize
	err := p.EachListItem(ctx, metav1.ListOptions{FieldSelector: fieldSelector}, func(obj runtime.Object) error {
		e := obj.(*v1.Event)
		byUID[string(e.UID)] = e
		k := keyOf(e)
		groups[k] = append(groups[k], e)
		return nil
	})
	if err != nil {
		fail("pager: %v", err)
	}
	elapsed := time.Since(start)
	if expect > 0 && len(byUID) != expect {
		fail("pager: listed %d events, expected %d", len(byUID), expect)
	}
	return syncResult{Ms: ms(elapsed), Events: len(byUID), Groups: len(groups), PeakRssMiB: peakRssMiB(), CPUMs: cpuMs() - cpuStart}
}

const objectIndex = "object"

func objectIndexFunc(obj interface{}) ([]string, error) {
	k := keyOf(obj.(*v1.Event))
	return []string{k.kind + "/" + k.namespace + "/" + k.name + "/" + k.uid}, nil
}

// runInformer starts a shared informer on events in every namespace, indexed by involved
// object, and times it to HasSynced (polled every millisecond, not WaitForCacheSync's 100 ms).
func runInformer(cs *kubernetes.Clientset, expect int) syncResult {
	stop := make(chan struct{})
	defer close(stop)
	start, cpuStart := time.Now(), cpuMs()
	factory := informers.NewSharedInformerFactory(cs, 0)
	inf := factory.Core().V1().Events().Informer()
	if err := inf.AddIndexers(cache.Indexers{objectIndex: objectIndexFunc}); err != nil {
		fail("informer: %v", err)
	}
	factory.Start(stop)
	for !inf.HasSynced() {
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	n := len(inf.GetStore().ListKeys())
	if expect > 0 && n != expect {
		fail("informer: synced %d events, expected %d", n, expect)
	}
	return syncResult{Ms: ms(elapsed), Events: n, Groups: len(inf.GetIndexer().ListIndexFuncValues(objectIndex)), PeakRssMiB: peakRssMiB(), CPUMs: cpuMs() - cpuStart}
}
