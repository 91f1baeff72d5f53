package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/openai/openai-go/v3/option"
)

// record is the middleware that writes each exchange into dir as a Recording, one
// file each, named by its order and what it is matched by
// (0007-assistant-step2.json). The answer passes on to the client as it arrives, a
// stream piece by piece, and its file is written once the client has read it whole
// or closed it. A file that cannot be written fails the call, so that a recording
// never goes missing unnoticed.
func record(dir string) option.Middleware {
	var mu sync.Mutex // orders the numbering of files
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		body, err := readBody(r)
		if err != nil {
			return nil, err
		}
		rec, err := exchangeOf(body)
		if err != nil {
			return nil, err
		}
		resp, err := next(r)
		if err != nil {
			return nil, err
		}
		rec.Status, rec.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
		resp.Body = &recordingBody{ReadCloser: resp.Body, save: func(answer []byte) error {
			rec.Response = string(answer)
			mu.Lock()
			defer mu.Unlock()
			return writeRecording(dir, rec)
		}}
		return resp, nil
	}
}

// readBody reads a request's body and puts it back for the next reader.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, errors.New("model request has no body")
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read the model request: %w", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// writeRecording writes rec into dir under the first number no file there has.
func writeRecording(dir string, rec Recording) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("record model exchange: %w", err)
	}
	for n := len(entries) + 1; ; n++ {
		name := filepath.Join(dir, fmt.Sprintf("%04d-%s-step%d.json", n, rec.Role, rec.Step))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("record model exchange: %w", err)
		}
		if _, err := f.Write(append(data, '\n')); err != nil {
			f.Close()
			return fmt.Errorf("record model exchange: %w", err)
		}
		return f.Close()
	}
}

// recordingBody is an answer's body that keeps what the client reads of it, and
// saves it once: at its end, or when the client closes it before.
type recordingBody struct {
	io.ReadCloser
	buf   bytes.Buffer
	save  func([]byte) error
	once  sync.Once
	saved error
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if errors.Is(err, io.EOF) {
		if serr := b.finish(); serr != nil {
			return n, serr
		}
	}
	return n, err
}

func (b *recordingBody) Close() error {
	err := b.ReadCloser.Close()
	return errors.Join(err, b.finish())
}

func (b *recordingBody) finish() error {
	b.once.Do(func() { b.saved = b.save(b.buf.Bytes()) })
	return b.saved
}
