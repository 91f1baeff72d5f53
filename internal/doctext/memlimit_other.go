//go:build !linux

package doctext

// limited runs the program as it is outside Linux, which has no prlimit: its memory is
// bounded there only by what the machine has.
func limited(_ uint64, path string, args []string) (string, []string, error) {
	return path, args, nil
}
