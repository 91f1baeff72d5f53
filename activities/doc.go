// Package activities holds Lexflow's Temporal activities: every call that leaves a
// workflow, grouped by what it touches. Each is a method on a struct that holds its
// dependencies, so the worker registers the struct and workflows name the method; the
// tool registry names a tool's activity by its method's name.
package activities
