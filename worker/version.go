package worker

import (
	"errors"
	"runtime/debug"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// Version is the Worker Deployment version a worker belongs to: Temporal's worker
// versioning, which routes each workflow's tasks only to the workers of the version it
// runs on. A zero Version is an unversioned worker.
//
// Workflows that wait on people for days (a case, its quota awaiting payment, a
// support ticket) or on a date (a deadline's timers) auto-upgrade: once an operator
// makes a new version current, their next task runs on its workers, replaying their
// history under the new code, which workflow.GetVersion (workflows.Changes) and the
// replay tests keep safe. Workflows that run for minutes,
// at most hours (a turn, tiering, a draft, an erasure, a retention run), are pinned:
// they finish on the workers of the version they started on, so a deploy never
// changes their code midway, and that version's workers are kept until it is drained;
// they never call workflow.GetVersion.
type Version struct {
	// Deployment names the Worker Deployment ("lexflow"); empty means unversioned.
	Deployment string
	// BuildID names this build of the worker within the deployment.
	BuildID string
}

// VersionOf is the version of a worker in deployment (none if empty) with build
// buildID or, if empty, the binary's VCS revision ("-dirty" when built from modified
// files).
func VersionOf(deployment, buildID string) (Version, error) {
	if deployment == "" {
		return Version{}, nil
	}
	if buildID == "" {
		buildID = vcsRevision()
	}
	if buildID == "" {
		return Version{}, errors.New("this binary records no VCS revision (go run does not): set LEXFLOW_BUILD_ID to name its build")
	}
	return Version{Deployment: deployment, BuildID: buildID}, nil
}

// vcsRevision is the revision the binary was built from, or "".
func vcsRevision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "-dirty"
	}
	return rev
}

// Options are the worker options of a worker of the version: New's, and the
// benchmark's floor's.
func (v Version) Options() worker.Options {
	if v.Deployment == "" {
		return worker.Options{}
	}
	return worker.Options{DeploymentOptions: worker.DeploymentOptions{
		UseVersioning: true,
		Version:       worker.WorkerDeploymentVersion{DeploymentName: v.Deployment, BuildID: v.BuildID},
	}}
}

// Behavior is the versioning behavior of the workflow type named name (see Version),
// or VersioningBehaviorUnspecified for a type the worker does not run.
func Behavior(name string) workflow.VersioningBehavior { return behaviors[name] }

// behaviors is each workflow's versioning behavior (see Version).
var behaviors = map[string]workflow.VersioningBehavior{
	schemas.CaseWorkflow:            workflow.VersioningBehaviorAutoUpgrade,
	schemas.QuotaWorkflow:           workflow.VersioningBehaviorAutoUpgrade,
	schemas.SupportTicketWorkflow:   workflow.VersioningBehaviorAutoUpgrade,
	schemas.ChatTurnWorkflow:        workflow.VersioningBehaviorPinned,
	schemas.TieringWorkflow:         workflow.VersioningBehaviorPinned,
	schemas.DraftWorkflow:           workflow.VersioningBehaviorPinned,
	schemas.EraseWorkflow:           workflow.VersioningBehaviorPinned,
	schemas.RetentionWorkflow:       workflow.VersioningBehaviorPinned,
	schemas.RefreshLawWorkflow:      workflow.VersioningBehaviorPinned,
	schemas.CitationCheckWorkflow:   workflow.VersioningBehaviorPinned,
	schemas.ToolExecutionWorkflow:   workflow.VersioningBehaviorPinned,
	schemas.QueryWorkflow:           workflow.VersioningBehaviorPinned,
	schemas.ChatWorkflow:            workflow.VersioningBehaviorPinned,
	schemas.DocumentWorkflow:        workflow.VersioningBehaviorPinned,
	schemas.DeadlineWorkflow:        workflow.VersioningBehaviorAutoUpgrade,
	schemas.ProposeDeadlineWorkflow: workflow.VersioningBehaviorPinned,
	schemas.CourtWatchWorkflow:      workflow.VersioningBehaviorPinned,
	schemas.ProposeMemoryWorkflow:   workflow.VersioningBehaviorPinned,
}
