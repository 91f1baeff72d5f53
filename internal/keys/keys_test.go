package keys_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lexflow/lexflow/internal/keys"
	"github.com/lexflow/lexflow/internal/testenv"
	"github.com/lexflow/lexflow/store"
	"github.com/lexflow/lexflow/store/mongostore"
)

var uri string

func TestMain(m *testing.M) { os.Exit(testenv.MainWithFerretDB(m.Run, &uri)) }

func openStore(t *testing.T) *mongostore.Store {
	t.Helper()
	s, err := mongostore.Open(t.Context(), uri, fmt.Sprintf("keys_%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

const (
	secretA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	secretB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func local(t *testing.T, current string, previous ...string) *keys.Local {
	t.Helper()
	w, err := keys.NewLocal(current, previous...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestMasterSecretTooShort(t *testing.T) {
	if _, err := keys.NewLocal("short"); err == nil {
		t.Error("NewLocal took a 5-character secret")
	}
	if _, err := keys.NewLocal(secretA, "short"); err == nil {
		t.Error("NewLocal took a 5-character previous secret")
	}
}

// TestSealOpen seals under one key and opens only with it and the same associated data.
func TestSealOpen(t *testing.T) {
	st := openStore(t)
	r := keys.NewKeyring(st, local(t, secretA))
	a, err := r.Ensure(t.Context(), keys.CaseKeyID("a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Ensure(t.Context(), keys.CaseKeyID("b"))
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte("Zăvoianu a cerut restituirea garanției")
	sealed := a.Seal(plain, []byte("aad"))
	if bytes.Contains(sealed, plain[:8]) {
		t.Fatal("sealed data holds the plaintext")
	}
	if again := a.Seal(plain, []byte("aad")); bytes.Equal(again, sealed) {
		t.Error("two seals of the same text are equal: the nonce is not fresh")
	}
	if got, err := a.Open(sealed, []byte("aad")); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("Open = %q, %v", got, err)
	}
	if _, err := a.Open(sealed, []byte("other")); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Open with other associated data = %v, want ErrDecrypt", err)
	}
	if _, err := b.Open(sealed, []byte("aad")); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Open with another case's key = %v, want ErrDecrypt", err)
	}
	if _, err := a.Open(sealed[:10], []byte("aad")); !errors.Is(err, keys.ErrDecrypt) {
		t.Errorf("Open of a truncated seal = %v, want ErrDecrypt", err)
	}
}

// TestKeyringAcrossProcesses: a key made by one keyring is the one another finds, its
// wrapped form in the store holds nothing of it, and a process without the master
// key cannot use it.
func TestKeyringAcrossProcesses(t *testing.T) {
	st := openStore(t)
	one, two := keys.NewKeyring(st, local(t, secretA)), keys.NewKeyring(st, local(t, secretA))
	id := keys.CaseKeyID("shared")
	if _, err := two.Key(t.Context(), id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Key before any was made = %v, want ErrNotFound", err)
	}
	k1, err := one.Ensure(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := two.Key(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k2.Open(k1.Seal([]byte("x"), nil), nil); err != nil || string(got) != "x" {
		t.Errorf("the other process's key opens %q, %v", got, err)
	}
	if k, err := two.Ensure(t.Context(), id); err != nil || k.ID != id {
		t.Errorf("Ensure of an existing key = %v, %v", k, err)
	}
	dk, err := st.GetKey(t.Context(), id)
	if err != nil || dk.Master != keys.MasterID(secretA) || len(dk.Wrapped) < keys.KeySize {
		t.Fatalf("stored key = %+v, %v", dk, err)
	}
	stranger := keys.NewKeyring(st, local(t, secretB))
	if _, err := stranger.Key(t.Context(), id); err == nil {
		t.Error("a keyring with another master key unwrapped the key")
	}
}

// TestDestroy: a destroyed key opens nothing and is never made again: at once in the
// process that destroyed it, and in another once the key's time in its cache is up.
func TestDestroy(t *testing.T) {
	st := openStore(t)
	const ttl = 200 * time.Millisecond
	here := keys.NewKeyring(st, local(t, secretA))
	there := &keys.Keyring{Store: st, Wrapper: local(t, secretA), TTL: ttl}
	id := keys.CaseKeyID("erased")
	if _, err := here.Ensure(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	if _, err := there.Key(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	destroyed := time.Now()
	dk, err := here.Destroy(t.Context(), id)
	if err != nil || dk.DestroyedAt == nil || len(dk.Wrapped) != 0 {
		t.Fatalf("Destroy = %+v, %v", dk, err)
	}
	if _, err := there.Key(t.Context(), id); err != nil && time.Since(destroyed) < ttl {
		t.Errorf("the other process forgot its cached key before its TTL: %v", err)
	}
	time.Sleep(ttl) // the cache's own clock: the key expires after ttl
	for name, r := range map[string]*keys.Keyring{"here": here, "there": there} {
		if _, err := r.Key(t.Context(), id); !errors.Is(err, keys.ErrDestroyed) {
			t.Errorf("%s: Key of a destroyed key = %v, want ErrDestroyed", name, err)
		}
		if _, err := r.Ensure(t.Context(), id); !errors.Is(err, keys.ErrDestroyed) {
			t.Errorf("%s: Ensure of a destroyed key = %v, want ErrDestroyed", name, err)
		}
	}
}

// TestRotate rewraps every live key under the new master key; the data keys, and so
// what they sealed, stay the same, and the old master key is no longer needed.
func TestRotate(t *testing.T) {
	st := openStore(t)
	old := keys.NewKeyring(st, local(t, secretA))
	var sealed [][]byte
	for i := range 3 {
		k, err := old.Ensure(t.Context(), keys.CaseKeyID(fmt.Sprint("rot", i)))
		if err != nil {
			t.Fatal(err)
		}
		sealed = append(sealed, k.Seal([]byte(fmt.Sprint("text ", i)), nil))
	}
	if _, err := old.Destroy(t.Context(), keys.CaseKeyID("rot2")); err != nil {
		t.Fatal(err)
	}
	rotating := keys.NewKeyring(st, local(t, secretB, secretA))
	n, err := rotating.Rotate(t.Context())
	if err != nil || n != 2 {
		t.Fatalf("Rotate = %d, %v; want the 2 live keys rewrapped", n, err)
	}
	if n, err := rotating.Rotate(t.Context()); err != nil || n != 0 {
		t.Errorf("Rotate again = %d, %v; want 0", n, err)
	}
	after := keys.NewKeyring(st, local(t, secretB))
	for i := range 2 {
		k, err := after.Key(t.Context(), keys.CaseKeyID(fmt.Sprint("rot", i)))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := k.Open(sealed[i], nil); err != nil || string(got) != fmt.Sprint("text ", i) {
			t.Errorf("after rotation key %d opens %q, %v", i, got, err)
		}
	}
	if _, err := keys.NewKeyring(st, local(t, secretA)).Key(t.Context(), keys.CaseKeyID("rot0")); err == nil {
		t.Error("the old master key still unwraps a rotated key")
	}
}

func TestKeyIDs(t *testing.T) {
	if got := keys.CaseOfKey(keys.CaseKeyID("c1")); got != "c1" {
		t.Errorf("CaseOfKey(CaseKeyID(c1)) = %q", got)
	}
	for _, id := range []string{keys.SystemKeyID, keys.UserKeyID("user:u"), "case:"} {
		if got := keys.CaseOfKey(id); got != "" {
			t.Errorf("CaseOfKey(%q) = %q, want none", id, got)
		}
	}
}
