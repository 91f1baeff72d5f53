// Package codec encrypts every payload Temporal stores: workflow and activity inputs
// and results, signals, updates, queries, memos, and the messages and stack traces of
// failures. Each payload is sealed with AES-256-GCM under the data key of the case its
// workflow belongs to (a query's or citation check's under its tenant's key, other
// workflows of no case under the system key), after compressing it
// when that pays, and names its key in its metadata, so that destroying a case's key
// leaves its histories unreadable.
package codec

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/schemas"
)

// Metadata of an encrypted payload.
const (
	// MetadataEncoding is the encoding of every encrypted payload.
	MetadataEncoding = "binary/encrypted"
	// MetadataKeyID names the data key that sealed the payload.
	MetadataKeyID = "encryption-key-id"
	// MetadataCompression is "deflate" when the payload was compressed before sealing.
	MetadataCompression = "encryption-compression"
)

// compressFrom is the size from which a payload is compressed before it is sealed.
const compressFrom = 512

// keyTimeout bounds the store reads of finding or making a key.
const keyTimeout = 10 * time.Second

// Codec is the PayloadCodec that seals payloads. Given a serialization context (see
// WithSerializationContext) it seals under the key of the context's case; without
// one, under the system key. It opens a payload under the key the payload names, and
// passes through payloads that were never sealed.
type Codec struct {
	Keys *keys.Keyring
	// Compress deflates payloads of compressFrom bytes or more before sealing them
	// when that makes them smaller.
	Compress bool
	keyID    string
}

var (
	_ converter.PayloadCodec                         = (*Codec)(nil)
	_ converter.PayloadCodecWithSerializationContext = (*Codec)(nil)
)

// keyFor is the ID of the key that seals the payloads of workflow workflowID (and of
// its activities): its case's key, its tenant's for a query or a citation check, or
// the system key for any other workflow of no case.
func keyFor(workflowID string) string {
	if id := schemas.CaseOfWorkflow(workflowID); id != "" {
		return keys.CaseKeyID(id)
	}
	if tenant := schemas.TenantOfWorkflow(workflowID); tenant != "" {
		return keys.TenantKeyID(tenant)
	}
	return keys.SystemKeyID
}

// WithSerializationContext returns a Codec that seals under the key of the workflow
// the context names.
func (c *Codec) WithSerializationContext(sc converter.SerializationContext) converter.PayloadCodec {
	cp := *c
	switch sc := sc.(type) {
	case converter.WorkflowSerializationContext:
		cp.keyID = keyFor(sc.WorkflowID)
	case converter.ActivitySerializationContext:
		cp.keyID = keyFor(sc.WorkflowID)
	default:
		cp.keyID = ""
	}
	return &cp
}

// sealingKey is the ID of the key Encode seals with.
func (c *Codec) sealingKey() string {
	if c.keyID == "" {
		return keys.SystemKeyID
	}
	return c.keyID
}

// Encode seals each payload that is not sealed already.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	ctx, cancel := context.WithTimeout(context.Background(), keyTimeout)
	defer cancel()
	var key *keys.Key
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if Encrypted(p) {
			out[i] = p
			continue
		}
		if key == nil {
			var err error
			if key, err = c.Keys.Ensure(ctx, c.sealingKey()); err != nil {
				return nil, fmt.Errorf("encrypt payload: %w", err)
			}
		}
		var err error
		if out[i], err = seal(key, p, c.Compress); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Decode opens each sealed payload and passes the others through unchanged.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	ctx, cancel := context.WithTimeout(context.Background(), keyTimeout)
	defer cancel()
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if !Encrypted(p) {
			out[i] = p
			continue
		}
		key, err := c.Keys.Key(ctx, KeyOf(p))
		if err != nil {
			return nil, fmt.Errorf("decrypt payload: %w", err)
		}
		if out[i], err = Open(key, p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Encrypted reports whether p is a sealed payload.
func Encrypted(p *commonpb.Payload) bool {
	return string(p.GetMetadata()[converter.MetadataEncoding]) == MetadataEncoding
}

// KeyOf is the ID of the key that sealed p.
func KeyOf(p *commonpb.Payload) string { return string(p.GetMetadata()[MetadataKeyID]) }

// seal returns p sealed under key.
func seal(key *keys.Key, p *commonpb.Payload, compress bool) (*commonpb.Payload, error) {
	plain, err := proto.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encrypt payload: %w", err)
	}
	md := map[string][]byte{converter.MetadataEncoding: []byte(MetadataEncoding), MetadataKeyID: []byte(key.ID)}
	if compress && len(plain) >= compressFrom {
		if small := deflate(plain); len(small) < len(plain) {
			plain = small
			md[MetadataCompression] = []byte("deflate")
		}
	}
	out := &commonpb.Payload{Metadata: md}
	out.Data = key.Seal(plain, associated(out))
	return out, nil
}

// associated is the data a sealed payload's ciphertext authenticates: the metadata
// that says how to open it, its key ID and its compression.
func associated(p *commonpb.Payload) []byte {
	return []byte(KeyOf(p) + "\x00" + string(p.GetMetadata()[MetadataCompression]))
}

// Open returns the payload p sealed under key.
func Open(key *keys.Key, p *commonpb.Payload) (*commonpb.Payload, error) {
	plain, err := key.Open(p.GetData(), associated(p))
	if err != nil {
		return nil, fmt.Errorf("decrypt payload with key %s: %w", key.ID, err)
	}
	if string(p.GetMetadata()[MetadataCompression]) == "deflate" {
		if plain, err = inflate(plain); err != nil {
			return nil, fmt.Errorf("decrypt payload with key %s: inflate: %w", key.ID, err)
		}
	}
	var out commonpb.Payload
	if err := proto.Unmarshal(plain, &out); err != nil {
		return nil, fmt.Errorf("decrypt payload with key %s: %w", key.ID, err)
	}
	return &out, nil
}

func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression) // the level is valid
	_, _ = w.Write(b)                                       // a bytes.Buffer does not fail
	_ = w.Close()
	return buf.Bytes()
}

// maxInflated bounds what a compressed payload may inflate to: Temporal's own limit on
// a payload is far below it.
const maxInflated = 64 << 20

func inflate(b []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(b))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, maxInflated+1))
	if err == nil && len(out) > maxInflated {
		err = fmt.Errorf("inflates past %d bytes", maxInflated)
	}
	return out, err
}
