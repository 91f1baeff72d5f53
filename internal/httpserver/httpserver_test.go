package httpserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// short are timeouts scaled down for the tests: what they show holds for any.
var short = Timeouts{ReadHeader: 200 * time.Millisecond, Read: 300 * time.Millisecond, Write: 300 * time.Millisecond, Idle: 300 * time.Millisecond}

// serve serves h with the short timeouts on loopback and returns its address.
func serve(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(h, short)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return l.Addr().String()
}

// closedByServer reads conn until the server closes it, and fails if it does not
// within guard.
func closedByServer(t *testing.T, r io.Reader, conn net.Conn, what string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.Copy(io.Discard, r)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open", what)
	}
}

// TestSlowClientsAreCut is issue 36's finding 12: the servers had a read-header
// timeout only, so a client could send its body, or keep an idle connection, as
// slowly as it liked. Headers sent slowly, a body sent slowly, and a kept-alive
// connection left idle are each cut.
func TestSlowClientsAreCut(t *testing.T) {
	bodyErr := make(chan error, 1)
	addr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		bodyErr <- err
	})
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	headers := dial()
	fmt.Fprint(headers, "POST / HTTP/1.1\r\nHost: x\r\n")
	closedByServer(t, headers, headers, "headers never finished")

	body := dial()
	fmt.Fprint(body, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly ten b")
	select {
	case err := <-bodyErr:
		if err == nil {
			t.Fatal("a body that stopped coming was read whole")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a body that stopped coming is still being read")
	}

	idle := dial()
	fmt.Fprint(idle, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
	r := bufio.NewReader(idle)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	<-bodyErr
	closedByServer(t, r, idle, "an idle kept-alive connection")
}

// TestExtendKeepsALongRequest: the answer of a handler that runs past the server's
// write timeout is lost, unless the handler extends it first.
func TestExtendKeepsALongRequest(t *testing.T) {
	addr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("extend") {
			Extend(w, 10*time.Second)
		}
		select {
		case <-r.Context().Done():
		case <-time.After(3 * short.Write):
			fmt.Fprint(w, "done")
		}
	})
	if resp, err := http.Get("http://" + addr + "/"); err == nil {
		resp.Body.Close()
		t.Error("an answer written past the write timeout came")
	}
	resp, err := http.Get("http://" + addr + "/?extend")
	if err != nil {
		t.Fatalf("an extended request: %v", err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != "done" {
		t.Errorf("an extended request: %q", got)
	}
}

// TestStreamOutlivesTheTimeouts: a stream that calls Stream before each write runs
// for as long as it writes, past the read and write timeouts; one that does not is
// cut at the write timeout.
func TestStreamOutlivesTheTimeouts(t *testing.T) {
	const events = 10 // one every 100 ms: three times the timeouts
	addr := serve(t, func(w http.ResponseWriter, r *http.Request) {
		stream := r.URL.Query().Has("stream")
		tick := time.NewTicker(short.Write / 3)
		defer tick.Stop()
		for i := range events {
			if stream {
				Stream(w, short.Write)
			}
			if _, err := fmt.Fprintf(w, "event %d\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return
			}
		}
	})
	read := func(query string) int {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/"+query, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		n := 0
		for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
			n++
		}
		return n
	}
	if n := read("?stream"); n != events {
		t.Errorf("a stream got %d of its %d events", n, events)
	}
	if n := read(""); n == events {
		t.Errorf("an answer written past the write timeout without Stream got all %d events", n)
	}
}

// TestEveryServerHasTimeouts: every HTTP server the project runs is built by New,
// with its timeouts: no http.Server literal is written anywhere else (tests aside).
func TestEveryServerHasTimeouts(t *testing.T) {
	root := filepath.Join("..", "..")
	here, _ := filepath.Abs(".")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bin" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		abs, _ := filepath.Abs(filepath.Dir(path))
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || abs == here {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(src), "http.Server") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok {
				if sel, ok := lit.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Server" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "http" {
						t.Errorf("%s: an http.Server built without httpserver.New and its timeouts", path)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
