package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/lexflow/lexflow/schemas"
)

// welcomeChange is the change that has a new case greet its client before tiering
// (issue 42).
const welcomeChange = "welcome"

// welcomes are what a case tells its client first, in the case's language: seed 003's
// greeting ("Bun venit la Relex! …") with Lexflow's name, saying what happens next.
// The client described the case when opening it, so the greeting does not ask for a
// description: it says the case's tier is read from it (with one question if it is not
// enough), and then the subscription is checked for that tier.
var welcomes = map[string]string{
	"en": "Welcome to Lexflow! To best assist you, I first need to understand the type and complexity (case tier) of your legal matter. " +
		"I am reading the description you gave me to determine the case tier; if it is not enough, I will ask you one question. " +
		"Then I will check whether your subscription covers a case of that tier, and we can proceed.",
	"ro": "Bun venit la Lexflow! Pentru a vă putea ajuta cât mai bine, trebuie să înțeleg mai întâi tipul problemei juridice și complexitatea acesteia (nivelul de caz). " +
		"Analizez descrierea pe care mi-ați dat-o pentru a stabili nivelul cazului; dacă nu este suficientă, vă voi pune o singură întrebare. " +
		"Apoi voi verifica dacă abonamentul dvs. acoperă un caz de acest nivel și putem continua.",
	"it": "Le do il benvenuto in Lexflow! Per aiutarla al meglio, devo prima capire il tipo di questione giuridica e la sua complessità (il livello del caso). " +
		"Sto leggendo la descrizione che mi ha dato per stabilire il livello del caso; se non basta, le farò una sola domanda. " +
		"Poi verificherò se il suo abbonamento copre un caso di quel livello, e potremo procedere.",
}

// welcomeFor is the greeting in a language, English for one Lexflow does not speak.
func welcomeFor(lang string) string {
	if s, ok := welcomes[lang]; ok {
		return s
	}
	return welcomes["en"]
}

// welcome writes the case's greeting as its first transcript notice, on the case's
// first run only: a run continued as new carries its state and was greeted. The
// notice's record ID is the case's first notice's, so a retried write keeps one, and
// the client reads it once, in the transcript and as a notice event. A write that
// fails through storeOptions' day of retries is logged and the case goes on to its
// tiering: the greeting is not the case's record.
func (w *caseWorkflow) welcome(ctx workflow.Context) {
	if w.in.State != nil || workflow.GetVersion(ctx, welcomeChange, workflow.DefaultVersion, 1) != 1 {
		return
	}
	if err := w.notice(ctx, schemas.RecordAssistant, welcomeFor(w.in.Language)); err != nil {
		workflow.GetLogger(ctx).Warn("Case not greeted", "CaseID", w.state.CaseID, "error", err)
	}
}
