package workflows

import (
	"encoding/json"

	"github.com/lexflow/lexflow/schemas"
)

// childTools start the tools that run as child workflows of the turn, by the workflow
// name in their registry entry: the child's workflow ID and input for the tool's
// decoded arguments in the turn that calls it.
var childTools = map[string]func(args any, in schemas.ChatTurnInput) (id string, input any){
	// generate_draft_pdf: one Draft workflow per (case, name, revision).
	schemas.DraftWorkflow: func(args any, in schemas.ChatTurnInput) (string, any) {
		a := args.(schemas.GenerateDraftPDFArgs)
		return schemas.DraftWorkflowID(a.CaseID, a.DraftName, a.Revision), a
	},
	// create_support_ticket: one SupportTicket workflow per turn.
	schemas.SupportTicketWorkflow: func(args any, in schemas.ChatTurnInput) (string, any) {
		id := schemas.TurnTicketWorkflowID(in.TurnID)
		return id, schemas.SupportTicketInput{TicketID: id, UserID: in.UserID, Args: args.(schemas.CreateSupportTicketArgs)}
	},
	// propose_deadline: one ProposeDeadline workflow per turn and arguments, so the
	// same proposal made twice in a turn is one deadline.
	schemas.ProposeDeadlineWorkflow: func(args any, in schemas.ChatTurnInput) (string, any) {
		a := args.(schemas.ProposeDeadlineArgs)
		raw, _ := json.Marshal(a) // a struct of strings, numbers and pointers to them always encodes
		id := schemas.ProposalID(in.TurnID, raw)
		return schemas.ProposeDeadlineWorkflowID(a.CaseID, id), schemas.ProposeDeadline{DeadlineID: id, ProposedBy: schemas.ProposedByAssistant, Args: a}
	},
}
