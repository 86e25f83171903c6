// The -watch-frames mode: writes a watch's body as the apiserver encodes it (its watch
// encoder: each object written in full by the media type's serializer, wrapped in a
// metav1.WatchEvent, written by the stream serializer through its framer), in protobuf or
// JSON, for the TypeScript decoder to read both and be compared.
//
// Input (stdin), one JSON object per line: {"type": "ADDED", "api": "v1" | "events.k8s.io/v1"
// | "Status", "object": {...}, "text": "<base64>"}; text, when present, replaces the event's
// message (note) with those bytes, which need not be UTF-8.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/client-go/kubernetes/scheme"
)

type frameInput struct {
	Type   string          `json:"type"`
	API    string          `json:"api"`
	Object json.RawMessage `json:"object"`
	Text   *string         `json:"text"`
}

func writeWatchFrames(encoding string) {
	mediaType := runtime.ContentTypeJSON
	if encoding == "protobuf" {
		mediaType = runtime.ContentTypeProtobuf
	} else if encoding != "json" {
		fail("-watch-frames is protobuf or json, not %q", encoding)
	}
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok || info.StreamSerializer == nil {
		fail("no stream serializer for %s", mediaType)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(out), info.StreamSerializer.Serializer)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		var line frameInput
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			fail("watch frames: %v", err)
		}
		var text []byte
		if line.Text != nil {
			b, err := base64.StdEncoding.DecodeString(*line.Text)
			if err != nil {
				fail("watch frames: text: %v", err)
			}
			text = b
		}
		var obj runtime.Object
		var gv schema.GroupVersion
		switch line.API {
		case "v1":
			e := &v1.Event{}
			unmarshal(line.Object, e)
			if text != nil {
				e.Message = string(text)
			}
			obj, gv = e, v1.SchemeGroupVersion
		case "events.k8s.io/v1":
			e := &eventsv1.Event{}
			unmarshal(line.Object, e)
			if text != nil {
				e.Note = string(text)
			}
			obj, gv = e, eventsv1.SchemeGroupVersion
		case "Status":
			s := &metav1.Status{}
			unmarshal(line.Object, s)
			obj, gv = s, schema.GroupVersion{Version: "v1"}
		default:
			fail("watch frames: api %q", line.API)
		}
		raw, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, gv), obj)
		if err != nil {
			fail("watch frames: encode: %v", err)
		}
		if err := encoder.Encode(&metav1.WatchEvent{Type: line.Type, Object: runtime.RawExtension{Raw: raw}}); err != nil {
			fail("watch frames: %v", err)
		}
	}
	if err := in.Err(); err != nil {
		fail("watch frames: %v", err)
	}
}

func unmarshal(data []byte, into interface{}) {
	if err := json.Unmarshal(data, into); err != nil {
		fail("watch frames: object: %v", err)
	}
}
