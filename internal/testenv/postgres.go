package testenv

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/lexflow/lexflow/internal/childproc"
)

// PostgresBinDir is where Debian's postgresql package (15) puts initdb and postgres;
// `make cluster-test` installs it with apt.
const PostgresBinDir = "/usr/lib/postgresql/15/bin"

// Postgres is a PostgreSQL server of a test's own: its own data directory and a free
// loopback port, user postgres with no password (trust), and durability traded for
// speed (no fsync), which a test that kills no database can afford.
type Postgres struct {
	// Port is its TCP port on 127.0.0.1.
	Port int
	dir  string
	p    *childproc.Process
}

// StartPostgres initializes a data directory in a temporary directory of its own and
// starts PostgreSQL on it, its log going to output (nil: discarded), and returns once
// it accepts connections, or fails when ctx ends first. initdb and postgres refuse to
// run as root, so as root they run as the postgres user, which then owns the
// directory (a test's own temporary directories are closed to other users).
func StartPostgres(ctx context.Context, output io.Writer) (pg *Postgres, err error) {
	dir, err := os.MkdirTemp("", "lexflow-postgres-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	data := filepath.Join(dir, "pgdata")
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	cred, err := postgresCredential(dir, data)
	if err != nil {
		return nil, err
	}
	initdb := exec.CommandContext(ctx, filepath.Join(PostgresBinDir, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb (from Debian's postgresql package; `make cluster-test` installs it): %w\n%s", err, out)
	}
	port, err := childproc.FreePort()
	if err != nil {
		return nil, err
	}
	cmd := childproc.Command(filepath.Join(PostgresBinDir, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+data,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	cmd.SysProcAttr.Credential = cred
	p, tail, err := childproc.StartCmd(cmd, output)
	if err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	pg = &Postgres{Port: port, dir: dir, p: p}
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return pg, nil
		}
		select {
		case <-pg.p.Done():
			return nil, fmt.Errorf("postgres exited; its last output:\n%s", tail.String())
		case <-ctx.Done():
			pg.p.Kill()
			return nil, fmt.Errorf("postgres not ready: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// postgresCredential is who runs initdb and postgres: nil (this process's user) unless
// this process is root, then the postgres user, given dir and data.
func postgresCredential(dir, data string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL needs the postgres user (Debian's postgresql package makes it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, p := range []string{dir, data} {
		if err := os.Chown(p, uid, gid); err != nil {
			return nil, err
		}
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// Stop asks the server to shut down (SIGTERM: a smart shutdown, which waits for its
// clients to leave), kills it if it has not stopped within 15 seconds, and removes its
// data.
func (pg *Postgres) Stop() {
	pg.p.Stop()
	os.RemoveAll(pg.dir)
}
