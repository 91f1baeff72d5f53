package schemas

import (
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
)

// Search attributes of a Case workflow, so that the Web UI can filter paused and stuck
// cases: `CaseStatus = "open" AND Phase = "active"`, `Tenant = "org:acme"`.
var (
	SACaseStatus = temporal.NewSearchAttributeKeyKeyword("CaseStatus")
	SAPhase      = temporal.NewSearchAttributeKeyKeyword("Phase")
	SAWaitingOn  = temporal.NewSearchAttributeKeyKeyword("WaitingOn")
	SATier       = temporal.NewSearchAttributeKeyInt64("Tier")
	// SATenant is the case's TenantKey ("org:acme", "user:ana"). SATenantID, the bare
	// organization or, without one, the subject, is what cases set before Tenant
	// existed: an organization and a user of the same name share it.
	SATenant   = temporal.NewSearchAttributeKeyKeyword("Tenant")
	SATenantID = temporal.NewSearchAttributeKeyKeyword("TenantID")
	// SAProgressAt is when the case last moved; a case waiting on the agent for longer
	// than the stuck threshold is stuck.
	SAProgressAt = temporal.NewSearchAttributeKeyTime("ProgressAt")
)

// SearchAttributes are the custom search attributes a namespace needs, with their types.
var SearchAttributes = map[string]enums.IndexedValueType{
	SACaseStatus.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
	SAPhase.GetName():      enums.INDEXED_VALUE_TYPE_KEYWORD,
	SAWaitingOn.GetName():  enums.INDEXED_VALUE_TYPE_KEYWORD,
	SATier.GetName():       enums.INDEXED_VALUE_TYPE_INT,
	SATenant.GetName():     enums.INDEXED_VALUE_TYPE_KEYWORD,
	SATenantID.GetName():   enums.INDEXED_VALUE_TYPE_KEYWORD,
	SAProgressAt.GetName(): enums.INDEXED_VALUE_TYPE_DATETIME,
}
