package api

import (
	"net/http"

	"github.com/lexflow/lexflow/internal/deadline"
	"github.com/lexflow/lexflow/schemas"
	"github.com/lexflow/lexflow/store"
)

// operation documents one route of the table for the OpenAPI document: its ID and
// summary, the Go type of its request body, and its answers other than problems
// (which every operation shares, see openAPIDocument).
type operation struct {
	id, summary string
	request     any
	responses   []response
}

// response is one documented answer: a JSON body of the Go type of body, or media of
// its own (a stream, a PDF, a web asset).
type response struct {
	status int
	desc   string
	body   any
	media  string
}

// uploadForm stands for an upload's body: multipart/form-data, the file in a part
// named file.
type uploadForm struct{}

// codecPayloads is the codec server's body: Temporal's payloads, as the Web UI sends
// and reads them.
type codecPayloads = map[string]any

func ok(desc string, body any) response       { return response{http.StatusOK, desc, body, ""} }
func created(desc string, body any) response  { return response{http.StatusCreated, desc, body, ""} }
func accepted(desc string, body any) response { return response{http.StatusAccepted, desc, body, ""} }
func media(status int, desc, mediaType string) response {
	return response{status: status, desc: desc, media: mediaType}
}

// operations documents every route of the route table by its "METHOD path" key; a
// test fails on a route without one, or one without a route.
var operations = map[string]operation{
	"GET /healthz":         {"health", "Liveness: the process answers", nil, []response{ok("alive", Health{})}},
	"GET /readyz":          {"ready", "Readiness: Temporal and the store answer", nil, []response{ok("ready", map[string]string{}), {http.StatusServiceUnavailable, "what is down", map[string]string{}, ""}}},
	"GET /":                {"appIndex", "The web app", nil, []response{media(http.StatusOK, "the app's page", "text/html")}},
	"GET /app/config.json": {"appConfig", "The web app's configuration", nil, []response{ok("configuration", AppConfig{})}},
	"GET /app/*":           {"appAsset", "A web app asset", nil, []response{media(http.StatusOK, "the asset", "application/octet-stream")}},
	"GET /v1/openapi.json": {"openapi", "This document", nil, []response{media(http.StatusOK, "the OpenAPI document", "application/json")}},

	"POST /v1/cases":                           {"createCase", "Open a case and start its workflow", CreateCaseRequest{}, []response{created("the case", CreateCaseResponse{})}},
	"GET /v1/cases":                            {"listCases", "The caller's cases, newest first, by pages", nil, []response{ok("a page of cases", CaseList{})}},
	"GET /v1/cases/:id":                        {"getCase", "A case: phase, status, details", nil, []response{ok("the case", CaseView{})}},
	"DELETE /v1/cases/:id":                     {"eraseCase", "Erase a case", nil, []response{ok("erased", ErasureView{}), accepted("erasing", ErasureView{})}},
	"GET /v1/cases/:id/erasure":                {"getErasure", "A case's erasure receipt", nil, []response{ok("the receipt", ErasureView{})}},
	"POST /v1/cases/:id/messages":              {"sendMessage", "Send a message: one chat turn, answered whole or streamed", SendMessageRequest{}, []response{ok("the turn's result", schemas.TurnResult{}), media(http.StatusOK, "the turn's events, with Accept: text/event-stream", "text/event-stream")}},
	"GET /v1/cases/:id/messages":               {"listMessages", "A case's transcript", nil, []response{ok("the transcript", Transcript{})}},
	"GET /v1/cases/:id/events":                 {"caseEvents", "A case's events, as a list or a stream", nil, []response{ok("a page of events", EventPage{}), media(http.StatusOK, "the events, with Accept: text/event-stream", "text/event-stream")}},
	"POST /v1/cases/:id/turns/current/cancel":  {"cancelTurn", "Cancel the running turn", nil, []response{accepted("cancel requested", CancelView{})}},
	"POST /v1/cases/:id/parties":               {"addParty", "Add a party to a case", PartyRequest{}, []response{created("the party", store.Party{})}},
	"GET /v1/cases/:id/parties":                {"listParties", "A case's parties", nil, []response{ok("the parties", PartyList{})}},
	"GET /v1/cases/:id/parties/:party":         {"getParty", "One party", nil, []response{ok("the party", store.Party{})}},
	"POST /v1/cases/:id/payment":               {"paymentGone", "Gone: clients no longer confirm payments", nil, nil},
	"GET /v1/cases/:id/price":                  {"casePrice", "What the case costs at its tier", nil, []response{ok("the price", PriceView{})}},
	"POST /v1/cases/:id/checkout":              {"checkout", "Open a checkout with the payment provider", nil, []response{created("the checkout", CheckoutView{})}},
	"POST /v1/cases/:id/close":                 {"closeCase", "Close a case", CloseRequest{}, []response{ok("closed", CloseView{}), accepted("closing", CloseView{})}},
	"GET /v1/cases/:id/drafts":                 {"listDrafts", "A case's draft revisions, with their citation checks", nil, []response{ok("the drafts", DraftList{})}},
	"GET /v1/cases/:id/drafts/:name/:revision": {"downloadDraft", "A draft revision's PDF", nil, []response{media(http.StatusOK, "the PDF", "application/pdf")}},
	"GET /v1/cases/:id/timeline":               {"downloadTimeline", "The case's timeline chart", nil, []response{media(http.StatusOK, "the PNG", "image/png")}},
	"POST /v1/cases/:id/documents": {"uploadDocument", "Upload a document (PDF, DOCX, text, JPEG, PNG) for Lexflow to read and summarize",
		uploadForm{}, []response{accepted("stored; being read", DocumentView{}), ok("the same file, uploaded before", DocumentView{})}},
	"GET /v1/cases/:id/documents":           {"listDocuments", "A case's documents, with their summaries", nil, []response{ok("the documents", DocumentList{})}},
	"GET /v1/cases/:id/documents/:doc":      {"downloadDocument", "A document as uploaded", nil, []response{media(http.StatusOK, "the file", "application/octet-stream")}},
	"GET /v1/cases/:id/documents/:doc/text": {"documentText", "A document's text as read and as the models read it, by pages", nil, []response{ok("the pages", DocumentTextView{})}},
	"DELETE /v1/cases/:id/documents/:doc":   {"deleteDocument", "Delete a document, its text and its summary", nil, []response{{http.StatusNoContent, "deleted", nil, ""}}},
	"POST /v1/cases/:id/court-files": {"linkCourtFile", "Link a Romanian court file (number and court, as the courts' portal names them) for the court watch to follow",
		CourtFileRequest{}, []response{created("linked", CourtFileView{}), ok("the same file, linked before", CourtFileView{})}},
	"GET /v1/cases/:id/court-files":             {"listCourtFiles", "A case's linked court files, with their latest hearings", nil, []response{ok("the court files", CourtFileList{})}},
	"DELETE /v1/cases/:id/court-files/:fid":     {"unlinkCourtFile", "Stop watching a court file", nil, []response{{http.StatusNoContent, "unlinked", nil, ""}}},
	"GET /v1/tools":                             {"listTools", "The tool registry as the caller's role sees it", nil, []response{ok("the tools", ToolList{})}},
	"POST /v1/citations/check":                  {"checkCitations", "Check a text's legal citations against the corpus", schemas.CitationCheck{}, []response{ok("the citations", schemas.CitationReport{})}},
	"POST /v1/query":                            {"query", "Answer a question from the corpus, suggesting a web search instead of running one", QueryRequest{}, []response{ok("the answer, its sources and checked citations", schemas.QueryAnswer{})}},
	"POST /v1/chat":                             {"chat", "Chat with no case: run the named research tools on the message, then answer from their results (and an admin's tool_context)", ChatRequest{}, []response{ok("the answer, its model and provider, and the tools that ran", schemas.ChatAnswer{})}},
	"POST /v1/deadlines/compute":                {"computeDeadline", "Compute a procedural deadline by the Romanian or Italian codes' rules, with the rules applied and the days skipped", deadline.Request{}, []response{ok("the deadline and its reasoning", deadline.Answer{})}},
	"POST /v1/cases/:id/deadlines":              {"createDeadline", "Set a deadline in a case, computed or set by hand, with its reminders", DeadlineRequest{}, []response{created("the deadline", store.Deadline{})}},
	"GET /v1/cases/:id/deadlines":               {"listDeadlines", "A case's deadlines, soonest first", nil, []response{ok("the deadlines", DeadlineList{})}},
	"GET /v1/cases/:id/deadlines/:did":          {"getDeadline", "One deadline of a case", nil, []response{ok("the deadline", store.Deadline{})}},
	"PATCH /v1/cases/:id/deadlines/:did":        {"patchDeadline", "Change a deadline's day, reminders, title, source, responsible user or status", DeadlineRequest{}, []response{ok("the deadline", store.Deadline{})}},
	"DELETE /v1/cases/:id/deadlines/:did":       {"deleteDeadline", "Delete a deadline and stop its reminders", nil, []response{{http.StatusNoContent, "deleted", nil, ""}}},
	"POST /v1/cases/:id/deadlines/:did/confirm": {"confirmDeadline", "Confirm a proposed deadline, which starts its reminders", nil, []response{ok("the deadline", store.Deadline{})}},
	"POST /v1/cases/:id/deadlines/:did/done":    {"markDeadlineDone", "Mark a deadline done, which stops its reminders", nil, []response{ok("the deadline", store.Deadline{})}},
	"GET /v1/me/deadlines":                      {"myDeadlines", "The caller's deadlines across cases, soonest first", nil, []response{ok("the deadlines", DeadlineList{})}},
	"POST /v1/me/feed":                          {"rotateFeed", "Make the caller a new calendar feed URL; the old one stops working", nil, []response{ok("the feed's URL", FeedView{})}},
	"DELETE /v1/me/feed":                        {"deleteFeed", "Turn the caller's calendar feed off", nil, []response{{http.StatusNoContent, "turned off", nil, ""}}},
	"GET /v1/feeds/:file":                       {"serveFeed", "A user's deadlines as an iCalendar feed; the secret in the URL is the credential", nil, []response{media(http.StatusOK, "the calendar", "text/calendar")}},
	"GET /v1/me/memory":                         {"getMemory", "The caller's memory", nil, []response{ok("the memory", store.Memory{})}},
	"PUT /v1/me/memory":                         {"putMemory", "Replace the caller's memory", MemoryRequest{}, []response{ok("the memory", store.Memory{})}},
	"DELETE /v1/me/memory":                      {"eraseMemory", "Erase everything remembered about the caller: every memory fact and the note", nil, []response{ok("what was erased", MemoryErased{})}},
	"GET /v1/me/memory/facts":                   {"listMemoryFacts", "The facts remembered about the caller, proposed and kept, oldest first", nil, []response{ok("the facts", MemoryFactList{})}},
	"POST /v1/me/memory/facts/:id/approve":      {"approveMemoryFact", "Keep a proposed memory fact", nil, []response{ok("the kept fact", store.MemoryFact{})}},
	"POST /v1/me/memory/facts/:id/reject":       {"rejectMemoryFact", "Reject a proposed memory fact, which deletes it", nil, []response{{http.StatusNoContent, "rejected and deleted", nil, ""}}},
	"PATCH /v1/me/memory/facts/:id":             {"editMemoryFact", "Replace a memory fact's text", MemoryFactRequest{}, []response{ok("the fact", store.MemoryFact{})}},
	"DELETE /v1/me/memory/facts/:id":            {"deleteMemoryFact", "Delete a memory fact", nil, []response{{http.StatusNoContent, "deleted", nil, ""}}},
	"DELETE /v1/me/queries":                     {"eraseTenantTexts", "Erase the caller's tenant's queries and citation checks", nil, []response{ok("how many were erased", TenantTextsErased{})}},
	"GET /v1/me/notifications":                  {"listNotifications", "The caller's notifications, newest first, and the unread count", nil, []response{ok("a page", NotificationList{})}},
	"DELETE /v1/me/notifications":               {"eraseNotifications", "Erase the caller's notification settings, notifications and sends (held cases' kept)", nil, []response{ok("how many were erased", NotificationsErased{})}},
	"POST /v1/me/notifications/read":            {"readAllNotifications", "Mark every notification of the caller read", nil, []response{ok("marked", UnreadCount{})}},
	"POST /v1/me/notifications/:id/read":        {"readNotification", "Mark one of the caller's notifications read", nil, []response{ok("marked", UnreadCount{})}},
	"GET /v1/me/notifications/settings":         {"getNotificationSettings", "The caller's notification settings", nil, []response{ok("the settings", NotificationSettingsView{})}},
	"PUT /v1/me/notifications/settings":         {"putNotificationSettings", "Change the caller's channels, language or time zone", NotificationSettingsRequest{}, []response{ok("the settings", NotificationSettingsView{})}},
	"PUT /v1/me/notifications/email":            {"putEmail", "Send a verification code to a new e-mail address", EmailRequest{}, []response{accepted("the code is sent", NotificationSettingsView{})}},
	"DELETE /v1/me/notifications/email":         {"deleteEmail", "Forget the caller's e-mail addresses and turn e-mail off", nil, []response{ok("the settings", NotificationSettingsView{})}},
	"POST /v1/me/notifications/email/verify":    {"verifyEmail", "Verify the pending e-mail address with its code", CodeRequest{}, []response{ok("verified", NotificationSettingsView{})}},

	"GET /v1/support/cases":              {"supportCases", "Cases by status, for support", nil, []response{ok("the cases", SupportCaseList{})}},
	"GET /v1/support/cases/:id":          {"supportCase", "Where a case stands, its stall and escalation, for support (audited)", nil, []response{ok("the case", SupportCaseView{})}},
	"GET /v1/support/cases/:id/tickets":  {"supportTickets", "A case's support tickets", nil, []response{ok("the tickets", TicketList{})}},
	"GET /v1/support/cases/:id/messages": {"supportMessages", "A case's transcript, for support (audited)", nil, []response{ok("the transcript", Transcript{})}},
	"GET /v1/support/cases/:id/events":   {"supportEvents", "A case's events, for support (audited)", nil, []response{ok("a page of events", EventPage{}), media(http.StatusOK, "the events, with Accept: text/event-stream", "text/event-stream")}},
	"POST /v1/support/cases/:id/resume":  {"resumeCase", "Resume a paused case", ResumeRequest{}, []response{ok("resumed", ResumeView{}), accepted("resuming", ResumeView{})}},
	"POST /v1/support/codec-session":     {"openCodecSession", "Open a codec session for the Temporal Web UI", nil, []response{ok("the session", CodecSession{})}},
	"DELETE /v1/support/codec-session":   {"closeCodecSession", "Close the codec session", nil, []response{{http.StatusNoContent, "closed", nil, ""}}},

	"PUT /v1/admin/cases/:id/hold":        {"putHold", "Put a legal hold on a case", HoldRequest{}, []response{ok("the hold", HoldView{})}},
	"DELETE /v1/admin/cases/:id/hold":     {"liftHold", "Lift a legal hold", nil, []response{ok("lifted", HoldView{})}},
	"GET /v1/admin/cases/:id/context":     {"caseContext", "What the case's next model call would read", nil, []response{ok("the assembled call", ContextView{})}},
	"PUT /v1/admin/subscriptions/:id":     {"putSubscription", "Set a subscription's plan and credits", SubscriptionRequest{}, []response{ok("the subscription", store.Subscription{})}},
	"POST /v1/admin/prompts/reload":       {"reloadPrompts", "Reload the system prompts", nil, []response{ok("what the files hold", ReloadResponse{})}},
	"GET /v1/admin/audit":                 {"listAudit", "The audit log", nil, []response{ok("the entries", AuditList{})}},
	"POST /v1/admin/tools/execute":        {"executeTool", "Run one tool as a turn would, with its arguments or Sanctum's query to write them from, and read its raw result (admins; audited, rate limited)", ToolRun{}, []response{ok("the run: its arguments, raw result, text and latency", ToolRunResult{})}},
	"GET /v1/admin/budgets/:tenant":       {"getBudget", "A tenant's model-token budget", nil, []response{ok("the budget", BudgetView{})}},
	"PUT /v1/admin/budgets/:tenant":       {"putBudget", "Set a tenant's model-token budget", BudgetRequest{}, []response{ok("the budget", BudgetView{})}},
	"GET /v1/admin/disclosures/:org":      {"getDisclosure", "An organization's AI disclosure on drafts", nil, []response{ok("the disclosure", DisclosureView{})}},
	"PUT /v1/admin/disclosures/:org":      {"putDisclosure", "Set an organization's AI disclosure on drafts", DisclosureRequest{}, []response{ok("the disclosure", DisclosureView{})}},
	"POST /v1/billing/cases/:id/payments": {"recordOfflinePayment", "Record a payment made outside the provider", OfflinePaymentRequest{}, []response{ok("recorded", OfflinePaymentView{}), accepted("confirming", OfflinePaymentView{})}},
	"POST /v1/webhooks/payments":          {"paymentWebhook", "The payment provider's signed event", nil, []response{ok("handled", WebhookAnswer{})}},

	"POST /codec/decode": {"codecDecode", "Decode payloads for the Temporal Web UI", codecPayloads{}, []response{ok("the payloads", codecPayloads{})}},
	"POST /codec/encode": {"codecEncode", "Encode payloads", codecPayloads{}, []response{ok("the payloads", codecPayloads{})}},
	"OPTIONS /codec/:op": {"codecPreflight", "CORS preflight of the codec routes", nil, []response{{http.StatusNoContent, "allowed", nil, ""}}},
	"POST /dev/token":    {"devToken", "Mint a token (lexflow dev only)", DevTokenRequest{}, []response{created("the token", DevToken{})}},
	"GET /pay/:session":  {"testPayPage", "The test checkout's page (lexflow dev only)", nil, []response{media(http.StatusOK, "the page", "text/html")}},
	"POST /pay/:session": {"testPay", "Pay at the test checkout (lexflow dev only)", nil, []response{{http.StatusSeeOther, "back to the app", nil, ""}}},
}
