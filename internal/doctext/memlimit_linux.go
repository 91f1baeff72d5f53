package doctext

import (
	"os/exec"
	"strconv"
)

// limited is the command line that runs the program at path with args under max bytes
// of address space (RLIMIT_AS): util-linux's prlimit sets the limit on itself and then
// becomes the program, so the limit holds from the program's first instruction.
func limited(max uint64, path string, args []string) (string, []string, error) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		return "", nil, err
	}
	return prlimit, append([]string{"--as=" + strconv.FormatUint(max, 10), "--", path}, args...), nil
}
