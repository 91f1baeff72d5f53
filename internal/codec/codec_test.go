package codec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/lexflow/lexflow/internal/codec"
	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store/mongostore"
)

// mongoURI is the FerretDB that TestMain starts for the package's tests.
var mongoURI string

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &mongoURI)) }

const secret = "codec-test-master-secret-codec-test-master-secret"

// keyring returns a keyring over a database of its own.
func keyring(t *testing.T) *keys.Keyring {
	t.Helper()
	st, err := mongostore.Open(t.Context(), mongoURI, fmt.Sprintf("codec_%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	w, err := keys.NewLocal(secret)
	if err != nil {
		t.Fatal(err)
	}
	return keys.NewKeyring(st, w)
}

func payload(t *testing.T, v any) *commonpb.Payload {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayload(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKeyFromContext: a payload is sealed under its workflow's case key, the system key
// without a case or a context, and opens again from what it names.
func TestKeyFromContext(t *testing.T) {
	kr := keyring(t)
	c := &codec.Codec{Keys: kr}
	for _, tc := range []struct {
		name string
		sc   converter.SerializationContext
		want string
	}{
		{"case workflow", converter.WorkflowSerializationContext{WorkflowID: "case:c1"}, "case:c1"},
		{"child of a case", converter.WorkflowSerializationContext{WorkflowID: "case:c1:turn:3"}, "case:c1"},
		{"activity of a case", converter.ActivitySerializationContext{WorkflowID: "case:c2:draft:x"}, "case:c2"},
		{"workflow of no case", converter.WorkflowSerializationContext{WorkflowID: "erase:c1"}, keys.SystemKeyID},
		{"a tenant's query", converter.WorkflowSerializationContext{WorkflowID: schemas.QueryWorkflowID("org:acme", "q1")}, "tenant:org:acme"},
		{"a user's citation check", converter.WorkflowSerializationContext{WorkflowID: schemas.CitationCheckWorkflowID("user:a:b", "q2")}, "tenant:user:a:b"},
		{"a query of before", converter.WorkflowSerializationContext{WorkflowID: "query:q3"}, keys.SystemKeyID},
		{"no context", nil, keys.SystemKeyID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pc converter.PayloadCodec = c
			if tc.sc != nil {
				pc = c.WithSerializationContext(tc.sc)
			}
			in := payload(t, "Zăvoianu's deposit")
			enc, err := pc.Encode([]*commonpb.Payload{in})
			if err != nil {
				t.Fatal(err)
			}
			if !codec.Encrypted(enc[0]) || codec.KeyOf(enc[0]) != tc.want || bytes.Contains(enc[0].Data, []byte("Zăvoianu")) {
				t.Fatalf("encoded = %v", enc[0])
			}
			again, err := pc.Encode(enc)
			if err != nil || again[0] != enc[0] {
				t.Errorf("encoding a sealed payload again = %v, %v; want it unchanged", again, err)
			}
			dec, err := c.Decode(enc) // any codec opens it: the key travels with it
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if err := converter.GetDefaultDataConverter().FromPayload(dec[0], &got); err != nil || got != "Zăvoianu's deposit" {
				t.Errorf("decoded %q, %v", got, err)
			}
		})
	}
}

// TestPlainPassesThrough: payloads stored before the codec existed decode as they are.
func TestPlainPassesThrough(t *testing.T) {
	c := &codec.Codec{Keys: keyring(t)}
	in := payload(t, map[string]string{"description": "old case"})
	out, err := c.Decode([]*commonpb.Payload{in})
	if err != nil || out[0] != in {
		t.Errorf("Decode of a plain payload = %v, %v; want it unchanged", out, err)
	}
}

// TestCompression: a large repetitive payload is deflated before sealing and comes back
// whole; a small one is not.
func TestCompression(t *testing.T) {
	c := (&codec.Codec{Keys: keyring(t), Compress: true}).WithSerializationContext(converter.WorkflowSerializationContext{WorkflowID: "case:z"})
	big := payload(t, strings.Repeat("art. 2043 c.c. ", 400))
	small := payload(t, "art. 2043")
	enc, err := c.Encode([]*commonpb.Payload{big, small})
	if err != nil {
		t.Fatal(err)
	}
	if string(enc[0].Metadata[codec.MetadataCompression]) != "deflate" || len(enc[0].Data) > len(big.Data)/4 {
		t.Errorf("large payload: %d bytes sealed from %d, metadata %v", len(enc[0].Data), len(big.Data), enc[0].Metadata)
	}
	if _, ok := enc[1].Metadata[codec.MetadataCompression]; ok {
		t.Error("a small payload was compressed")
	}
	dec, err := c.Decode(enc)
	if err != nil || !bytes.Equal(dec[0].Data, big.Data) || !bytes.Equal(dec[1].Data, small.Data) {
		t.Errorf("round trip changed the payloads: %v", err)
	}
	// The compression flag is authenticated with the ciphertext.
	flag := &commonpb.Payload{Metadata: map[string][]byte{}, Data: enc[0].Data}
	for k, v := range enc[0].Metadata {
		if k != codec.MetadataCompression {
			flag.Metadata[k] = v
		}
	}
	if _, err := c.Decode([]*commonpb.Payload{flag}); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Decode with the compression flag removed = %v, want ErrDecrypt", err)
	}
}

// TestTamperedOrErased: a payload altered, relabelled to another key, or sealed under a
// destroyed key does not decode.
func TestTamperedOrErased(t *testing.T) {
	kr := keyring(t)
	c := (&codec.Codec{Keys: kr}).WithSerializationContext(converter.WorkflowSerializationContext{WorkflowID: "case:t"})
	enc, err := c.Encode([]*commonpb.Payload{payload(t, "secret words")})
	if err != nil {
		t.Fatal(err)
	}
	flipped := &commonpb.Payload{Metadata: enc[0].Metadata, Data: bytes.Clone(enc[0].Data)}
	flipped.Data[len(flipped.Data)-1] ^= 1
	if _, err := c.Decode([]*commonpb.Payload{flipped}); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Decode of an altered payload = %v, want ErrDecrypt", err)
	}
	if _, err := kr.Ensure(t.Context(), "case:other"); err != nil {
		t.Fatal(err)
	}
	relabelled := &commonpb.Payload{Metadata: map[string][]byte{}, Data: enc[0].Data}
	for k, v := range enc[0].Metadata {
		relabelled.Metadata[k] = v
	}
	relabelled.Metadata[codec.MetadataKeyID] = []byte("case:other")
	if _, err := c.Decode([]*commonpb.Payload{relabelled}); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Decode under another key = %v, want ErrDecrypt", err)
	}
	if _, err := kr.Destroy(t.Context(), "case:t"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decode(enc); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("Decode after the key was destroyed = %v, want ErrDestroyed", err)
	}
	if _, err := c.Encode([]*commonpb.Payload{payload(t, "more")}); !errors.Is(err, keys.ErrDestroyed) {
		t.Errorf("Encode for an erased case = %v, want ErrDestroyed", err)
	}
}
