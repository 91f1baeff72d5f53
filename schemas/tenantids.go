package schemas

import "strings"

// TenantOfWorkflow is the tenant (a TenantKey) that a query, citation check, chat
// message or deadline belongs to, from its workflow ID (QueryWorkflowID,
// CitationCheckWorkflowID, ChatWorkflowID, DeadlineWorkflowID), or "" for any other workflow and for those started before their
// IDs named a tenant ("query:<uuid>").
func TenantOfWorkflow(workflowID string) string {
	for _, prefix := range []string{queryPrefix, citationCheckPrefix, chatPrefix, deadlinePrefix} {
		if rest, ok := strings.CutPrefix(workflowID, prefix); ok {
			if i := strings.LastIndexByte(rest, ':'); i > 0 {
				return rest[:i]
			}
		}
	}
	return ""
}
