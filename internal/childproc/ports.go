package childproc

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
)

// Free ports are chosen from lowPort to highPort, below the kernel's ephemeral range
// (32768 and up on Linux): the kernel hands those out to outgoing connections, so a
// port it chose for a listener that then closed may be taken by a connection before
// the process meant to listen on it does (seen: FerretDB under `lexflow dev` failing
// with "address already in use" while other test packages ran).
const (
	lowPort  = 20000
	highPort = 32000
)

// ListenLowPort listens on a free loopback port between lowPort and highPort.
func ListenLowPort() (net.Listener, error) {
	for range 100 {
		port := lowPort + rand.IntN(highPort-lowPort)
		if l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			return l, nil
		}
	}
	return nil, fmt.Errorf("no free port between %d and %d in 100 tries", lowPort, highPort)
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listened on a moment ago, from
// below the kernel's ephemeral range.
func FreePort() (int, error) {
	l, err := ListenLowPort()
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
